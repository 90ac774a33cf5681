"""The write maps a viewer may see on a submission's page (grader.core.writemap.svg draws them).

Access: the judge records the map of one failing test (a sample's when a sample fails). A sample
test's map is shown to everyone who may see the submission, with the expected and obtained values
in its titles. A hidden test's map is shown to staff only: which element a thread writes can depend
on the inputs (a scatter, a histogram), so the picture could spell out hidden inputs, as a hidden
test's diagnostic line could (serializers.public_result drops those for the same reason).
"""
from __future__ import annotations

import logging

from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from grader.core.results import JudgeResult
from grader.core.writemap.store import render_stored

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
