"""Assignment and Grade Services: WarpDrill gets an access token with a JWT signed by its key (checked
by the test platform against the tool's JWKS), finds or creates the line item, and posts each student's
score as the specification's Score object. On an instructor's "Send grades" and on results release."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from exams.models import ExamAttempt
from lti.grades import SyncError, sync_link
from lti.models import LtiUser, ResourceLink

from .conftest import INSTRUCTOR, LEARNER, launch
from .platform import CLIENT_ID, SCORE_SCOPE

pytestmark = pytest.mark.django_db


def attempt(exam, user, total: float, maximum: float = 20.0, state: str = "submitted") -> ExamAttempt:
    now = timezone.now()
    return ExamAttempt.objects.create(exam=exam, user=user, state=state, started_at=now - timedelta(minutes=90),
                                      deadline=now - timedelta(minutes=60), ended_at=now - timedelta(minutes=61),
                                      total=total, max_total=maximum)


@pytest.fixture
def exam_link(lms, registration, exam):
    """Two students and the instructor launched the exam's link from the LMS; both students have attempts."""
    custom = {"course": "GPU101", "exam": str(exam.pk)}
    for sub in ("stu-1", "stu-2"):
        launch(Client(), lms, sub=sub, roles=[LEARNER], custom=custom, ags=lms.ags_claim())
    teacher = Client()
    launch(teacher, lms, sub="teacher-1", roles=[INSTRUCTOR], custom=custom, ags=lms.ags_claim())
    users = {row.sub: row.user for row in LtiUser.objects.all()}
    attempt(exam, users["stu-1"], 17.5)
    attempt(exam, users["stu-2"], 9.0, state="closed")
    attempt(exam, User.objects.create_user("no-lms"), 20.0)  # never launched from the LMS: no user id there
    return ResourceLink.objects.get(), teacher


def release(exam, minutes_ago: int = 1):
    exam.results_release_at = timezone.now() - timedelta(minutes=minutes_ago)
    exam.save()


@pytest.fixture
def eager_celery():
    from config.celery import app

    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = False


def test_sync_creates_the_line_item_and_posts_each_students_score(lms, exam_link, exam, eager_celery,
                                                                  django_capture_on_commit_callbacks):
    link, teacher = exam_link
    release(exam)
    with django_capture_on_commit_callbacks(execute=True):
        response = teacher.post(f"/lti/course/GPU101/links/{link.pk}/sync/")
    assert response.status_code == 302
    # The token request: client credentials with a client assertion the platform verified with our JWKS.
    token_calls = [r for r in lms.requests if r["path"] == "/token"]
    assert len(token_calls) == 1 and lms.tokens
    # The line item, created once with the exam's label, maximum and tag.
    assert [(i["label"], i["scoreMaximum"], i["tag"], i["resourceLinkId"]) for i in lms.lineitems] == [
        ("Midterm", 20.0, f"warpdrill-exam-{exam.pk}", "link-1")]
    posted = lms.scores[lms.lineitems[0]["id"]]
    by_user = {s["userId"]: s for s in posted}
    assert set(by_user) == {"stu-1", "stu-2"}  # the instructor and the non-LMS student get none
    assert (by_user["stu-1"]["scoreGiven"], by_user["stu-1"]["scoreMaximum"]) == (17.5, 20.0)
    assert by_user["stu-2"]["scoreGiven"] == 9.0
    for score in posted:
        assert score["activityProgress"] == "Completed" and score["gradingProgress"] == "FullyGraded"
        assert score["timestamp"].endswith("Z")
    link.refresh_from_db()
    assert link.lineitem_url == lms.lineitems[0]["id"] and link.last_sync_report == "2 scores sent"
    page = teacher.get("/lti/course/GPU101/")
    assert b"2 scores sent" in page.content and b"Send grades to the LMS" in page.content
    korean = teacher.get("/lti/course/GPU101/", HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "LMS로 성적 보내기" in korean and "GPU Programming의 LMS 링크" in korean

    # Sending again finds the line item by its tag instead of creating a second one.
    sync_link(link)
    assert len(lms.lineitems) == 1 and len(lms.scores[lms.lineitems[0]["id"]]) == 4


def test_a_korean_courses_line_item_is_labelled_in_korean(lms, exam_link, exam, course):
    """No one reads the label on WarpDrill: it is the exam's title in the course's default language."""
    course.language = "ko"
    course.save(update_fields=["language"])
    link, _teacher = exam_link
    release(exam)
    sync_link(link)
    assert [i["label"] for i in lms.lineitems] == ["중간고사"]


def test_nothing_is_sent_before_the_results_are_released(lms, exam_link, exam):
    link, _teacher = exam_link
    report = sync_link(link)
    assert report.sent == 0 and not lms.scores


def test_releasing_the_results_sends_them_once(lms, exam_link, exam):
    from lti.tasks import sync_released_exams

    link, _teacher = exam_link
    assert sync_released_exams() == 0  # not released
    release(exam)
    assert sync_released_exams() == 1
    assert sorted(s["userId"] for s in lms.scores[lms.lineitems[0]["id"]]) == ["stu-1", "stu-2"]
    assert sync_released_exams() == 0  # sent since the release
    release(exam, minutes_ago=0)  # released again later (a regrade): sent again
    assert sync_released_exams() == 1


def test_scores_wait_while_the_results_are_held_from_students(lms, exam_link, exam):
    """Released while a student with extra time still answers: the students do not see results yet
    (exams.release), and the LMS, which shows students their scores, gets none until that attempt ends;
    the instructor's "Send grades" says why, and the release sweep sends them once it has ended."""
    from lti.tasks import sync_released_exams

    link, _teacher = exam_link
    now = timezone.now()
    extra = User.objects.create_user("extra-time")
    running = ExamAttempt.objects.create(exam=exam, user=extra, state="open", started_at=now - timedelta(minutes=50),
                                         deadline=now + timedelta(minutes=25))
    release(exam)
    assert sync_released_exams() == 0 and not lms.scores
    with pytest.raises(SyncError, match="held until every student's time ends"):
        sync_link(link)
    link.refresh_from_db()
    assert link.last_synced_at is None and "held" in link.last_sync_report and not lms.scores
    running.state, running.ended_at, running.total, running.max_total = "submitted", timezone.now(), 4.0, 20.0
    running.save()
    assert sync_released_exams() == 1
    assert sorted(s["userId"] for s in lms.scores[lms.lineitems[0]["id"]]) == ["stu-1", "stu-2"]


def test_scores_go_to_the_platforms_own_line_item_when_the_launch_names_one(lms, registration, course):
    from homework.models import ProblemSet, ProblemSetItem
    from problems.core.package import parse_package
    from problems.models import Problem
    from problems.services import import_package

    from grader.models import Status, Submission
    from tests.packages import tiny_package_files

    import_package(parse_package(tiny_package_files()))
    problem = Problem.objects.get(slug="tiny-add")
    now = timezone.now()
    pset = ProblemSet.objects.create(course=course, title_en="Week 1", opens_at=now - timedelta(days=1),
                                     due_at=now + timedelta(days=1))
    ProblemSetItem.objects.create(problem_set=pset, problem=problem, position=0)
    ProblemSetItem.objects.create(problem_set=pset, family="indexing.global_index", position=1)
    lineitem = lms.url + "/lineitems/77"
    launch(Client(), lms, sub="stu-1", roles=[LEARNER], custom={"course": "GPU101", "problem_set": str(pset.pk)},
           ags=lms.ags_claim(lineitem=lineitem, scopes=[SCORE_SCOPE]))
    student = LtiUser.objects.get(sub="stu-1").user
    Submission.objects.create(user=student, problem_version=problem.current_version, source="//", status=Status.GRADED,
                              verdict="ACCEPTED")
    report = sync_link(ResourceLink.objects.get())
    assert report.sent == 1 and not lms.lineitems  # nothing created: the platform's line item is used
    [score] = lms.scores[lineitem]
    assert (score["userId"], score["scoreGiven"], score["scoreMaximum"], score["activityProgress"]) == (
        "stu-1", 1.0, 2.0, "InProgress")


def test_a_refusal_is_reported_and_the_release_sweep_tries_again(lms, exam_link, exam):
    from lti.tasks import sync_released_exams

    link, _teacher = exam_link
    release(exam)
    lms.refuse_scores = True
    with pytest.raises(SyncError, match="refused"):
        sync_link(link)
    link.refresh_from_db()
    assert link.last_synced_at is None and "refused" in link.last_sync_report
    lms.refuse_scores = False
    assert sync_released_exams() == 1


def test_a_course_link_takes_no_grades_and_students_cannot_send(lms, registration, course, exam_link):
    link, _teacher = exam_link
    student = Client()
    launch(student, lms, sub="stu-1", roles=[LEARNER])
    assert student.get("/lti/course/GPU101/").status_code == 404
    assert student.post(f"/lti/course/GPU101/links/{link.pk}/sync/").status_code == 404
    course_link = ResourceLink(platform=registration, course=course, ags=lms.ags_claim())
    with pytest.raises(SyncError):
        sync_link(course_link)


def test_the_token_request_is_signed_for_the_platforms_token_url(lms, exam_link, exam):
    """The platform refuses an assertion for another audience: the tool signs for auth_token_url."""
    import jwt
    from urllib.parse import parse_qs

    link, _teacher = exam_link
    release(exam)
    sync_link(link)
    form = parse_qs([r for r in lms.requests if r["path"] == "/token"][0]["body"])
    claims = jwt.decode(form["client_assertion"][0], options={"verify_signature": False})
    assert claims["aud"] == lms.url + "/token" and claims["iss"] == claims["sub"] == CLIENT_ID
    assert SCORE_SCOPE in form["scope"][0].split()
