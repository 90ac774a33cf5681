"""The grading lock's rules, in-process: who may start grading a submission that looks half-graded.

A second database session plays the other grader: while it holds the submission's advisory lock
the submission is being graded by a live process; closing that session is what PostgreSQL does when
the process is killed. Tasks run eagerly on the dummy backend. PostgreSQL only (SQLite has no
advisory locks; there only a stored verdict stops a duplicate).
"""
from __future__ import annotations

from datetime import timedelta

import psycopg
import pytest
from django.db import connection
from django.utils import timezone

from grader import actions, grading, tasks
from grader.models import Status, Submission

from .test_write_path import BROKEN_HARNESS, alice, eager_dummy, make, problem  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.django_db,
              pytest.mark.skipif(connection.vendor != "postgresql", reason="the grading lock needs PostgreSQL")]


class OtherSession:
    """A second PostgreSQL session on the test database (another worker process's connection)."""

    def __init__(self):
        db = connection.settings_dict
        self.conn = psycopg.connect(dbname=db["NAME"], user=db.get("USER") or None, password=db.get("PASSWORD") or None,
                                    host=db.get("HOST") or None, port=db.get("PORT") or None, autocommit=True)

    def try_lock(self, pk: int) -> bool:
        return self.conn.execute("SELECT pg_try_advisory_lock(%s, %s)", grading._lock_key(pk)).fetchone()[0]

    def close(self) -> None:
        self.conn.close()


@pytest.fixture
def other():
    session = OtherSession()
    yield session
    session.close()


@pytest.fixture(autouse=True)
def no_lock_wait(monkeypatch):
    """A refused lock is refused at once here (workers wait GRADING_LOCK_WAIT_S for a dying holder)."""
    monkeypatch.setattr(grading, "GRADING_LOCK_WAIT_S", 0.0)


def test_duplicate_while_a_live_process_grades_changes_nothing(make, other, eager_dummy, caplog):
    """The other session holds the lock and grading started just now: the message is dropped, and the
    row keeps its status, progress, try count and start time."""
    started = timezone.now()
    sub = make(status=Status.RUNNING, tries=1, progress_done=1, started_at=started, backend="emulator")
    assert other.try_lock(sub.pk)
    assert tasks.grade_submission.delay(sub.pk).get() is None
    sub.refresh_from_db()
    assert (sub.status, sub.tries, sub.progress_done, sub.started_at, sub.verdict) == (
        Status.RUNNING, 1, 1, started, "")
    assert "being graded by another worker; duplicate message ignored" in caplog.text


@pytest.mark.parametrize("status", [Status.QUEUED, Status.RETRYING])
def test_duplicate_while_the_grader_is_between_states_changes_nothing(make, other, eager_dummy, status):
    """A live holder may show QUEUED (the sweeper put it back) or RETRYING (it is sending its retry):
    the lock, not the status, says that it is busy."""
    sub = make(status=status, tries=1, started_at=timezone.now())
    assert other.try_lock(sub.pk)
    assert tasks.grade_submission.delay(sub.pk).get() is None
    assert Submission.objects.get(pk=sub.pk).tries == 1


def test_redelivery_after_the_grader_died_grades_it(make, other, eager_dummy):
    """The grader's session ends with its process (PostgreSQL frees its locks): the message that comes
    back at once finds the row RUNNING, takes the lock and grades it."""
    sub = make(status=Status.RUNNING, tries=1, started_at=timezone.now())
    assert other.try_lock(sub.pk)
    other.close()
    assert tasks.grade_submission.delay(sub.pk).get() == "WRONG_ANSWER"  # the dummy backend runs nothing
    sub.refresh_from_db()
    assert sub.status == Status.GRADED and sub.tries == 2


def test_holder_stuck_past_the_deadline_is_graded_without_the_lock(make, other, eager_dummy, settings, caplog):
    """A holder whose grading started before WARPDRILL_STUCK_AFTER_S (a hung process, or a machine
    gone without closing its connection) does not block the sweeper's message forever."""
    settings.WARPDRILL_STUCK_AFTER_S = 60
    long_ago = timezone.now() - timedelta(seconds=61)
    sub = make(status=Status.QUEUED, tries=1, started_at=long_ago, queued_at=timezone.now())
    assert other.try_lock(sub.pk)
    assert tasks.grade_submission.delay(sub.pk).get() == "WRONG_ANSWER"  # the dummy backend runs nothing
    sub.refresh_from_db()
    assert sub.status == Status.GRADED and sub.tries == 2
    assert "grading it again" in caplog.text


def test_lock_is_released_after_a_verdict(make, other, eager_dummy):
    """Once graded, the lock is free again (a later duplicate then reads the verdict)."""
    sub = make(status=Status.QUEUED)
    assert tasks.grade_submission.delay(sub.pk).get() == "WRONG_ANSWER"  # the dummy backend runs nothing
    assert other.try_lock(sub.pk)
    assert tasks.grade_submission.delay(sub.pk).get() is None  # graded: nothing to do, lock or not


def test_lock_is_released_before_each_retry_and_after_giving_up(db, alice, other, eager_dummy,
                                                                django_capture_on_commit_callbacks):
    """A platform fault is retried (eagerly here) and ends INTERNAL_ERROR; no try keeps the lock."""
    from problems.core.package import parse_package
    from problems.models import Problem
    from problems.services import import_package
    from tests.packages import tiny_package_files

    from .conftest import SOLUTION

    import_package(parse_package(tiny_package_files(**{"harness.py": BROKEN_HARNESS})))
    with django_capture_on_commit_callbacks(execute=True):
        sub = actions.create_submission(alice, Problem.objects.get(slug="tiny-add"), SOLUTION)
    sub.refresh_from_db()
    assert sub.verdict == "INTERNAL_ERROR" and sub.tries == tasks.MAX_RETRIES + 1
    assert other.try_lock(sub.pk)


def test_sqlite_style_databases_always_get_the_lock(monkeypatch):
    """Without advisory locks the lock is always granted (the old behaviour), never refused."""
    monkeypatch.setattr(connection, "vendor", "sqlite")
    with grading.grading_lock(123) as held:
        assert held is True
