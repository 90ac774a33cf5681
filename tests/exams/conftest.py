"""Fixtures of the exams tests: a course with an instructor, a TA and students, a kernel problem, an exam."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from tests.packages import tiny_package_files

PASSWORD = "pass-1234-word"
TEMPLATE = {
    "title": {"en": "Midterm", "ko": "중간고사"},
    "zones": [
        {"title": "Questions", "choose": 2, "points": 5,
         "pool": ["indexing.global_index", "indexing.warp_lane", "indexing.inverse"]},
        {"title": "Kernel", "pool": [{"kernel": "tiny-add", "attempt_points": [10, 7, 5], "partial_credit": True}]},
    ],
}


@pytest.fixture(autouse=True)
def fast_password_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def make_course(code: str = "GPU101", name: str = "GPU Programming"):
    from courses.models import Course

    return Course.objects.create(name=name, code=code)


def enrol(user, course, role: str):
    from courses.models import Membership

    return Membership.objects.create(user=user, course=course, role=role)


def client_for(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


@pytest.fixture
def kernel_problem(db):
    from problems.core.package import parse_package
    from problems.models import Problem
    from problems.services import import_package

    import_package(parse_package(tiny_package_files()))
    return Problem.objects.select_related("current_version").get(slug="tiny-add")


@pytest.fixture
def course(db):
    return make_course()


@pytest.fixture
def people(course):
    """ivy (instructor), tom (TA), alice and bob (students) of `course`; eve has no role in it."""
    users = {name: User.objects.create_user(name, f"{name}@example.org", PASSWORD, first_name=name.title())
             for name in ("ivy", "tom", "alice", "bob", "eve")}
    enrol(users["ivy"], course, "instructor")
    enrol(users["tom"], course, "ta")
    enrol(users["alice"], course, "student")
    enrol(users["bob"], course, "student")
    return users


@pytest.fixture
def exam(course, people, kernel_problem):
    """An exam open now for an hour, 30 minutes long, feedback 'verdict', results not released."""
    from exams.actions.scheduling import save_template, schedule_exam

    template = save_template(course, people["ivy"], TEMPLATE)
    now = timezone.now()
    return schedule_exam(course, template, opens_at=now - timedelta(minutes=5),
                         closes_at=now + timedelta(hours=1), duration_minutes=30)


def right_answers(item) -> dict:
    return {k: str(v) for k, v in item.data["question"]["answer"].items()}


def release_results(exam) -> None:
    """Release `exam`'s results a moment ago with its window closed as well, as an exam's results usually are:
    released results wait while a student who has not started may still start (exams.release)."""
    from exams.models import Exam

    now = timezone.now()
    Exam.objects.filter(pk=exam.pk).update(results_release_at=now - timedelta(seconds=1), closes_at=now - timedelta(seconds=1))
    exam.refresh_from_db()


# The source of `wrong_in_exam`'s submission; the marker lets a test look for the source on a page.
EXAM_SOURCE = "__global__ void add(const float* a, const float* b, float* c, int n) { /* exam-source-marker */ }\n"


@pytest.fixture
def exam_feedback():
    """The feedback of the exam `wrong_in_exam` is submitted in: none until the results are released. A test
    module overrides this fixture to choose another."""
    from exams.models import Feedback

    return Feedback.NONE


@pytest.fixture
def wrong_in_exam(exam, people, kernel_problem, exam_feedback, not_sent):
    """(item, submission): Alice's submission of EXAM_SOURCE to her attempt's kernel item, graded
    WRONG_ANSWER, in `exam` with `exam_feedback`; the kernel problem is published, so that its practice
    pages exist beside the exam."""
    from exams.actions.attempts import start_attempt, submit_kernel
    from grader import grading as grader_grading
    from grader.core.results import JudgeResult
    from grader.core.verdicts import Verdict
    from grader.models import Submission

    exam.feedback = exam_feedback
    exam.save(update_fields=["feedback"])
    kernel_problem.is_published = True
    kernel_problem.save(update_fields=["is_published"])
    attempt = start_attempt(exam, people["alice"])
    item = attempt.items.get(kind="kernel")
    sub = submit_kernel(item, people["alice"], EXAM_SOURCE)
    grader_grading.start_grading(sub.pk, "emulator")
    grader_grading.finish_grading(sub.pk, JudgeResult(verdict=Verdict.WRONG_ANSWER))
    return item, Submission.objects.get(pk=sub.pk)
