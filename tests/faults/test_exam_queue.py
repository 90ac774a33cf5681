"""Exam kernel items on their own queue, with real worker processes.

- An exam submission is graded by the worker reserved for the `exam` queue while the practice queue
  (`cpu`) is full of slow submissions that its own worker works through one by one.
- The whole exam worker is SIGKILLed while it grades: the heartbeat goes stale, the exam sweep (beat,
  every second here) puts the submission back on the exam queue within seconds, another exam worker
  grades it, and the student's attempt count is unchanged by the fault.
Grading is slowed down by 'slow-add' (SLOW_CASE_S per test case).
"""
from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from exams.actions.attempts import start_attempt, submit_attempt, submit_kernel
from exams.actions.grading import kernel_outcomes
from exams.actions.scheduling import save_template, schedule_exam
from exams.core.scoring import attempts_left
from grader.models import Status, Submission
from tests.conftest import ROOT, worker_env

from .conftest import SOLUTION, FaultWorker, dump, redis_only  # noqa: F401

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.django_db(transaction=True)]
# How soon after the kill the killed submission must be graded: the second worker's start-up (a few
# seconds, the emulator's runtime cached), the exam sweep's stale-heartbeat bound (seconds), and one
# grading of slow-add (3 cases x SLOW_CASE_S).
RECOVERY_BOUND_S = 30.0
TEMPLATE = {"zones": [{"pool": [{"kernel": "slow-add", "attempt_points": [10, 7, 5]}]}]}


@pytest.fixture
def workers(tmp_path, settings):
    started: list[FaultWorker] = []
    settings.WARPDRILL_SUBMISSIONS_PER_MINUTE = 0  # the practice flood comes from one user

    def start(name: str, queues: str, beat: bool = False, **env: str) -> FaultWorker:
        # The emulator's runtime is built once into a cache kept between runs (minutes on a busy machine).
        # No input cache: every slow-add grading must pay its slow harness, or the practice worker
        # takes its flood in one slow grading and five fast ones (the inputs are seeded, so cached).
        extra = {"WARPDRILL_ALLOW_UNSAFE_SANDBOX": "0", "WARPDRILL_INPUT_CACHE_MB": "0", "WARPDRILL_STUCK_AFTER_S": "3600",
                 "WARPDRILL_EXAM_SWEEP_EVERY_S": "1", "WARPDRILL_CACHE_DIR": str(ROOT / "var" / "cache-tests"), **env}
        args = ("-B", "-s", str(tmp_path / f"beat-{name}")) if beat else ()
        w = FaultWorker(worker_env(**extra), name=name, queues=queues, args=args)
        started.append(w)
        w.wait_ready(300)
        return w

    start.all = started
    yield start
    for w in started:
        w.stop()
    if settings.CELERY_BROKER_URL.startswith("redis"):
        import redis

        client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
        keys = [k for k in client.keys("*") if k.startswith((b"cpu", b"gpu", b"exam", b"unacked", b"_kombu"))]
        if keys:
            client.delete(*keys)


@pytest.fixture
def exam_setup(slow_problem):
    from courses.models import Course, Membership

    course = Course.objects.create(name="GPU", code="GPU-Q")
    ivy = User.objects.create_user("ivy-q", password="x-pass-1234")
    stu = User.objects.create_user("stu-q", password="x-pass-1234")
    Membership.objects.create(course=course, user=ivy, role="instructor")
    Membership.objects.create(course=course, user=stu, role="student")
    template = save_template(course, ivy, TEMPLATE)
    now = timezone.now()
    exam = schedule_exam(course, template, opens_at=now - timedelta(minutes=1),
                         closes_at=now + timedelta(hours=1), duration_minutes=60)
    attempt = start_attempt(exam, stu)
    return stu, attempt, attempt.items.get(kind="kernel")


def wait(pred, timeout: float, workers, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return
        time.sleep(0.2)
    raise AssertionError(f"{what}: not within {timeout} s\n{dump(workers)}")


def test_exam_item_graded_while_practice_queue_is_full(exam_setup, workers):
    from grader import actions as grader_actions
    from problems.models import Problem

    stu, attempt, item = exam_setup
    practice = workers("practice", "cpu,gpu")
    exam_worker = workers("exam", "exam")
    problem = Problem.objects.get(slug="slow-add")
    # The flood comes from another student: one in the exam may not practise its problems while it runs.
    other = User.objects.create_user("flooder-q", password="x-pass-1234")
    flood = [grader_actions.create_submission(other, problem, SOLUTION).pk for _ in range(6)]
    sub = submit_kernel(item, stu, SOLUTION)
    wait(lambda: Submission.objects.get(pk=sub.pk).status == Status.GRADED, 120, workers.all, "exam verdict")
    waiting = Submission.objects.filter(pk__in=flood).exclude(status=Status.GRADED).count()
    assert Submission.objects.get(pk=sub.pk).verdict == "ACCEPTED"
    assert waiting >= 3, f"only {waiting} practice submissions were still waiting\n{dump(workers.all)}"
    assert [v for pk, v in exam_worker.graded() if pk == sub.pk] == ["ACCEPTED"]
    assert sub.pk not in {pk for pk, _v in practice.graded()}


def test_exam_worker_killed_mid_grade_costs_no_attempt(exam_setup, workers):
    stu, attempt, item = exam_setup
    first = workers("exam-a", "exam")
    sub = submit_kernel(item, stu, SOLUTION)
    grading = (Status.COMPILING, Status.RUNNING, Status.CHECKING)
    wait(lambda: Submission.objects.get(pk=sub.pk).status in grading, 90, workers.all, "grading started")
    first.kill()
    first.proc.wait(10)
    killed_at = time.monotonic()
    assert Submission.objects.get(pk=sub.pk).status in grading  # left half-graded by the dead worker
    second = workers("exam-b", "exam", beat=True)
    wait(lambda: Submission.objects.get(pk=sub.pk).status == Status.GRADED, 120, workers.all, "verdict after kill")
    recovered_s = time.monotonic() - killed_at
    row = Submission.objects.get(pk=sub.pk)
    assert row.verdict == "ACCEPTED" and row.tries == 2
    assert "re-queued 1 stale exam submission" in second.output()
    print(f"graded {recovered_s:.1f} s after the worker was killed")
    # The exam clock runs: the stale heartbeat is seen within seconds (beat every second here), so the
    # verdict comes within the second worker's start-up plus one grading, not the sweeper's minutes.
    assert recovered_s <= RECOVERY_BOUND_S, f"graded {recovered_s:.1f} s after the kill\n{dump(workers.all)}"
    item.refresh_from_db()
    assert attempts_left(item.data["kernel"], kernel_outcomes(item)) == 2  # one attempt used, not two
    attempt = submit_attempt(attempt.pk, stu)
    item.refresh_from_db()
    assert item.points == 10.0 and attempt.total == 10.0
