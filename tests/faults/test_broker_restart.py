"""Redis restarts with submissions queued and loses its queue: every submission is still graded, once.

Redis here keeps nothing on disk (`--save "" --appendonly no`, as .ci/run starts it), so a restart
empties the queue. The rows were committed before their messages were sent, and beat's sweeper
re-queues those stuck in QUEUED; duplicate messages for graded submissions then do nothing.

The Redis restarted is a private redis-server started by the test on a free port (the same flags
as .ci/run's), so that restarting it never disturbs anything else using the shared Redis.
"""
from __future__ import annotations

import time

import pytest
from rest_framework.test import APIClient

from grader.models import Submission
from grader.tasks import grade_submission

from .conftest import SOLUTION, WRONG, all_graded, app_broker, dump, queue_length, redis_only, submit

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.django_db(transaction=True), redis_only]

SWEEPER_ENV = {"WARPDRILL_SWEEP_EVERY_S": "1", "WARPDRILL_STUCK_AFTER_S": "3"}


def wait_all_graded(pks, workers, timeout: float = 180.0) -> dict[int, Submission]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        rows = {s.pk: s for s in Submission.objects.filter(pk__in=pks)}
        if all(r.status == "GRADED" for r in rows.values()):
            return rows
        time.sleep(0.25)
    states = {pk: s.status for pk, s in rows.items()}
    raise AssertionError(f"not all graded within {timeout} s: {states}\n{dump(workers)}")


@pytest.fixture
def students(make_student):
    clients = []
    for name in ("rita", "ravi"):
        client = APIClient()
        client.force_authenticate(make_student(name))
        clients.append(client)
    return clients


def test_redis_restart_loses_the_queue_and_every_submission_is_still_graded_once(
        tiny_problem, students, fault_workers, private_redis):
    """Six queued submissions, Redis restarted empty, then a worker with beat: all six graded once,
    with the verdict their source deserves; duplicate messages afterwards change nothing."""
    expected: dict[int, str] = {}
    with app_broker(private_redis.url):
        for client in students:
            for source, verdict in ((SOLUTION, "ACCEPTED"), (WRONG, "WRONG_ANSWER"), (SOLUTION, "ACCEPTED")):
                expected[submit(client, "tiny-add", source)] = verdict
    assert queue_length(private_redis.url) == len(expected)

    private_redis.shutdown_nosave()
    private_redis.start()
    assert queue_length(private_redis.url) == 0  # every message is gone
    assert set(Submission.objects.values_list("status", flat=True)) == {"QUEUED"}  # every row is not

    worker = fault_workers("a", broker=private_redis.url, beat=True, env=SWEEPER_ENV)
    rows = wait_all_graded(list(expected), fault_workers.all)
    assert {pk: r.verdict for pk, r in rows.items()} == expected, dump(fault_workers.all)
    assert "re-queued" in worker.output()
    assert sorted(all_graded(fault_workers.all, wait_for=expected)) == sorted(expected.items()), dump(fault_workers.all)

    # A duplicate message for each graded submission: ignored, nothing changes.
    before = {pk: (r.verdict, r.result, r.tries, r.finished_at) for pk, r in rows.items()}
    with app_broker(private_redis.url):
        for pk in expected:
            grade_submission.delay(pk)
    deadline = time.monotonic() + 60
    while set(worker.duplicates_ignored()) < set(expected) and time.monotonic() < deadline:
        time.sleep(0.25)
    assert set(worker.duplicates_ignored()) >= set(expected), dump(fault_workers.all)
    after = {r.pk: (r.verdict, r.result, r.tries, r.finished_at) for r in Submission.objects.filter(pk__in=expected)}
    assert after == before
    assert sorted(all_graded(fault_workers.all)) == sorted(expected.items())


def test_redis_down_when_submitting_then_back(tiny_problem, students, fault_workers, private_redis):
    """Submitting while Redis is down still answers 201 and keeps the row; once Redis is back the
    sweeper sends it and it is graded."""
    private_redis.shutdown_nosave()
    with app_broker(private_redis.url):
        pk = submit(students[0], "tiny-add", SOLUTION)
    assert Submission.objects.get(pk=pk).status == "QUEUED"

    private_redis.start()
    fault_workers("a", broker=private_redis.url, beat=True, env=SWEEPER_ENV)
    rows = wait_all_graded([pk], fault_workers.all)
    assert rows[pk].verdict == "ACCEPTED"
    assert all_graded(fault_workers.all, wait_for=[pk]) == [(pk, "ACCEPTED")]
