"""The write maps of a submission: which a viewer may see on its page (grader.core.writemap.svg draws
them), and asking for one after grading and keeping it (the write path: each change locks the row and
saves with `update_fields`; the task is sent after commit).

Access: the judge records the map of one failing test (a sample's when a sample fails). A sample
test's map is shown to everyone who may see the submission, with the expected and obtained values
in its titles. A hidden test's map is shown to staff only: which element a thread writes can depend
on the inputs (a scatter, a histogram), so the picture could spell out hidden inputs, as a hidden
test's diagnostic line could (serializers.public_result drops those for the same reason).
"""
from __future__ import annotations

import logging

from django.db import transaction
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from grader.core.results import JudgeResult
from grader.core.verdicts import Verdict
from grader.core.writemap.store import render_stored

from . import live
from .models import Status, Submission

log = logging.getLogger(__name__)


def visible_writemaps(result: JudgeResult | None, full: bool) -> list[dict]:
    """[{"test", "output", "sample", "svg"}] of the maps the viewer may see, drawn in the active
    language; `full` (staff) sees hidden tests' maps too. A stored map that does not decode is skipped."""
    if result is None:
        return []
    shown = []
    for stored in result.writemaps:
        if not (stored.get("sample") or full):
            continue
        try:
            svg = render_stored(stored, gettext)
        except (ValueError, KeyError, TypeError) as exc:
            log.warning("stored write map not drawn: %s", exc)
            continue
        shown.append({"test": stored.get("test", ""), "output": stored.get("output", ""),
                      "sample": bool(stored.get("sample")), "svg": mark_safe(svg)})  # built escaped (writemap.py)
    return shown


# ---- the write map on request (issue 19) ----

def writemap_requestable(submission: Submission) -> bool:
    """Whether a write map may be asked for: graded, compiled, and none recorded or asked for yet."""
    result = submission.result or {}
    return (submission.status == Status.GRADED and submission.verdict not in ("", Verdict.COMPILE_ERROR.value,
                                                                             Verdict.INTERNAL_ERROR.value)
            and not result.get("writemaps") and not result.get("writemap_requested"))


def request_writemap(submission_id: int) -> bool:
    """Ask the queue to record the write map of a graded submission's smallest sample test
    (grader.tasks.record_writemap, after commit). Returns False when it is not requestable
    (writemap_requestable) or was asked for already: asking twice enqueues once."""
    from grader.tasks import record_writemap

    with transaction.atomic():
        submission = Submission.objects.select_for_update().filter(pk=submission_id).first()
        if submission is None or not writemap_requestable(submission):
            return False
        submission.result = {**submission.result, "writemap_requested": True}
        submission.save(update_fields=["result"])
        transaction.on_commit(lambda: record_writemap.delay(submission_id))
    live.changed(submission_id)
    return True


def store_writemaps(submission_id: int, maps: list[dict]) -> None:
    """Keep the write maps a request recorded (grader.core.writemap.store.encode's dicts) in the result."""
    with transaction.atomic():
        submission = Submission.objects.select_for_update().filter(pk=submission_id).first()
        if submission is None or not submission.result:
            return
        result = {k: v for k, v in submission.result.items() if k != "writemap_requested"}
        if maps:
            result["writemaps"] = maps
        else:
            result["writemap_unavailable"] = True
        submission.result = result
        submission.save(update_fields=["result"])
    live.changed(submission_id)
