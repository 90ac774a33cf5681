"""A worker dies while it grades: the submission is still graded, once, and nothing is lost.

Three ways back, each tested on its own:
- only the pool process dies: the worker's main process sees it (WorkerLostError) and, with
  reject_on_worker_lost, puts the message back at once;
- the whole worker is SIGKILLed (Redis): the message it held unacknowledged becomes visible again
  after the broker's visibility timeout and another worker takes it. The timeout is derived from the
  task's hard time limit (CELERY_TASK_TIME_LIMIT + WARPDRILL_REDELIVERY_MARGIN_S, both short here),
  the longest a live worker can hold the message;
- the whole worker is SIGKILLed and the message is out of reach (a visibility timeout of an hour):
  the sweeper (beat, every WARPDRILL_SWEEP_EVERY_S) re-queues the submission once it has been stuck
  for WARPDRILL_STUCK_AFTER_S.
Grading is slowed down by 'slow-add', whose harness takes SLOW_CASE_S per test case.
"""
from __future__ import annotations

import os
import signal
import time

import pytest

from grader.models import Submission

from .conftest import SOLUTION, all_graded, dump, graded, poll, redis_only, submit

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def running(data: dict) -> bool:
    # Being graded: the harness makes every test's inputs up front, beside the compile, so slow-add
    # spends its slow part in COMPILING; RUNNING is written at most every 0.25 s and may be missed.
    return data["status"] in ("COMPILING", "RUNNING")


def assert_graded_once(pk: int, workers, verdict: str = "ACCEPTED") -> None:
    """Exactly one final verdict for `pk` among all workers' logs, and it is the stored one."""
    lines = [v for sid, v in all_graded(workers, wait_for=[pk]) if sid == pk]
    assert lines == [verdict], f"final verdicts stored for #{pk}: {lines}\n{dump(workers)}"
    row = Submission.objects.get(pk=pk)
    assert row.status == "GRADED" and row.verdict == verdict and row.counts_as_attempt


def test_pool_process_killed_is_put_back_and_graded_once(slow_problem, student, fault_workers, clean_broker):
    """SIGKILL of the process that grades: the worker re-queues the message and grades it again."""
    worker = fault_workers("a")
    pk = submit(student, "slow-add", SOLUTION)
    poll(student, pk, running, 60, fault_workers.all)
    children = worker.pool_children()
    assert len(children) == 1, children
    os.kill(children[0], signal.SIGKILL)

    data = poll(student, pk, graded, 120, fault_workers.all)
    assert data["verdict"] == "ACCEPTED"
    assert "WorkerLostError" in worker.output() or "exited with 'signal 9" in worker.output(), dump(fault_workers.all)
    assert_graded_once(pk, fault_workers.all)
    assert Submission.objects.get(pk=pk).tries == 2


@redis_only
def test_worker_killed_message_redelivered_after_visibility_timeout(slow_problem, student, fault_workers,
                                                                      clean_broker):
    """SIGKILL of the whole worker: after the visibility timeout, derived from the task's hard time
    limit (12 + 1 s here; no CELERY_VISIBILITY_TIMEOUT given), another worker gets the message."""
    # Scan for unacknowledged messages every second (the settings' default: every 10 s).
    env = {"CELERY_TASK_TIME_LIMIT": "12", "CELERY_TASK_SOFT_TIME_LIMIT": "11", "WARPDRILL_REDELIVERY_MARGIN_S": "1",
           "CELERY_UNACKED_RESTORE_INTERVAL": "1"}
    first = fault_workers("a", env=env)
    pk = submit(student, "slow-add", SOLUTION)
    poll(student, pk, running, 60, fault_workers.all)
    first.kill()
    first.proc.wait(10)
    assert Submission.objects.get(pk=pk).status in ("COMPILING", "RUNNING")  # left half-graded by the dead worker

    second = fault_workers("b", env=env)  # no beat: only the broker can bring the message back
    data = poll(student, pk, graded, 120, fault_workers.all)
    assert data["verdict"] == "ACCEPTED"
    assert_graded_once(pk, fault_workers.all)
    assert first.graded() == [] and [v for sid, v in second.graded() if sid == pk] == ["ACCEPTED"]
    assert "re-queued" not in second.output()  # the sweeper played no part


def test_worker_killed_submission_requeued_by_the_sweeper(slow_problem, student, fault_workers, clean_broker):
    """SIGKILL of the whole worker with the message out of reach: beat's sweeper re-queues it."""
    first = fault_workers("a", env={"CELERY_VISIBILITY_TIMEOUT": "3600"})
    pk = submit(student, "slow-add", SOLUTION)
    poll(student, pk, running, 60, fault_workers.all)
    first.kill()
    first.proc.wait(10)
    killed = time.monotonic()

    second = fault_workers("b", beat=True, env={"CELERY_VISIBILITY_TIMEOUT": "3600", "WARPDRILL_SWEEP_EVERY_S": "1",
                                                "WARPDRILL_STUCK_AFTER_S": "4"})
    data = poll(student, pk, graded, 120, fault_workers.all)
    assert data["verdict"] == "ACCEPTED"
    assert time.monotonic() - killed < 60  # long before the hour-long visibility timeout
    assert "re-queued 1 stuck submission(s)" in second.output(), dump(fault_workers.all)
    assert_graded_once(pk, fault_workers.all)


def test_worker_killed_submission_requeued_by_its_stale_heartbeat(slow_problem, student, fault_workers, clean_broker):
    """Issue #13: SIGKILL of the whole worker with the message out of reach and the stuck sweeper an hour
    away: the grader's heartbeat goes stale and the dead-grader sweep (beat, every second here) re-queues
    the practice submission within seconds of the heartbeat's 10 s staleness."""
    first = fault_workers("a", env={"CELERY_VISIBILITY_TIMEOUT": "3600"})
    pk = submit(student, "slow-add", SOLUTION)
    poll(student, pk, running, 60, fault_workers.all)
    assert Submission.objects.get(pk=pk).heartbeat_at is not None
    first.kill()
    first.proc.wait(10)
    killed = time.monotonic()

    second = fault_workers("b", beat=True, env={"CELERY_VISIBILITY_TIMEOUT": "3600",
                                                "WARPDRILL_DEAD_GRADER_SWEEP_EVERY_S": "1"})
    data = poll(student, pk, graded, 120, fault_workers.all)
    assert data["verdict"] == "ACCEPTED"
    print(f"graded {time.monotonic() - killed:.1f} s after the worker was killed")
    assert "re-queued 1 submission(s) of dead graders" in second.output(), dump(fault_workers.all)
    assert "stuck submission" not in second.output()  # the hour-long stuck sweeper played no part
    assert_graded_once(pk, fault_workers.all)


@redis_only
def test_visibility_timeout_outlasts_the_longest_healthy_grading(settings):
    """Redelivery never races a live worker: the broker waits longer than a task's hard time limit."""
    assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] > settings.CELERY_TASK_TIME_LIMIT
