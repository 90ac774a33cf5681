"""An exam's kernel problem can be kept secret (PrairieLearn's exam-only questions): a course problem
may be drawn by an exam without being published, and a course problem that an exam of its course uses
is "reserved" from the moment the exam is scheduled until every student's window has closed: its
students cannot list, open or submit it (page, API, CLI), its staff can. The bank's problems are
public, and the template editor says so.

The tester practised an exam's kernel problem the day before (it had to be published), and during the
exam from a second account or after submitting early, with full per-test feedback."""
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from exams.actions.attempts import extend_attempt, start_attempt, submit_attempt, submit_kernel
from exams.actions.scheduling import save_template, schedule_exam, set_accommodation
from exams.catalogue import DbCatalogue
from exams.services import is_reserved
from grader import actions as grader_actions
from grader.models import Submission
from problems.core.package import parse_package
from problems.models import Problem
from problems.services import import_package
from tests.packages import PROBLEM_YAML, tiny_package_files

from .conftest import client_for

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("not_sent")]
SLUG = "secret-add"
SOURCE = "__global__ void add(const float* a, const float* b, float* c, int n) { }\n"


def course_problem(course, slug=SLUG, published=True, topic="indexing"):
    """A kernel problem of `course` with a version in use (imported as the bank's are: validated)."""
    yaml = PROBLEM_YAML.replace("slug: tiny-add", f"slug: {slug}").replace("topic: indexing", f"topic: {topic}")
    import_package(parse_package(tiny_package_files(**{"problem.yaml": yaml})))
    Problem.objects.filter(slug=slug).update(course=course, is_published=published)
    return Problem.objects.select_related("current_version", "course").get(slug=slug)


def template_with(kernel) -> dict:
    return {"title": {"en": "Secret midterm", "ko": "비밀 중간고사"},
            "zones": [{"title": "Questions", "choose": 1, "points": 5, "pool": ["indexing.global_index"]},
                      {"title": "Kernel", "pool": [{"kernel": kernel, "attempts": 3}]}]}


def schedule(course, people, kernel=SLUG, opens_in=timedelta(days=1), hours=1):
    template = save_template(course, people["ivy"], template_with(kernel))
    opens = timezone.now() + opens_in
    return schedule_exam(course, template, opens_at=opens, closes_at=opens + timedelta(hours=hours),
                         duration_minutes=30)


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def practice(user, slug=SLUG):
    """Every way a student reaches a problem outside an exam: (page, page POST, API detail, API submit)."""
    web = client_for(user)
    return (web.get(reverse("problems:detail", args=[slug])).status_code,
            web.post(reverse("problems:detail", args=[slug]), {"source": SOURCE}).status_code,
            api(user).get(reverse("api:problem", args=[slug])).status_code,
            api(user).post(reverse("api:problem-submissions", args=[slug]), {"source": SOURCE}, format="json").status_code)


# ---- an exam may use a course problem that is not published ------------------------------------

def test_an_unpublished_course_problem_with_a_version_in_use_is_usable_in_its_courses_exams(course, people):
    hidden = course_problem(course, published=False)
    info = DbCatalogue(course).get(SLUG)
    assert info.error == "" and info.version_id == hidden.current_version_id
    exam = schedule(course, people, opens_in=timedelta(minutes=-5))
    attempt = start_attempt(exam, people["alice"])
    kernel = attempt.items.get(kind="kernel")
    assert kernel.data["kernel"]["slug"] == SLUG
    submission = submit_kernel(kernel, people["alice"], SOURCE)  # the exam's own path is open
    assert submission.exam_item_id == kernel.pk
    # Another course cannot use it, and the bank's unpublished problems stay unusable.
    from tests.exams.conftest import make_course

    assert DbCatalogue(make_course("OTHER", "Other")).get(SLUG) is None


def test_a_course_problem_without_a_validated_version_is_refused_with_what_to_do(course, people):
    from authoring.actions import create_problem
    from exams.core.template import TemplateError

    create_problem(course, people["ivy"], "draft-add", "Draft add")
    with pytest.raises(TemplateError) as refused:
        save_template(course, people["ivy"], template_with("draft-add"))
    assert "publish it or use it in exams only" in str(refused.value)
    page = client_for(people["ivy"]).post(reverse("exams:template_new", args=[course.pk]),
                                          {"text": __import__("json").dumps(template_with("draft-add"))},
                                          HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "시험 전용으로 사용하세요" in page


def test_use_in_exams_only_needs_a_passed_validation_and_keeps_the_problem_hidden(course, people):
    from authoring.actions import AuthoringError, create_problem, latest_version, start_validation, use_in_exams_only
    from grader import grading
    from grader.core.results import JudgeResult
    from grader.core.verdicts import Verdict

    draft = create_problem(course, people["ivy"], "draft-add", "Draft add")
    version = latest_version(draft)
    with pytest.raises(AuthoringError):
        use_in_exams_only(version, people["ivy"])
    run = start_validation(version, people["ivy"])
    for item in run.items.all():
        grading.finish_grading(item.submission_id, JudgeResult(verdict=Verdict(item.expected)))
    ivy = client_for(people["ivy"])
    response = ivy.post(reverse("authoring:exams-only", args=[course.code, draft.slug, version.number]), follow=True)
    assert "in use for exams only" in response.content.decode() and 'id="exams-only-badge"' in response.content.decode()
    draft.refresh_from_db()
    assert draft.current_version == version and not draft.is_published
    assert DbCatalogue(course).get("draft-add").error == ""
    assert client_for(people["alice"]).get(reverse("problems:detail", args=["draft-add"])).status_code == 404
    assert client_for(people["tom"]).get(reverse("problems:detail", args=["draft-add"])).status_code == 200


# ---- a course problem an exam uses is reserved --------------------------------------------------

def test_the_day_before_the_exam_students_cannot_reach_its_kernel_problem_and_staff_can(course, people):
    """Scheduled for tomorrow: the published course problem leaves the course page and the API list,
    and its page, its submit, the API's detail and submit are 404 for students; staff keep them all."""
    course_problem(course)
    assert practice(people["alice"]) == (200, 302, 200, 201)  # before any exam uses it
    exam = schedule(course, people)
    assert is_reserved(Problem.objects.get(slug=SLUG))
    before = Submission.objects.count()
    assert practice(people["alice"]) == (404, 404, 404, 404)
    assert Submission.objects.count() == before
    course_page = client_for(people["alice"]).get(reverse("courses:course", args=[course.code])).content.decode()
    assert f'href="/problems/{SLUG}/"' not in course_page
    listed = api(people["alice"]).get(reverse("api:problems")).json()["problems"]
    assert SLUG not in [p["slug"] for p in listed]
    # Staff see it, open it and submit it; the authoring page says which exam reserves it.
    assert practice(people["tom"])[:3] == (200, 302, 200)
    staff_page = client_for(people["ivy"]).get(reverse("courses:course", args=[course.code])).content.decode()
    assert f'href="/problems/{SLUG}/"' in staff_page
    editor = client_for(people["ivy"]).get(reverse("authoring:edit", args=[course.code, SLUG])).content.decode()
    assert 'id="reserved-for-exam"' in editor and exam.title in editor
    # The write path refuses it too, whoever calls it.
    with pytest.raises(grader_actions.ReservedProblemError):
        grader_actions.create_submission(people["alice"], Problem.objects.get(slug=SLUG), SOURCE)


def test_during_the_exam_neither_an_early_finisher_nor_a_second_account_can_practise_it(course, people):
    course_problem(course)
    exam = schedule(course, people, opens_in=timedelta(minutes=-5))
    attempt = start_attempt(exam, people["alice"])
    submit_attempt(attempt.pk, people["alice"])  # submitted early: classmates are still in the window
    assert practice(people["alice"]) == (404, 404, 404, 404)
    assert practice(people["bob"]) == (404, 404, 404, 404)  # a second account that never started


def test_the_reservation_lasts_until_the_last_students_window_closes(course, people):
    """The exam's close, an accommodation's later close, an attempt extended past both: each keeps it."""
    course_problem(course)
    exam = schedule(course, people, opens_in=timedelta(minutes=-50), hours=1)
    attempt = start_attempt(exam, people["alice"])
    set_accommodation(exam, people["bob"], opens_at=exam.opens_at, closes_at=exam.closes_at + timedelta(hours=2))
    problem = Problem.objects.get(slug=SLUG)
    after_close = exam.closes_at + timedelta(minutes=1)
    assert is_reserved(problem, after_close)  # Bob's own window is still open
    after_bob = exam.closes_at + timedelta(hours=2, minutes=1)
    assert not is_reserved(problem, after_bob)
    extend_attempt(attempt.pk, 240, people["tom"])  # Alice's attempt now runs past Bob's window
    assert is_reserved(problem, after_bob)


def test_after_every_window_it_follows_its_own_published_flag(course, people):
    course_problem(course)
    exam = schedule(course, people, opens_in=timedelta(hours=-3), hours=1)  # closed two hours ago
    assert not is_reserved(Problem.objects.get(slug=SLUG))
    assert practice(people["alice"]) == (200, 302, 200, 201)
    Problem.objects.filter(slug=SLUG).update(is_published=False)
    assert practice(people["alice"]) == (404, 404, 404, 404)
    assert exam.pk


def test_a_topic_pool_reserves_the_course_problems_it_can_draw(course, people):
    course_problem(course, topic="indexing")
    course_problem(course, slug="other-topic", topic="memory")
    schedule(course, people, kernel={"topic": "indexing"})
    assert is_reserved(Problem.objects.get(slug=SLUG))
    assert not is_reserved(Problem.objects.get(slug="other-topic"))
    assert practice(people["alice"], "other-topic")[0] == 200


def test_a_problem_set_item_of_a_reserved_problem_is_not_listed_for_students(course, people):
    from homework.actions import add_item, create_set

    problem = course_problem(course)
    now = timezone.now()
    week = create_set(course, people["ivy"], title_en="Week 3", opens_at=now - timedelta(days=1),
                      due_at=now + timedelta(days=6))
    add_item(week, problem_slug=problem.slug)
    add_item(week, family="indexing.global_index")
    url = reverse("homework:set", args=[course.code, week.pk])
    link = f'href="/problems/{SLUG}/?set={week.pk}"'
    assert link in client_for(people["alice"]).get(url).content.decode()
    schedule(course, people)
    page = client_for(people["alice"]).get(url).content.decode()
    assert link not in page and page.count("<tr data-status=") == 1  # the question family is still listed
    staff = client_for(people["ivy"]).get(url).content.decode()
    assert link in staff and staff.count("<tr data-status=") == 2
    assert "reserved for an exam: hidden from students" in staff


def test_a_bank_problem_is_never_reserved(exam, people, kernel_problem):
    """The exams fixture's kernel problem is the bank's tiny-add: public, as the editor warns."""
    assert not is_reserved(kernel_problem)
    assert client_for(people["bob"]).get(reverse("problems:detail", args=["tiny-add"])).status_code == 200


# ---- the editor warns about the bank's public problems -----------------------------------------

def test_the_template_editor_warns_that_bank_problems_are_public(course, people, kernel_problem):
    import json

    from exams.models import ExamTemplate

    ivy = client_for(people["ivy"])
    template = save_template(course, people["ivy"], template_with("tiny-add"))
    url = reverse("exams:template_edit", args=[course.pk, template.pk])
    page = ivy.get(url).content.decode()
    warning = page[page.index('id="bank-warning"'):].split("</div>")[0]
    assert "hidden" not in warning.split(">")[0] and "tiny-add" in warning
    assert "students can practise them with full feedback before and during the exam" in warning
    assert "Use a course problem to keep a problem secret" in warning
    # The general note says nearly the same: only one of the two is shown.
    assert 'id="bank-note" hidden' in page
    ko = ivy.get(url, HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "전체 피드백" in ko[ko.index('id="bank-warning"'):] and "full feedback" not in ko
    # The picker says it when it adds a bank problem, and the JSON answer carries the warning.
    course_problem(course)
    text = json.dumps(template_with(SLUG))
    answer = ivy.post(url, {"text": text, "add": "kernel", "kernel_slug": "tiny-add", "zone": "0"},
                      HTTP_ACCEPT="application/json").json()
    assert answer["added"] and "shipped bank, which is public" in answer["message"]
    assert "tiny-add" in answer["bank_warning"]
    # A template of course problems only: no warning.
    secret = save_template(course, people["ivy"], template_with(SLUG))
    page = ivy.get(reverse("exams:template_edit", args=[course.pk, secret.pk])).content.decode()
    assert 'id="bank-warning" hidden' in page.replace('role="alert" ', "")
    assert 'id="bank-note">' in page and "Problems of the shipped bank are public" in page
    answer = ivy.post(url, {"text": "zones: [{pool: [indexing.global_index]}]", "add": "kernel",
                            "kernel_slug": SLUG, "zone": "0"}, HTTP_ACCEPT="application/json").json()
    assert answer["added"] and "public" not in answer["message"] and answer["bank_warning"] == ""
    # Saving a template that draws a bank problem warns once more.
    response = ivy.post(url, {"text": json.dumps(template_with("tiny-add"))}, follow=True)
    assert "uses problems of the shipped bank (tiny-add)" in response.content.decode()
    assert ExamTemplate.objects.filter(pk=template.pk).exists()
