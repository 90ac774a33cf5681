"""Kernel items: submitted through grader's write path on the exam queue, attempts by verdict, faults free."""
from datetime import timedelta

import pytest

from exams.actions.attempts import start_attempt, submit_attempt, submit_kernel
from exams.errors import ExamError
from grader import grading as grader_grading
from grader import sweeps as grader_sweeps
from grader.core.results import JudgeResult
from grader.core.results import TestResult as CaseResult
from grader.core.verdicts import Verdict
from grader.models import Status, Submission
from grader.routing import route_task

pytestmark = pytest.mark.django_db
SOURCE = "__global__ void add(const float* a, const float* b, float* c, int n) { }\n"


def kernel(attempt):
    return attempt.items.get(kind="kernel")


def grade(sub, verdict, passed=0, total=2):
    tests = [CaseResult(name=f"t{i}", sample=False, verdict=Verdict.ACCEPTED if i < passed else Verdict.WRONG_ANSWER)
             for i in range(total)]
    grader_grading.finish_grading(sub.pk, JudgeResult(verdict=verdict, tests=tests))


def test_exam_task_routes_to_exam_queue():
    assert route_task("grader.tasks.grade_exam_submission", (1,), {}, {}) == {"queue": "exam"}
    assert route_task("grader.tasks.sweep_stale_exam_submissions", (), {}, {}) == {"queue": "exam"}
    assert route_task("grader.tasks.grade_submission", (1,), {}, {})["queue"] in ("cpu", "gpu")


def test_submit_kernel_links_item_pins_version_and_uses_exam_task(exam, people, sent_tasks, django_capture_on_commit_callbacks):
    a = start_attempt(exam, people["alice"])
    item = kernel(a)
    with django_capture_on_commit_callbacks(execute=True):
        sub = submit_kernel(item, people["alice"], SOURCE)
    assert sub.exam_item_id == item.pk and sub.problem_version_id == item.data["kernel"]["version_id"]
    assert sent_tasks.with_exam() == [(sub.pk, True)]
    item.refresh_from_db()
    assert item.answer == {"source": SOURCE}


def test_attempt_points_and_internal_error_costs_nothing(exam, people, sent_tasks):
    """WA, INTERNAL_ERROR, ACCEPTED: the accepted one is the 2nd counted attempt (7 of [10, 7, 5])."""
    a = start_attempt(exam, people["alice"])
    item = kernel(a)
    s1 = submit_kernel(item, people["alice"], SOURCE)
    grade(s1, Verdict.WRONG_ANSWER, 0)
    s2 = submit_kernel(item, people["alice"], SOURCE)
    grader_grading.give_up(s2.pk, "the worker died")
    assert Submission.objects.get(pk=s2.pk).verdict == "INTERNAL_ERROR"
    s3 = submit_kernel(item, people["alice"], SOURCE)
    grade(s3, Verdict.ACCEPTED, 2)
    a = submit_attempt(a.pk, people["alice"])
    item.refresh_from_db()
    assert item.points == 7.0 and item.status == "correct"


def test_no_attempts_left(exam, people, sent_tasks):
    a = start_attempt(exam, people["alice"])
    item = kernel(a)
    for _ in range(3):
        grade(submit_kernel(item, people["alice"], SOURCE), Verdict.WRONG_ANSWER, 1)
    with pytest.raises(ExamError, match="No attempts"):
        submit_kernel(item, people["alice"], SOURCE)


def test_reset_of_a_kernel_item_resets_its_attempt_count(exam, people, sent_tasks):
    """A TA's reset of a kernel item with every attempt used (3 wrong answers) gives the student all 3
    attempts again: the earlier submissions leave the item (kept, detached) and the reset is logged."""
    from exams.actions.resets import reset_item
    from exams.actions.grading import kernel_outcomes
    from exams.core.scoring import attempts_left
    from exams.models import EventKind

    a = start_attempt(exam, people["alice"])
    item = kernel(a)
    used = [submit_kernel(item, people["alice"], SOURCE) for _ in range(3)]
    for sub in used:
        grade(sub, Verdict.WRONG_ANSWER, 1)
    assert attempts_left(item.data["kernel"], kernel_outcomes(item)) == 0
    item = reset_item(item.pk, people["tom"])
    assert attempts_left(item.data["kernel"], kernel_outcomes(item)) == 3
    assert set(Submission.objects.filter(pk__in=[s.pk for s in used]).values_list("exam_item", flat=True)) == {None}
    event = a.events.get(kind=EventKind.RESET)
    assert event.by == people["tom"] and sorted(event.data["old"]["submissions"]) == [s.pk for s in used]
    sub = submit_kernel(item, people["alice"], SOURCE)  # refused before the reset
    assert sub.exam_item_id == item.pk


def test_in_flight_submission_holds_its_attempt(exam, people, sent_tasks):
    a = start_attempt(exam, people["alice"])
    item = kernel(a)
    grade(submit_kernel(item, people["alice"], SOURCE), Verdict.WRONG_ANSWER)
    grade(submit_kernel(item, people["alice"], SOURCE), Verdict.WRONG_ANSWER)
    submit_kernel(item, people["alice"], SOURCE)  # still QUEUED
    with pytest.raises(ExamError, match="No attempts"):
        submit_kernel(item, people["alice"], SOURCE)


def test_no_kernel_after_deadline(exam, people, sent_tasks):
    a = start_attempt(exam, people["alice"])
    with pytest.raises(ExamError, match="Time is up"):
        submit_kernel(kernel(a), people["alice"], SOURCE, now=a.deadline + timedelta(seconds=1))
    assert not Submission.objects.exists()


def test_verdict_after_the_end_rescores_the_attempt(exam, people, sent_tasks, django_capture_on_commit_callbacks):
    """A submission still grading when the exam is submitted counts once its verdict arrives (partial credit)."""
    a = start_attempt(exam, people["alice"])
    sub = submit_kernel(kernel(a), people["alice"], SOURCE)
    a = submit_attempt(a.pk, people["alice"])
    assert kernel(a).status == "pending"
    with django_capture_on_commit_callbacks(execute=True):
        grade(sub, Verdict.WRONG_ANSWER, passed=1, total=2)
    a.refresh_from_db()
    assert kernel(a).points == 5.0 and a.total == 5.0


def test_stale_heartbeat_requeues_exam_submission_within_seconds(exam, people, sent_tasks, django_capture_on_commit_callbacks):
    """A RUNNING exam submission whose heartbeat is 11 s old goes back to the exam queue; a fresh one does not;
    a practice submission is left to the slow sweeper."""
    from django.utils import timezone

    a = start_attempt(exam, people["alice"])
    sub = submit_kernel(kernel(a), people["alice"], SOURCE)
    now = timezone.now()
    Submission.objects.filter(pk=sub.pk).update(status=Status.RUNNING, started_at=now, heartbeat_at=now)
    assert grader_sweeps.requeue_stale_exam_submissions(now=now + timedelta(seconds=5)) == []
    with django_capture_on_commit_callbacks(execute=True):
        assert grader_sweeps.requeue_stale_exam_submissions(now=now + timedelta(seconds=11)) == [sub.pk]
    assert Submission.objects.get(pk=sub.pk).status == Status.QUEUED
    assert sent_tasks.with_exam()[-1] == (sub.pk, True)


def test_waiting_exam_submissions_are_sent_again_only_when_the_queue_stalls(exam, people, sent_tasks,
                                                                           django_capture_on_commit_callbacks):
    """A submission queued 2 minutes ago is left alone while others start grading (a long queue), and sent
    again once nothing has started for a minute (its message was lost with a dead worker)."""
    from django.utils import timezone

    a = start_attempt(exam, people["alice"])
    b = start_attempt(exam, people["bob"])
    waiting = submit_kernel(kernel(a), people["alice"], SOURCE)
    moving = submit_kernel(kernel(b), people["bob"], SOURCE)
    now = timezone.now()
    Submission.objects.filter(pk=waiting.pk).update(queued_at=now - timedelta(minutes=2))
    Submission.objects.filter(pk=moving.pk).update(status=Status.RUNNING, started_at=now - timedelta(seconds=20),
                                                   heartbeat_at=now)
    assert grader_sweeps.requeue_stale_exam_submissions(now=now) == []
    Submission.objects.filter(pk=moving.pk).update(status=Status.GRADED, verdict="ACCEPTED",
                                                   started_at=now - timedelta(seconds=70))
    with django_capture_on_commit_callbacks(execute=True):
        assert grader_sweeps.requeue_stale_exam_submissions(now=now) == [waiting.pk]
