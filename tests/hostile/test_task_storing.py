"""Storing a verdict is inside the task's error handling (issue 13, finding 3).

A result the database refused (a forged `time_s: NaN` under PostgreSQL's jsonb) raised from
`finish_grading` outside the task's `try`, so the submission stayed RUNNING for an hour of
re-deliveries. Now it is a fault like any other: retried, then INTERNAL_ERROR, never left running.
"""
from __future__ import annotations

import pytest
from django.db import DatabaseError

from grader import actions
from grader import grading
from grader.models import Status, Submission
from tests.faults.test_write_path import alice, eager_dummy, problem  # noqa: F401  (fixtures)
from tests.faults.conftest import SOLUTION

pytestmark = pytest.mark.django_db


def test_a_verdict_the_database_refuses_is_retried_then_given_up(alice, problem, eager_dummy, monkeypatch,  # noqa: F811
                                                                django_capture_on_commit_callbacks):
    """finish_grading raising every time ends INTERNAL_ERROR after the retries; the row is never left RUNNING."""
    real = grading.finish_grading
    calls = []

    def refusing(submission_id, result):
        calls.append(result.verdict)
        if result.verdict.value != "INTERNAL_ERROR":
            raise DatabaseError("cannot store NaN in jsonb")
        return real(submission_id, result)

    monkeypatch.setattr(grading, "finish_grading", refusing)
    with django_capture_on_commit_callbacks(execute=True):
        sub = actions.create_submission(alice, problem, SOLUTION)
    sub = Submission.objects.get(pk=sub.pk)
    assert sub.status == Status.GRADED and sub.verdict == "INTERNAL_ERROR", (sub.status, sub.verdict)
    assert len(calls) >= 2
