"""Grading state of a submission: the grading lock, the claim, live progress, the final verdict, a
retry after a platform fault, giving up, and the heartbeat of a live grader.

Part of the one write path of submissions (grader.actions creates and enqueues them; the tasks
call these): each change locks the row and saves with `update_fields`; none enqueues.
"""
from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from grader.core import messages as M
from grader.core.escape import escape_untrusted
from grader.core.results import JudgeResult
from grader.core.verdicts import NOT_RUN, Verdict

from . import live
from .models import Status, Submission

log = logging.getLogger(__name__)


# The grading lock: a PostgreSQL session-level advisory lock per submission, held by the process
# that grades it from the claim to the end of the run. PostgreSQL ends a session whose process died
# (its socket closes) and frees its locks with it, so the lock says "a live process is grading this"
# at once, which no status or timestamp can: a message put back at once after its pool process was
# killed, and a duplicate arriving while the grader is alive, find the same row in RUNNING.
# Two-key form: (GRADING_LOCK_SPACE, submission id) keeps these apart from any other advisory lock.
# https://www.postgresql.org/docs/current/explicit-locking.html#ADVISORY-LOCKS
GRADING_LOCK_SPACE = 0x5744  # "WD"
# How long a message waits for the lock before it counts the holder as live: PostgreSQL needs a
# moment to notice that a killed process's socket closed, and a re-delivery can be that quick.
GRADING_LOCK_WAIT_S = 2.0


def _lock_key(submission_id: int) -> tuple[int, int]:
    # Both keys are int4; an id past 2**31 - 1 shares a lock with a far smaller one, which only
    # makes one of two unrelated messages wait for the sweeper (the steal rule in start_grading).
    return GRADING_LOCK_SPACE, submission_id % 2**31


@contextmanager
def grading_lock(submission_id: int) -> Iterator[bool]:
    """Hold the submission's grading lock for the block; yields whether it was got within
    GRADING_LOCK_WAIT_S.

    Call outside any transaction. The lock belongs to this thread's database session: it is freed
    when the block ends, or by PostgreSQL when the process dies. Databases without advisory locks
    (SQLite, for development) always yield True: there, as before, only a stored verdict stops a
    duplicate from grading.
    """
    if connection.vendor != "postgresql":
        yield True
        return
    key = _lock_key(submission_id)
    deadline = time.monotonic() + GRADING_LOCK_WAIT_S
    with connection.cursor() as cursor:
        while True:
            cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", key)
            held = cursor.fetchone()[0]
            if held or time.monotonic() >= deadline:
                break
            time.sleep(0.1)
    try:
        yield held
    finally:
        if held:
            try:
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_advisory_unlock(%s, %s)", key)
            except DatabaseError:
                # The session is gone (a database restart), and its locks went with it. Close the
                # broken connection so that the next task opens a fresh one.
                log.exception("submission %s: the grading lock could not be released", submission_id)
                connection.close()


def start_grading(submission_id: int, backend: str, lock_held: bool = True) -> Submission | None:
    """Claim a submission for grading: COMPILING, one more try, a fresh started_at.

    Call inside `grading_lock(submission_id)`, passing what it yielded as `lock_held`. None when
    the submission is gone or already graded (an idempotent re-delivery), or when another live
    process holds the lock (a duplicate message while it is graded): the caller must then not grade.
    A holder whose grading started more than WARPDRILL_STUCK_AFTER_S ago is hung or on a machine
    that vanished without closing its connection (the sweeper's notion of stuck: no healthy
    grading runs that long, see CELERY_TASK_TIME_LIMIT), so it is graded without the lock then.
    """
    deadline = timezone.now() - timedelta(seconds=settings.WARPDRILL_STUCK_AFTER_S)
    with transaction.atomic():
        submission = Submission.objects.select_for_update().filter(pk=submission_id).first()
        if submission is None or submission.status == Status.GRADED:
            log.info("submission %s: already graded or gone; duplicate message ignored", submission_id)
            return None
        if not lock_held:
            if submission.started_at is None or submission.started_at >= deadline:
                log.info("submission %s: being graded by another worker; duplicate message ignored", submission_id)
                return None
            log.warning("submission %s: its grader has held it since %s; grading it again", submission_id,
                        submission.started_at.isoformat())
        submission.status = Status.COMPILING
        submission.backend = backend
        submission.tries += 1
        submission.progress_done = 0
        submission.started_at = timezone.now()
        submission.save(update_fields=["status", "backend", "tries", "progress_done", "started_at"])
    return submission


def record_progress(submission_id: int, stage: str, done: int, total: int) -> None:
    """Show live progress: COMPILING, RUNNING test k of n, then CHECKING. Never touches a graded row."""
    status = {"compiling": Status.COMPILING, "checking": Status.CHECKING}.get(stage, Status.RUNNING)
    Submission.objects.filter(pk=submission_id).exclude(status=Status.GRADED).update(
        status=status, progress_done=done, progress_total=total
    )
    live.changed(submission_id)


def finish_grading(submission_id: int, result: JudgeResult) -> bool:
    """Store the verdict and result. Exactly one final verdict: returns False if it was already graded."""
    with transaction.atomic():
        submission = Submission.objects.select_for_update().filter(pk=submission_id).first()
        if submission is None or submission.status == Status.GRADED:
            log.info("submission %s: already graded or gone; this run's %s is dropped", submission_id,
                     result.verdict.value)
            return False
        submission.status = Status.GRADED
        submission.verdict = result.verdict.value
        submission.result = result.to_dict()
        submission.progress_done = sum(1 for test in result.tests if test.verdict is not NOT_RUN)  # tests that ran
        submission.finished_at = timezone.now()
        submission.save(update_fields=["status", "verdict", "result", "progress_done", "finished_at"])
    # One line per final verdict: fault tests count these to prove a submission is graded once.
    log.info("submission %s graded: %s (try %s)", submission_id, result.verdict.value, submission.tries)
    return True


def mark_retrying(submission_id: int, reason: str) -> None:
    """A platform fault: show 'not graded, retrying'; the task is retried by Celery."""
    log.warning("submission %s: platform fault, retrying: %s", submission_id, escape_untrusted(reason))
    Submission.objects.filter(pk=submission_id).exclude(status=Status.GRADED).update(
        status=Status.RETRYING, queued_at=timezone.now()
    )
    live.changed(submission_id)


def give_up(submission_id: int, reason: str) -> None:
    """After the last retry: INTERNAL_ERROR, which never counts as an attempt."""
    result = JudgeResult(verdict=Verdict.INTERNAL_ERROR, message=_("Not graded: %(reason)s. This does not count as an attempt; an instructor can rejudge it.") % {"reason": escape_untrusted(reason)})
    finish_grading(submission_id, result)


def harness_failed(submission_id: int, detail: str) -> None:
    """A validation submission whose problem's harness.py failed: INTERNAL_ERROR at once (a harness bug is
    deterministic) with `detail` (grader.harness_box.HarnessError.author_detail: harness.py's line and
    traceback) for the authors on their validation run. Control characters in it are written as escapes,
    line breaks kept; at most HARNESS_DETAIL_CHARS of it. Never for a student's submission (give_up)."""
    lines = [escape_untrusted(line) for line in detail[:HARNESS_DETAIL_CHARS].splitlines()]
    if len(detail) > HARNESS_DETAIL_CHARS:
        lines.append(f"[{len(detail) - HARNESS_DETAIL_CHARS} more characters not shown]")
    finish_grading(submission_id, JudgeResult(verdict=Verdict.INTERNAL_ERROR,
                                              message=M.HARNESS_FAILED(detail="\n".join(lines))))


HARNESS_DETAIL_CHARS = 4000


def beat_heart(submission_id: int) -> None:
    """Record that a live grader is grading this submission now."""
    Submission.objects.filter(pk=submission_id).exclude(status=Status.GRADED).update(heartbeat_at=timezone.now())


SETUP_NOTE_S = 5  # how often a waiting task says so (grader.tasks.SETUP_WAIT_S)


def still_waiting_for_setup(submission_id: int) -> int:
    """A queued submission whose worker is still setting up (grader.tasks._setup_pending) is waiting, not
    stale: its queued_at is moved to now, so neither sweeper re-queues it. Returns the rows changed (0 or 1)."""
    live.mark_setting_up(3 * SETUP_NOTE_S)
    changed = Submission.objects.filter(pk=submission_id, status__in=[Status.QUEUED, Status.RETRYING]).update(
        queued_at=timezone.now())
    if changed:
        live.changed(submission_id)
    return changed
