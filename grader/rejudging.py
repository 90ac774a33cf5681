"""Rejudging: graded submissions sent back to the queue, and the copies a rejudge preview grades.

A rejudge with a preview (an author's, authoring.actions; an exam's regrade, exams.actions.regrades)
runs in three steps, the same for both: `create_rejudge_copy` per submission (a shadow copy graded at
low priority; the submission itself is untouched) with a RejudgeRecord holding `snapshot(original)`;
the preview reads each record's state (grader.core.rejudge); `apply_records` gives the originals
their copies' verdicts, never a copy's INTERNAL_ERROR.

Part of the one write path of submissions: each change locks the row, saves with `update_fields`
and enqueues after commit (actions.enqueue).
"""
from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone

from .actions import LOW_PRIORITY, enqueue
from .core.rejudge import applies, rejudge_state
from .models import Purpose, Status, Submission

log = logging.getLogger(__name__)


def create_rejudge_copy(user, version, original: Submission) -> Submission:
    """Save a QUEUED copy of `original` (its source, launch choice and variant) owned by `user` (the
    staff member previewing a rejudge), for `version`, with purpose REJUDGE, and enqueue it at
    LOW_PRIORITY. The original is not touched: apply_rejudge copies the copy's verdict onto it."""
    package = version.package()
    with transaction.atomic():
        submission = Submission.objects.create(
            user=user, problem_version=version, source=original.source, purpose=Purpose.REJUDGE,
            launch_block=original.launch_block, launch_grid=original.launch_grid,
            launch_shared_bytes=original.launch_shared_bytes,
            variant=original.variant, course_id=original.course_id, status=Status.QUEUED, progress_total=len(package.tests), queued_at=timezone.now(),
        )
        enqueue(submission, priority=LOW_PRIORITY)
    return submission


def snapshot(original: Submission) -> dict:
    """The fields of a RejudgeRecord that keep `original` as it is before a rejudge: its verdict,
    result and the version it was graded on."""
    return {"old_verdict": original.verdict, "old_result": original.result,
            "old_version_id": original.problem_version_id}


def apply_rejudge(original_id: int, copy: Submission) -> bool:
    """Give the graded submission `original_id` the verdict, result and version of its graded rejudge
    `copy`. Returns False (nothing changed) when either is not graded, or when the copy ended
    INTERNAL_ERROR over a real verdict (a platform fault is never applied). The caller keeps the old
    verdict and result (a grader.models.RejudgeRecord)."""
    if copy.status != Status.GRADED:
        return False
    with transaction.atomic():
        original = Submission.objects.select_for_update().filter(pk=original_id).first()
        if original is None or original.status != Status.GRADED:
            return False
        if not applies(rejudge_state(original.verdict, True, copy.verdict)):
            log.info("submission %s: its rejudge copy %s ended %s; the verdict %s stays", original_id, copy.pk,
                     copy.verdict, original.verdict)
            return False
        original.verdict, original.result = copy.verdict, copy.result
        original.problem_version_id = copy.problem_version_id
        original.progress_done, original.progress_total = copy.progress_done, copy.progress_total
        original.backend = copy.backend
        original.save(update_fields=["verdict", "result", "problem_version", "progress_done", "progress_total",
                                     "backend"])
    log.info("submission %s rejudged: now %s (from rejudge copy %s)", original_id, copy.verdict, copy.pk)
    return True


def apply_records(records) -> list:
    """Apply a previewed rejudge: each record (a RejudgeRecord with `original_id` and `copy`) whose state
    applies (SAME or CHANGED) gives its original the copy's verdict, result and version; PENDING and
    NOT_REJUDGED ones change nothing. Returns the records applied. Call inside the caller's
    transaction, which logs who applied it (the records keep the old results)."""
    applied = []
    for record in records:
        if applies(record.state) and apply_rejudge(record.original_id, record.copy):
            applied.append(record)
    return applied


def rejudge(submission_ids) -> int:
    """Send graded submissions back to the queue to be graded again. Returns how many were queued.

    Each submission keeps its user, source, launch choice and problem version (it is judged against
    the version it was submitted to, not the problem's current one); its verdict, result, progress,
    backend and tries are cleared and it becomes QUEUED, then is enqueued after commit. Only GRADED
    submissions are rejudged: one that is QUEUED, RETRYING, COMPILING or RUNNING is skipped (it is
    on its way to a verdict already, and a second message would grade it twice at once), and so is
    an id that does not exist. An exam's submission is skipped too: its verdict decides a score, so it is
    re-judged from the exam's regrade page, as a preview first (exams.actions.regrades), never in place.
    Skipped = the number of distinct ids - the result.
    Each row is locked and checked in its own transaction, so a worker that finishes meanwhile is
    seen; call it outside a transaction or inside one that commits (the messages go on commit).
    """
    ids = list(dict.fromkeys(submission_ids))  # each once, in the given order
    queued = 0
    for pk in ids:
        with transaction.atomic():
            submission = Submission.objects.select_for_update().filter(pk=pk).first()
            if submission is None or submission.status != Status.GRADED or submission.exam_item_id is not None:
                continue
            submission.status = Status.QUEUED
            submission.verdict = ""
            submission.result = None
            submission.progress_done = 0
            submission.backend = ""
            # A fresh budget of grading starts: rejudging one that ended INTERNAL_ERROR after
            # MAX_TRIES interrupted runs must not give up at once.
            submission.tries = 0
            submission.queued_at = timezone.now()
            submission.started_at = None
            submission.finished_at = None
            submission.save(update_fields=["status", "verdict", "result", "progress_done", "backend", "tries",
                                           "queued_at", "started_at", "finished_at"])
            enqueue(submission)
        queued += 1
    log.info("rejudge: %d of %d submissions queued", queued, len(ids))
    return queued
