"""A course's settings after it was created (the tester found no page for them): name, term, language and
target GPU, for the course's instructors only (TAs and students 403, outsiders 404), linked from the
course page, with clear validation messages, in English and Korean. A new target GPU is what grading and
question drawing read from then on; it cannot change while a student is taking one of the course's exams."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from courses.models import Course
from problems.core.gpus import gpus_for

pytestmark = pytest.mark.django_db
SETTINGS = {"name": "Parallel Programming II", "term": "Spring 2027", "language": "ko", "target_cc": "8.6"}


def client_for(user, lang: str = "en") -> Client:
    client = Client(headers={"accept-language": lang})
    client.force_login(user)
    return client


def url(code: str = "PP-A") -> str:
    return reverse("courses:settings", args=[code])


@pytest.mark.parametrize("lang, words", [
    ("en", ["Course settings", "Target GPU", "Changing the target GPU affects, from the moment you save:",
            "It cannot change while a student is taking one of the course's exams."]),
    ("ko", ["강좌 설정", "대상 GPU", "대상 GPU를 바꾸면 저장한 순간부터 다음에 적용됩니다:",
            "학생이 이 강좌의 시험을 치르는 동안에는 바꿀 수 없습니다."])])
def test_an_instructor_finds_the_settings_from_the_course_page_filled_in(courses, people, lang, words):
    prof = client_for(people["prof"], lang)
    course_page = prof.get(reverse("courses:course", args=["PP-A"])).content.decode()
    assert f'href="{url()}" id="course-settings"' in course_page
    page = prof.get(url()).content.decode()
    assert all(w in page for w in words), [w for w in words if w not in page]
    assert 'value="Parallel Programming"' in page and 'value="Fall 2026"' in page
    assert '<option value="9.0" selected>' in page and 'id="target-gpu-effects"' in page
    assert 'name="code"' not in page and "PP-A" in page  # the code is shown, not edited


@pytest.mark.parametrize("who", ["tara", "stu"])
def test_tas_and_students_get_403_and_no_link(courses, people, who):
    client = client_for(people[who])
    assert client.get(url()).status_code == 403
    assert client.post(url(), SETTINGS).status_code == 403
    assert Course.objects.get(code="PP-A").name == "Parallel Programming"
    assert 'id="course-settings"' not in client.get(reverse("courses:course", args=["PP-A"])).content.decode()


def test_outsiders_get_404_and_visitors_the_log_in_page(courses, people):
    assert client_for(people["bea"]).get(url()).status_code == 404  # an instructor of another course
    assert client_for(people["nobody"]).post(url(), SETTINGS).status_code == 404
    assert client_for(people["prof"]).get(url("NO-SUCH")).status_code == 404
    r = Client().get(url())
    assert r.status_code == 302 and r["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("lang, saved, gpu_said", [
    ("en", "Course settings saved.", "The target GPU is now 8.6"),
    ("ko", "강좌 설정을 저장했습니다.", "대상 GPU가 이제 8.6")])
def test_saving_changes_the_course_and_says_what_the_gpu_change_means(courses, people, lang, saved, gpu_said):
    prof = client_for(people["prof"], lang)
    r = prof.post(url(), {**SETTINGS, "name": "  Parallel Programming II  "})
    assert r.status_code == 302 and r["Location"] == reverse("courses:course", args=["PP-A"])
    course = Course.objects.get(code="PP-A")
    assert (course.name, course.term, course.language, course.target_cc) == ("Parallel Programming II", "Spring 2027",
                                                                            "ko", "8.6")
    page = prof.get(r["Location"]).content.decode()
    assert saved in page and gpu_said in page and "Parallel Programming II" in page
    again = prof.post(url(), SETTINGS, follow=True).content.decode()
    assert ("Nothing was changed." if lang == "en" else "바뀐 것이 없습니다.") in again and gpu_said not in again


@pytest.mark.parametrize("lang, data, field, message", [
    ("en", {"name": "   "}, "name", "Give the course a name."),
    ("ko", {"name": ""}, "name", "강좌 이름을 입력하세요."),
    ("en", {"name": "x" * 201}, "name", "A course name has at most 200 characters (this one has 201)."),
    ("ko", {"term": "t" * 61}, "term", "학기는 60자까지입니다(지금 61자)."),
    ("en", {"target_cc": "4.2"}, "target_cc", "Choose a GPU from the list."),
    ("ko", {"target_cc": ""}, "target_cc", "대상 GPU를 고르세요."),
    ("en", {"language": "fr"}, "language", "Choose English or Korean."),
])
def test_a_wrong_value_is_named_at_its_field_and_nothing_is_saved(courses, people, lang, data, field, message):
    r = client_for(people["prof"], lang).post(url(), {**SETTINGS, **data})
    assert r.status_code == 400
    assert r.context["form"].errors[field] == [message]
    html = r.content.decode()
    assert message.replace("'", "&#x27;") in html and 'id="settings-errors"' in html
    course = Course.objects.get(code="PP-A")
    assert (course.name, course.target_cc) == ("Parallel Programming", "9.0")


def test_a_new_target_gpu_is_what_grading_and_drawing_read(courses, people):
    """After 9.0 -> 8.6: a course problem's submission is judged for 8.6, a problem set's new question draws
    an 8.6 GPU, the question families preview and the calculator opened from the course say 8.6."""
    from authoring import actions as authoring
    from grader.models import Submission
    from grader.tasks import course_target_cc
    from homework import actions as homework

    course = courses["A"]
    problem = authoring.create_problem(course, people["prof"], "scale-a", "Scale a vector", "벡터 스케일")
    submission = Submission.objects.create(user=people["stu"], problem_version=problem.versions.get(), source="x")
    now = timezone.now()
    problem_set = homework.create_set(course, people["prof"], title_en="Week 1", opens_at=now - timedelta(hours=1),
                                      due_at=now + timedelta(days=7))
    item = homework.add_item(problem_set, family="occupancy.blocks_per_sm")
    before = homework.item_question(item, people["tara"])
    assert course_target_cc(submission) == "9.0" and before.params["gpu"] in {g.key for g in gpus_for("9.0")}

    assert client_for(people["prof"]).post(url(), SETTINGS).status_code == 302
    submission = Submission.objects.get(pk=submission.pk)
    assert course_target_cc(submission) == "8.6"
    item = type(item).objects.get(pk=item.pk)  # as a request reads it, with its course's row as saved
    question = homework.item_question(item, people["stu"])
    assert question.params["gpu"] in {g.key for g in gpus_for("8.6")}
    assert homework.item_question(item, people["tara"]).pk == before.pk  # a question already drawn keeps its GPU
    preview = client_for(people["prof"]).get(reverse("authoring:family-preview", args=["PP-A"])).content.decode()
    assert "compute capability 8.6" in preview
    calculator = client_for(people["stu"]).get(reverse("practice:calculator") + "?course=PP-A").content.decode()
    assert '<option value="8.6" selected>' in calculator


def test_the_target_gpu_waits_for_an_exam_in_progress_the_rest_does_not(courses, people):
    from exams.actions.attempts import start_attempt
    from exams.actions.scheduling import save_template, schedule_exam
    from tests.exams.conftest import TEMPLATE

    course = courses["A"]
    template = {**TEMPLATE, "zones": TEMPLATE["zones"][:1]}  # questions only: no kernel problem needed
    now = timezone.now()
    exam = schedule_exam(course, save_template(course, people["prof"], template), opens_at=now - timedelta(minutes=5),
                         closes_at=now + timedelta(hours=1), duration_minutes=30)
    start_attempt(exam, people["stu"])
    for lang, words in (("en", "Students are taking an exam of this course now"), ("ko", "지금 학생들이 이 강좌의 시험을")):
        r = client_for(people["prof"], lang).post(url(), SETTINGS)
        assert r.status_code == 400 and words in r.context["form"].errors["target_cc"][0]
    assert Course.objects.get(pk=course.pk).target_cc == "9.0"
    r = client_for(people["prof"]).post(url(), {**SETTINGS, "target_cc": "9.0"})
    assert r.status_code == 302 and Course.objects.get(pk=course.pk).name == "Parallel Programming II"
