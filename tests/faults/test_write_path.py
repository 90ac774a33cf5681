"""The write path's rules for faults, in-process: the sweeper's notion of "stuck", a broker outage at
submit time, unexpected errors while grading, and submissions that never finish.

No worker process here: tasks run eagerly on the dummy backend, or not at all (the on-commit
callbacks are captured), so these are quick and run on any database and broker.
"""
from __future__ import annotations

import logging
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from grader import actions, grading, sweeps, tasks
from grader.core.backends.registry import get_backend
from grader.models import Status, Submission
from problems.core.package import parse_package
from problems.services import import_package
from tests.packages import tiny_package_files

from .conftest import SOLUTION, app_broker
from grader.core.results import stored_message

pytestmark = pytest.mark.django_db

BROKEN_HARNESS = tiny_package_files()["harness.py"].replace(
    'def generate(case, rng):\n', 'def generate(case, rng):\n    if case["n"] > 5:\n'
    '        raise ValueError("harness bug near hidden-size-1025")\n')


@pytest.fixture
def problem(db):
    import_package(parse_package(tiny_package_files()))
    from problems.models import Problem

    return Problem.objects.get(slug="tiny-add")


@pytest.fixture
def alice(make_student):
    return make_student("alice")


@pytest.fixture
def make(problem, alice, django_capture_on_commit_callbacks):
    """A saved submission (its queue message captured, not sent) with the given fields."""

    def _make(**fields) -> Submission:
        with django_capture_on_commit_callbacks(execute=False):
            sub = actions.create_submission(alice, problem, SOLUTION)
        Submission.objects.filter(pk=sub.pk).update(**fields)
        return Submission.objects.get(pk=sub.pk)

    return _make


@pytest.fixture
def eager_dummy(settings):
    """Tasks run in-process when sent, on the dummy backend (Celery retries run at once)."""
    from config.celery import app

    settings.WARPDRILL_JUDGE = {**settings.WARPDRILL_JUDGE, "BACKEND": "dummy"}
    get_backend.cache_clear()
    eager, propagate = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager, app.conf.task_eager_propagates = True, False
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = eager, propagate
    get_backend.cache_clear()


# ---- the sweeper -------------------------------------------------------------------------------

def sweep(sent_tasks, now=None) -> tuple[list[int], int]:
    """Run requeue_stuck and its commit; returns (ids it found, task messages it sent). The commit
    also renews the live-status cache (grader.live), which is not a message."""
    with sent_tasks.until_commit():
        stuck = sweeps.requeue_stuck(now)
    return stuck, len(sent_tasks.commit())


@pytest.mark.parametrize("status", [Status.QUEUED, Status.RETRYING])
def test_sweeper_requeues_waiting_submissions_past_the_deadline(make, settings, status, sent_tasks):
    """A submission waiting longer than WARPDRILL_STUCK_AFTER_S is sent again and shown as queued."""
    settings.WARPDRILL_STUCK_AFTER_S = 60
    old = timezone.now() - timedelta(seconds=61)
    sub = make(status=status, queued_at=old)
    fresh = make(status=status, queued_at=timezone.now())
    stuck, sent = sweep(sent_tasks)
    assert stuck == [sub.pk] and sent == 1
    sub.refresh_from_db()
    assert sub.status == Status.QUEUED and sub.queued_at > old
    assert Submission.objects.get(pk=fresh.pk).status == status


def test_sweeper_counts_grading_time_from_the_start_not_the_queue(make, settings, sent_tasks):
    """A worker that took a submission late from a long queue is grading it now: no twin is sent.
    One whose grading started before the deadline (its worker died) is sent again."""
    settings.WARPDRILL_STUCK_AFTER_S = 60
    long_ago = timezone.now() - timedelta(seconds=600)
    busy = make(status=Status.RUNNING, queued_at=long_ago, started_at=timezone.now())
    dead = make(status=Status.COMPILING, queued_at=long_ago, started_at=long_ago)
    stuck, sent = sweep(sent_tasks)
    assert stuck == [dead.pk] and sent == 1
    assert Submission.objects.get(pk=busy.pk).status == Status.RUNNING
    assert Submission.objects.get(pk=dead.pk).status == Status.QUEUED


def test_sweeper_sends_once_per_deadline_and_never_touches_graded(make, settings, sent_tasks):
    """Right after a sweep the same submission is not sent again; a graded one never is."""
    settings.WARPDRILL_STUCK_AFTER_S = 60
    long_ago = timezone.now() - timedelta(seconds=600)
    sub = make(status=Status.QUEUED, queued_at=long_ago)
    make(status=Status.GRADED, verdict="ACCEPTED", queued_at=long_ago, started_at=long_ago)
    assert sweep(sent_tasks) == ([sub.pk], 1)
    assert sweep(sent_tasks) == ([], 0)
    later = timezone.now() + timedelta(seconds=61)
    assert sweep(sent_tasks, now=later) == ([sub.pk], 1)


# ---- the heartbeat: a dead grader's submission is found in seconds ---------------------------------

def test_stale_heartbeat_requeues_a_practice_submission_in_seconds(make, settings, sent_tasks,
                                                                  django_capture_on_commit_callbacks):
    """Issue #13: a RUNNING practice submission whose grader's heart stopped 11 s ago goes back to the
    queue although the stuck sweeper's deadline (an hour here) is far off; a fresh heartbeat, an exam
    submission (the exam sweep's) and a waiting one (a long queue is no fault) are left alone."""
    settings.WARPDRILL_STUCK_AFTER_S = 3600
    now = timezone.now()
    dead = make(status=Status.RUNNING, started_at=now - timedelta(seconds=30), heartbeat_at=now - timedelta(seconds=11))
    alive = make(status=Status.RUNNING, started_at=now - timedelta(seconds=30), heartbeat_at=now - timedelta(seconds=1))
    never_beat = make(status=Status.COMPILING, started_at=now - timedelta(seconds=11), heartbeat_at=None)
    waiting = make(status=Status.QUEUED, queued_at=now - timedelta(seconds=600))
    assert sweep(sent_tasks) == ([], 0)  # the slow sweeper sees nothing yet
    with django_capture_on_commit_callbacks(execute=False) as sent:
        found = sweeps.requeue_dead_graders(now)
    assert sorted(found) == sorted([dead.pk, never_beat.pk]) and len(sent) == 2
    assert Submission.objects.get(pk=dead.pk).status == Status.QUEUED
    assert Submission.objects.get(pk=dead.pk).heartbeat_at is None
    assert Submission.objects.get(pk=alive.pk).status == Status.RUNNING
    assert Submission.objects.get(pk=waiting.pk).status == Status.QUEUED
    with django_capture_on_commit_callbacks(execute=False) as sent:
        assert sweeps.requeue_dead_graders(now) == []  # sent once


def test_every_grading_task_beats_its_heart(make, eager_dummy, monkeypatch):
    """grade_submission (not only the exam task) records a heartbeat when it starts grading."""
    beats = []
    real = grading.beat_heart
    monkeypatch.setattr(grading, "beat_heart", lambda pk: (beats.append(pk), real(pk)))
    sub = make()
    tasks.grade_submission.delay(sub.pk)
    assert sub.pk in beats
    assert Submission.objects.get(pk=sub.pk).status == Status.GRADED


def test_dead_grader_sweep_runs_every_few_seconds_on_the_cpu_queue(settings):
    from grader.routing import route_task

    entry = settings.CELERY_BEAT_SCHEDULE["sweep-dead-graders"]
    assert entry["task"] == "grader.tasks.sweep_dead_graders" and entry["schedule"] <= 5
    assert route_task(entry["task"], (), {}, {}) == {"queue": "cpu"}
    assert sweeps.EXAM_HEARTBEAT_STALE_S <= 10


# ---- the broker is down when a student submits ---------------------------------------------------

def test_broker_down_at_submit_time_keeps_the_submission(problem, alice, caplog, django_capture_on_commit_callbacks):
    """The API still answers 201 with the saved submission; the failure is logged for the sweeper."""
    client = APIClient()
    client.force_authenticate(alice)
    with (app_broker("redis://127.0.0.1:9/0"), caplog.at_level(logging.ERROR, logger="grader.actions"),
          django_capture_on_commit_callbacks(execute=True)):
        response = client.post("/api/v1/problems/tiny-add/submissions", {"source": SOLUTION}, format="json")
    assert response.status_code == 201, response.content
    sub = Submission.objects.get(pk=response.json()["id"])
    assert sub.status == Status.QUEUED and sub.queued_at is not None
    assert f"submission {sub.pk}: saved but not queued" in caplog.text


# ---- unexpected errors and endless re-deliveries --------------------------------------------------

def test_unexpected_error_while_grading_is_internal_error_without_details(db, alice, eager_dummy,
                                                                          django_capture_on_commit_callbacks):
    """A harness that raises is the platform's fault: retried, then INTERNAL_ERROR, not counted, and
    the student never reads the exception (it may quote hidden data)."""
    import_package(parse_package(tiny_package_files(**{"harness.py": BROKEN_HARNESS})))
    from problems.models import Problem

    with django_capture_on_commit_callbacks(execute=True):
        sub = actions.create_submission(alice, Problem.objects.get(slug="tiny-add"), SOLUTION)
    sub.refresh_from_db()
    assert sub.status == Status.GRADED and sub.verdict == "INTERNAL_ERROR"
    assert not sub.counts_as_attempt
    assert sub.tries == tasks.MAX_RETRIES + 1
    assert "hidden-size" not in str(stored_message(sub.result)) and "does not count" in str(stored_message(sub.result))


def test_submission_started_too_often_ends_internal_error(make, eager_dummy):
    """A submission whose grading keeps getting interrupted is not tried forever."""
    sub = make(status=Status.QUEUED, tries=tasks.MAX_TRIES)
    assert tasks.grade_submission.delay(sub.pk).get() == "INTERNAL_ERROR"
    sub.refresh_from_db()
    assert sub.verdict == "INTERNAL_ERROR" and not sub.counts_as_attempt
    assert "interrupted" in str(stored_message(sub.result))


def test_duplicate_message_for_a_graded_submission_does_nothing(make, eager_dummy):
    """Grading is idempotent: a second message leaves verdict, result, tries and times alone."""
    sub = make(status=Status.QUEUED)
    tasks.grade_submission.delay(sub.pk)
    sub.refresh_from_db()
    before = (sub.status, sub.verdict, sub.result, sub.tries, sub.finished_at)
    assert sub.status == Status.GRADED
    assert tasks.grade_submission.delay(sub.pk).get() is None
    sub.refresh_from_db()
    assert (sub.status, sub.verdict, sub.result, sub.tries, sub.finished_at) == before
