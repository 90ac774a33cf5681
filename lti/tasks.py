"""Celery tasks of the LTI integration: send a link's scores, and send released exams' scores."""
from __future__ import annotations

import logging

from celery import shared_task

log = logging.getLogger(__name__)


@shared_task
def sync_link_grades(link_id: int) -> int:
    """Send one resource link's scores; returns how many were sent (0 when it failed: logged, and
    recorded on the link for its instructors)."""
    from .grades import SyncError, sync_link
    from .models import ResourceLink

    link = ResourceLink.objects.select_related("platform", "course", "exam", "problem_set").filter(pk=link_id).first()
    if link is None:
        return 0
    try:
        return sync_link(link).sent
    except SyncError as exc:
        log.warning("LTI grade sync of link %s failed: %s", link_id, exc)
        return 0


@shared_task
def sync_released_exams() -> int:
    """Every exam link whose results were released since its last sending and are shown to students (not
    held while an attempt runs or a student may still start): send its scores (beat runs this every
    WARPDRILL_LTI_SYNC_EVERY_S). Returns the number of links sent."""
    from .grades import SyncError, links_due_for_release, sync_link

    from exams.release import release_state

    done = 0
    for link in links_due_for_release():
        if not link.graded or release_state(link.exam).held:  # held: due again at a later sweep
            continue
        try:
            sync_link(link)
            done += 1
        except SyncError as exc:
            log.warning("LTI grade sync of link %s failed: %s", link.pk, exc)
    return done
