"""A duplicated grading message that arrives while the submission is being graded does not grade it again.

Two real workers share the queue; one grades 'slow-add' (SLOW_CASE_S per test case) while a second
message for the same submission reaches the other. The grading worker holds the submission's grading
lock (a PostgreSQL advisory lock of its database session), so the duplicate sees a live grader and is
dropped: the submission is started once (tries == 1) and graded once. The recovery paths that need a
second start (a dead worker's message coming back, the sweeper) are in test_worker_killed.py.
"""
from __future__ import annotations

import re

import pytest
from django.db import connection

from grader.models import Submission
from grader.tasks import grade_submission

from .conftest import SOLUTION, all_graded, dump, graded, poll, redis_only, submit

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.django_db(transaction=True), redis_only,
              pytest.mark.skipif(connection.vendor != "postgresql", reason="the grading lock needs PostgreSQL")]

BUSY_LINE = re.compile(r"submission (\d+): being graded by another worker; duplicate message ignored")


def running(data: dict) -> bool:
    # Being graded: the harness now makes every test's inputs up front (before the compile's ptxas
    # thread forks), so slow-add spends its slow part in COMPILING, not RUNNING.
    return data["status"] in ("COMPILING", "RUNNING")


def test_duplicate_message_mid_grading_is_ignored_by_the_idle_worker(slow_problem, student, fault_workers,
                                                                    clean_broker):
    """While worker a or b grades, a second message for the submission goes to the idle one, which
    drops it at once: one start, one verdict, and the first grading's progress is never reset."""
    a, b = fault_workers("a"), fault_workers("b")
    pk = submit(student, "slow-add", SOLUTION)
    poll(student, pk, running, 60, fault_workers.all)
    # Each worker has one pool process and prefetches one message: the busy one holds its own, so
    # this one goes to the idle worker.
    grade_submission.delay(pk)
    poll(student, pk, lambda data: any(int(m[1]) == pk for w in (a, b) for m in BUSY_LINE.finditer(w.output())),
         30, fault_workers.all)

    data = poll(student, pk, graded, 120, fault_workers.all)
    assert data["verdict"] == "ACCEPTED"
    assert [v for sid, v in all_graded(fault_workers.all, wait_for=[pk]) if sid == pk] == ["ACCEPTED"]
    row = Submission.objects.get(pk=pk)
    assert row.tries == 1, dump(fault_workers.all)
    # The duplicate never got as far as the judge: no second "dropped" verdict either.
    assert "this run's" not in a.output() + b.output(), dump(fault_workers.all)


def test_duplicate_after_the_grader_finished_is_ignored_too(slow_problem, student, fault_workers, clean_broker):
    """Once the verdict is stored (and the lock released), a late duplicate finds it graded."""
    worker = fault_workers("a")
    pk = submit(student, "slow-add", SOLUTION)
    poll(student, pk, graded, 120, fault_workers.all)
    grade_submission.delay(pk)
    poll(student, pk, lambda data: pk in worker.duplicates_ignored(), 30, fault_workers.all)
    assert Submission.objects.get(pk=pk).tries == 1
    assert [v for sid, v in all_graded(fault_workers.all, wait_for=[pk]) if sid == pk] == ["ACCEPTED"]
