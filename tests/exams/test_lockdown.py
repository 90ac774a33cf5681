"""Exam mode (Exam.lockdown, exams/middleware.py): while a student's attempt is in progress in an exam that
closes the rest of the site, every other page sends them back to the attempt with a message, scripts and the
JSON API get 403 JSON, the exam's own pages and endpoints keep working, course staff are never locked, and
the site opens again as soon as the attempt ends. In English and Korean, on PostgreSQL."""
import json
from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from exams.actions.attempts import close_for_removed_member, start_attempt, submit_attempt
from exams.actions.scheduling import schedule_exam
from exams.lockdown import read_lock
from exams.models import ExamAttempt, Feedback
from grader import actions as grader_actions

from .conftest import client_for, make_course

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("not_sent")]
SOURCE = "__global__ void add(const float* a, const float* b, float* c, int n) { }\n"
MESSAGE = {"en": "The rest of the site is closed while your exam is in progress.",
           "ko": "시험이 진행되는 동안에는 사이트의 다른 페이지를 열 수 없습니다."}


@pytest.fixture
def attempt(exam, people, kernel_problem):
    """Alice's attempt in progress at `exam` (which closes the site: the default); the kernel problem is
    published, so that its practice pages exist beside the exam."""
    kernel_problem.is_published = True
    kernel_problem.save(update_fields=["is_published"])
    return start_attempt(exam, people["alice"])


def attempt_url(exam) -> str:
    return reverse("exams:attempt", args=[exam.pk])


def closed_pages(exam, course, kernel_problem, other_exam) -> dict[str, str]:
    return {
        "problems": reverse("problems:list"),
        "problem": reverse("problems:detail", args=[kernel_problem.slug]),
        "practice": reverse("practice:home"),
        "calculator": reverse("practice:calculator"),
        "progress": reverse("practice:progress"),
        "playground": reverse("playground:home"),
        "courses": reverse("courses:home"),
        "course": reverse("courses:course", args=[course.code]),
        "homework": reverse("homework:sets", args=[course.code]),
        "my submissions": reverse("grader:list"),
        "another exam": reverse("exams:exam", args=[other_exam.pk]),
        "api tokens": reverse("api_tokens"),
    }


@pytest.fixture
def other_exam(exam, course):
    """A second exam of the course, open now, not started."""
    now = timezone.now()
    return schedule_exam(course, exam.template, opens_at=now - timedelta(minutes=1),
                         closes_at=now + timedelta(hours=2), duration_minutes=20, title="Quiz")


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_every_other_page_sends_the_student_back_to_the_attempt(attempt, exam, course, people, kernel_problem,
                                                                  other_exam, lang):
    """Problems, a problem, practice, the calculator, the playground, courses, homework, My submissions,
    another exam and the token page: a redirect to the attempt, whose page says why, in the reader's language."""
    alice = client_for(people["alice"])
    for name, url in closed_pages(exam, course, kernel_problem, other_exam).items():
        response = alice.get(url, HTTP_ACCEPT_LANGUAGE=lang)
        assert (response.status_code, response.get("Location")) == (302, attempt_url(exam)), name
    page = alice.get(reverse("practice:calculator"), HTTP_ACCEPT_LANGUAGE=lang, follow=True)
    assert page.redirect_chain == [(attempt_url(exam), 302)]
    assert MESSAGE[lang] in page.content.decode()


def test_a_form_posted_outside_the_exam_does_nothing(attempt, exam, people):
    """A practice drill started by POST, a playground run: refused before their views run."""
    from playground.models import PlaygroundRun
    from practice.models import QuestionVariant

    alice = client_for(people["alice"])
    assert alice.post(reverse("practice:start"), {"topic": "occupancy"})["Location"] == attempt_url(exam)
    assert alice.post(reverse("playground:home"), {"source": SOURCE})["Location"] == attempt_url(exam)
    assert not QuestionVariant.objects.exists() and not PlaygroundRun.objects.exists()


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_scripts_get_403_json_in_their_language(attempt, exam, people, lang):
    """The JSON API (token or session) and a script asking a page for JSON: 403 with the message, the code
    and the attempt's address; nothing is created."""
    expected = {"error": MESSAGE[lang], "code": "exam_in_progress", "exam_url": attempt_url(exam)}
    token = APIClient()
    token.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=people['alice'])[0].key}")
    for response in (token.get("/api/v1/problems", HTTP_ACCEPT_LANGUAGE=lang),
                     token.post("/api/v1/playground/runs", {"source": SOURCE}, format="json",
                                HTTP_ACCEPT_LANGUAGE=lang),
                     token.post("/api/v1/problems/tiny-add/submissions", {"source": SOURCE}, format="json",
                                HTTP_ACCEPT_LANGUAGE=lang),
                     client_for(people["alice"]).get("/api/v1/submissions", HTTP_ACCEPT_LANGUAGE=lang)):
        assert response.status_code == 403 and response.json() == expected
    alice = client_for(people["alice"])
    practice = alice.get(reverse("practice:home"), HTTP_ACCEPT="application/json", HTTP_ACCEPT_LANGUAGE=lang)
    assert practice.status_code == 403 and practice.json() == {"ok": False, **expected}
    from grader.models import Submission
    from playground.models import PlaygroundRun

    assert not Submission.objects.exists() and not PlaygroundRun.objects.exists()


def test_an_htmx_request_is_sent_to_the_attempt(attempt, exam, people):
    """htmx does not swap a 403 in; it follows HX-Redirect to the attempt page."""
    response = client_for(people["alice"]).get(reverse("practice:home"), HTTP_HX_REQUEST="true")
    assert response.status_code == 403 and response["HX-Redirect"] == attempt_url(exam)


def test_the_exams_own_pages_and_endpoints_keep_working(attempt, exam, people):
    """The attempt, its autosave and clock, a kernel item's page, its submission (POST), its Submit row,
    its live row, and the submission's own page where the exam shows the full result; the submit page."""
    from grader.models import Submission

    exam.feedback = Feedback.FULL
    exam.save(update_fields=["feedback"])
    alice = client_for(people["alice"])
    assert alice.get(attempt_url(exam)).status_code == 200
    assert alice.get(reverse("exams:exam", args=[exam.pk])).status_code == 200
    question = attempt.items.filter(kind="question").first()
    field = question.data["question"]["fields"][0]["name"]
    saved = alice.post(reverse("exams:save", args=[exam.pk]), json.dumps({"answers": {question.key: {field: "7"}}}),
                       content_type="application/json")
    assert saved.status_code == 200 and saved.json()["ok"]
    assert alice.get(reverse("exams:state", args=[exam.pk])).json()["state"] == "open"
    item = attempt.items.get(kind="kernel")
    kernel = reverse("exams:kernel", args=[exam.pk, item.number])
    assert alice.get(kernel).status_code == 200
    assert alice.post(kernel, {"source": SOURCE})["Location"] == kernel
    sub = Submission.objects.get(exam_item=item)
    assert alice.get(reverse("exams:kernel_state", args=[exam.pk, item.number])).status_code == 200
    assert alice.get(reverse("exams:kernel_live", args=[exam.pk, item.number, sub.pk])).status_code == 200
    assert alice.get(reverse("grader:submission", args=[sub.pk])).status_code == 200
    assert alice.get(reverse("grader:submission-live", args=[sub.pk])).status_code == 200
    assert alice.get(reverse("exams:submit", args=[exam.pk])).status_code == 200


def test_a_practice_submissions_pages_are_closed(exam, people, kernel_problem):
    """Her own practice submission, made before the exam: its page and its live row send her back."""
    kernel_problem.is_published = True
    kernel_problem.save(update_fields=["is_published"])
    sub = grader_actions.create_submission(people["alice"], kernel_problem, SOURCE)
    alice = client_for(people["alice"])
    assert alice.get(reverse("grader:submission", args=[sub.pk])).status_code == 200
    start_attempt(exam, people["alice"])
    assert alice.get(reverse("grader:submission", args=[sub.pk]))["Location"] == attempt_url(exam)
    live = alice.get(reverse("grader:submission-live", args=[sub.pk]), HTTP_HX_REQUEST="true")
    assert live.status_code == 403 and live["HX-Redirect"] == attempt_url(exam)


def test_a_live_row_left_open_keeps_its_304s_without_sql(exam, people, kernel_problem, django_assert_num_queries):
    """A page opened before the exam keeps polling: nothing changed is still 304 with no SQL (grader.live),
    checked after the view; a change is a full answer, which is refused."""
    from grader import grading

    kernel_problem.is_published = True
    kernel_problem.save(update_fields=["is_published"])
    sub = grader_actions.create_submission(people["alice"], kernel_problem, SOURCE)
    alice = client_for(people["alice"])
    live = reverse("grader:submission-live", args=[sub.pk])
    etag = alice.get(live)["ETag"]
    start_attempt(exam, people["alice"])
    with django_assert_num_queries(0):
        assert alice.get(live, HTTP_IF_NONE_MATCH=etag).status_code == 304
    grading.start_grading(sub.pk, "emulator")
    assert alice.get(live, HTTP_IF_NONE_MATCH=etag)["Location"] == attempt_url(exam)


def test_signing_out_the_language_and_the_account_stay_open(attempt, exam, people):
    alice = client_for(people["alice"])
    assert alice.get(reverse("account")).status_code == 200
    switched = alice.post(reverse("set_language"), {"language": "ko", "next": attempt_url(exam)})
    assert switched.status_code == 302 and switched["Location"] == attempt_url(exam)
    assert alice.get("/healthz").status_code == 200
    assert alice.post(reverse("logout")).status_code == 302
    assert alice.get(reverse("problems:list")).status_code == 200  # signed out: the public pages, as for anyone


@pytest.mark.parametrize("lang, ends", [("en", "Ends at"), ("ko", "종료 시각")])
def test_the_menu_offers_only_the_exam(attempt, exam, people, lang, ends):
    """During the attempt the menu links the attempt (its title in the reader's language, when it ends) and
    none of the closed pages; once submitted, the whole menu is back."""
    from accounts.timezones import when
    from django.utils import translation

    alice = client_for(people["alice"])
    html = alice.get(attempt_url(exam), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    title = "Midterm" if lang == "en" else "중간고사"
    assert f'<a href="{attempt_url(exam)}" id="nav-exam" class="nav-exam" aria-current="page">{title}</a>' in html
    with translation.override(lang):
        assert f"{ends} {when(attempt.deadline)}" in html
    for closed in ("practice:home", "practice:calculator", "playground:home", "courses:home", "grader:list"):
        assert f'href="{reverse(closed)}"' not in html
    assert f'class="brand" href="{attempt_url(exam)}"' in html
    submit_attempt(attempt.pk, people["alice"])
    html = alice.get(reverse("exams:exam", args=[exam.pk]), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert 'id="nav-exam"' not in html and f'href="{reverse("practice:calculator")}"' in html


@pytest.mark.parametrize("who", ["ivy", "tom"])
def test_course_staff_testing_their_exam_are_never_locked(exam, people, kernel_problem, who):
    start_attempt(exam, people[who])
    staff = client_for(people[who])
    assert staff.get(reverse("practice:calculator")).status_code == 200
    assert 'id="nav-exam"' not in staff.get(attempt_url(exam)).content.decode()


def test_staff_of_another_course_are_locked_in_a_course_they_take(exam, people, kernel_problem):
    """A TA of one course taking an exam in another is a student there: locked, their own course's pages too."""
    from .conftest import enrol

    other = make_course("GPU202", "Advanced GPU")
    enrol(people["alice"], other, "ta")
    start_attempt(exam, people["alice"])
    alice = client_for(people["alice"])
    assert alice.get(reverse("exams:course", args=[other.pk]))["Location"] == attempt_url(exam)


def test_an_exam_that_leaves_the_site_open(attempt, exam, people):
    exam.lockdown = False
    exam.save(update_fields=["lockdown"])
    alice = client_for(people["alice"])
    assert alice.get(reverse("practice:calculator")).status_code == 200
    assert alice.get("/api/v1/submissions").status_code == 200


@pytest.mark.parametrize("how", ["submitted", "deadline", "removed"])
def test_the_site_opens_as_soon_as_the_attempt_ends(attempt, exam, course, people, how):
    """Submitted, past its deadline (before the sweep closes it), closed by staff removing the student
    (who then has no course, but the site's pages): the next request is served."""
    alice = client_for(people["alice"])
    assert alice.get(reverse("playground:home")).status_code == 302
    if how == "submitted":
        submit_attempt(attempt.pk, people["alice"])
    elif how == "deadline":
        ExamAttempt.objects.filter(pk=attempt.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    else:
        close_for_removed_member(course, people["alice"], by=people["ivy"])
    assert alice.get(reverse("playground:home")).status_code == 200


def _queries(client, url, middleware: bool) -> int:
    with pytest.MonkeyPatch.context() as mp:
        if not middleware:
            mp.setattr(settings, "MIDDLEWARE",
                       [m for m in settings.MIDDLEWARE if m != "exams.middleware.ExamLockdownMiddleware"])
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
    return len(queries)


@pytest.mark.parametrize("who", ["eve", "bob", "anonymous"])
def test_the_check_costs_at_most_one_query(exam, people, who, django_assert_max_num_queries):
    """eve (in no course), bob (a student of a course with an exam open, not started): one small query,
    for the check and the menu together; an anonymous reader: none."""
    from django.test import Client

    client = Client() if who == "anonymous" else client_for(people[who])
    url = reverse("practice:calculator")
    client.get(url)  # warm: the session, the calculator's caches
    without = _queries(client, url, middleware=False)
    with django_assert_max_num_queries(without + (0 if who == "anonymous" else 1)):
        assert client.get(url).status_code == 200
    if who != "anonymous":
        with django_assert_max_num_queries(1):
            assert read_lock(people[who]).lock.locking is None


def test_a_refusal_costs_the_session_the_user_and_the_check(attempt, people, django_assert_max_num_queries):
    alice = client_for(people["alice"])
    with django_assert_max_num_queries(3):
        assert alice.get(reverse("practice:calculator")).status_code == 302


def test_the_message_shows_once_and_not_after_a_login(attempt, exam, people, kernel_problem):
    """Three closed pages asked for before the attempt page shows: one message, not three. The page a login
    lands on (the problem list) sends the student to the attempt without it: they asked for nothing closed."""
    alice = client_for(people["alice"])
    for _ in range(3):
        alice.get(reverse("practice:home"))
    page = alice.get(attempt_url(exam)).content.decode()
    assert page.count(MESSAGE["en"]) == 1
    landed = alice.get(reverse("problems:list"), follow=True)
    assert landed.redirect_chain == [(attempt_url(exam), 302)] and MESSAGE["en"] not in landed.content.decode()


def test_open_pages_link_to_no_closed_page(attempt, exam, people):
    """The account page offers no token page, and a kernel submission's page links back to the exam, not to
    My submissions, the problem or the occupancy calculator (each would send the student back)."""
    from exams.actions.attempts import submit_kernel
    from grader import grading
    from tests.web.conftest import graded_result

    exam.feedback = Feedback.FULL  # the student reads their kernel submission's page during the exam
    exam.save(update_fields=["feedback"])
    alice = client_for(people["alice"])
    assert reverse("api_tokens") not in alice.get(reverse("account")).content.decode()
    submission = submit_kernel(attempt.items.get(kind="kernel"), people["alice"], SOURCE)
    grading.start_grading(submission.pk, "dummy")
    grading.finish_grading(submission.pk, graded_result())
    page = alice.get(submission.get_absolute_url()).content.decode()
    assert f'href="{attempt_url(exam)}"' in page
    for closed in (reverse("grader:list"), submission.problem_version.problem.get_absolute_url(),
                   reverse("practice:calculator")):
        assert f'href="{closed}' not in page, closed


@pytest.mark.parametrize("lang, note", [("en", "the rest of the site is closed to you"),
                                        ("ko", "사이트의 다른 페이지를 열 수 없고")])
def test_the_exam_page_says_so_before_the_student_starts(exam, people, lang, note):
    page = client_for(people["alice"]).get(reverse("exams:exam", args=[exam.pk]), HTTP_ACCEPT_LANGUAGE=lang)
    assert 'id="lockdown-note"' in page.content.decode() and note in page.content.decode()
