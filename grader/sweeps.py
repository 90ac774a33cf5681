"""The sweeps: submissions whose message or grader was lost are sent to the queue again.

Part of the one write path of submissions. Beat runs these (grader.tasks); each UPDATE repeats its
condition, so two sweeps never send one row twice, and the message goes after commit (actions.enqueue).
"""
from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from . import live
from .actions import enqueue
from .models import Status, Submission

log = logging.getLogger(__name__)


def requeue_stuck(now=None) -> list[int]:
    """Re-enqueue submissions stuck past WARPDRILL_STUCK_AFTER_S. Returns their ids.

    Stuck means: waiting (QUEUED/RETRYING) since before the deadline, or being graded
    (COMPILING/RUNNING) since before it (counted from started_at: a worker that took it late from
    a long queue is working on it now and must not get a twin). Each goes back to QUEUED with a
    fresh queued_at, so it is sent again at most once per deadline.
    """
    now = now or timezone.now()
    deadline = now - timedelta(seconds=settings.WARPDRILL_STUCK_AFTER_S)
    waiting = Q(status__in=[Status.QUEUED, Status.RETRYING], queued_at__lt=deadline)
    grading = Q(status__in=[Status.COMPILING, Status.RUNNING, Status.CHECKING], started_at__lt=deadline)
    rows = list(Submission.objects.filter(waiting | grading).values_list("pk", "exam_item_id", "queue", "purpose")[:500])
    for pk, exam_item_id, queue, purpose in rows:
        with transaction.atomic():
            # The same condition again, in the UPDATE itself: a worker may have taken it meanwhile.
            updated = Submission.objects.filter(waiting | grading, pk=pk).update(status=Status.QUEUED, queued_at=now)
            if updated:
                live.changed(pk)
                enqueue(Submission(pk=pk, exam_item_id=exam_item_id, queue=queue, purpose=purpose))
    return [pk for pk, *_ in rows]


# A grader beats its heart every EXAM_HEARTBEAT_EVERY_S while it grades a submission, exam or not
# (grader.tasks); one whose heart has not beaten for EXAM_HEARTBEAT_STALE_S lost its worker. Exam
# submissions: Waiting
# ones (a message a dead worker had prefetched: Redis gives it back only after its visibility
# timeout) are sent again only when the exam queue has stalled: nothing started grading for
# EXAM_QUEUED_STALE_S. While the queue moves, a waiting submission is simply waiting, and sending it
# again would only add duplicates to a long queue. A duplicate message is harmless otherwise:
# grading is idempotent and the grading lock keeps a live grader's submission from a second grader.
EXAM_HEARTBEAT_EVERY_S = 2.0
EXAM_HEARTBEAT_STALE_S = 10.0
EXAM_QUEUED_STALE_S = 60.0


def requeue_dead_graders(now=None) -> list[int]:
    """Re-enqueue non-exam submissions whose grader died: COMPILING/RUNNING/CHECKING with a heartbeat
    older than EXAM_HEARTBEAT_STALE_S (every grading task beats, grader.tasks._heartbeat). Returns their ids.

    A worker SIGKILLed mid-grade (or whose filesystem-broker message is lost with it) leaves its row
    RUNNING; without this the student waits WARPDRILL_STUCK_AFTER_S (minutes) for requeue_stuck.
    Waiting rows are left to requeue_stuck: a long practice queue is not a fault. Runs every few
    seconds from both sweeps (the `cpu` and the `exam` queue), one indexed query when nothing is
    stale; the UPDATE repeats the condition, so two sweeps never send one row twice.
    """
    now = now or timezone.now()
    beat_deadline = now - timedelta(seconds=EXAM_HEARTBEAT_STALE_S)
    stale = (Q(exam_item__isnull=True, status__in=[Status.COMPILING, Status.RUNNING, Status.CHECKING])
             & (Q(heartbeat_at__lt=beat_deadline) | Q(heartbeat_at__isnull=True, started_at__lt=beat_deadline)))
    requeued = []
    for pk, queue, purpose in list(Submission.objects.filter(stale).values_list("pk", "queue", "purpose")[:500]):
        with transaction.atomic():
            if Submission.objects.filter(stale, pk=pk).update(status=Status.QUEUED, queued_at=now, heartbeat_at=None):
                enqueue(Submission(pk=pk, exam_item_id=None, queue=queue, purpose=purpose))
                requeued.append(pk)
    if requeued:
        log.warning("re-queued %d submission(s) of dead graders: %s", len(requeued), requeued)
    return requeued


def requeue_stale_exam_submissions(now=None) -> list[int]:
    """Re-enqueue exam submissions whose grader died (COMPILING/RUNNING/CHECKING with a stale
    heartbeat), and waiting ones (QUEUED/RETRYING for EXAM_QUEUED_STALE_S) when the exam queue has
    stalled (nothing started grading for as long). Returns their ids.
    Runs every few seconds (settings.CELERY_BEAT_SCHEDULE); one indexed query when nothing is stale."""
    now = now or timezone.now()
    beat_deadline = now - timedelta(seconds=EXAM_HEARTBEAT_STALE_S)
    grading = (Q(status__in=[Status.COMPILING, Status.RUNNING, Status.CHECKING])
               & (Q(heartbeat_at__lt=beat_deadline) | Q(heartbeat_at__isnull=True, started_at__lt=beat_deadline)))
    quiet_since = now - timedelta(seconds=EXAM_QUEUED_STALE_S)
    stalled = not Submission.objects.filter(exam_item__isnull=False, started_at__gte=quiet_since).exists()
    waiting = Q(status__in=[Status.QUEUED, Status.RETRYING], queued_at__lt=quiet_since)
    stale = Q(exam_item__isnull=False) & ((grading | waiting) if stalled else grading)
    rows = list(Submission.objects.filter(stale).values_list("pk", "exam_item_id")[:500])
    requeued = []
    for pk, exam_item_id in rows:
        with transaction.atomic():
            if Submission.objects.filter(stale, pk=pk).update(status=Status.QUEUED, queued_at=now, heartbeat_at=None):
                live.changed(pk)
                enqueue(Submission(pk=pk, exam_item_id=exam_item_id))
                requeued.append(pk)
    if requeued:
        log.warning("re-queued %d stale exam submission(s): %s", len(requeued), requeued)
    return requeued
