"""Turning a generated question's blocks into safe HTML pieces for templates: practice pages and exams show them alike."""
from __future__ import annotations

import json

from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext

from practice.core.inline import inline_html as core_inline_html


def lang() -> str:
    """The language generated content is shown in: Korean or English."""
    return "ko" if (get_language() or "en").startswith("ko") else "en"


def inline_html(text: str) -> str:
    """Escape a sentence and turn `code` and **bold** into markup (safe for templates)."""
    return mark_safe(core_inline_html(text))


def writemap_svg(spec: str) -> str:
    """The SVG of a writemap block (practice.core.questions.base.writemap's JSON), in the active language."""
    from grader.core.writemap.model import launch_map
    from grader.core.writemap.svg import render_svg  # the renderer of submissions' write maps

    d = json.loads(spec)
    wm = launch_map(tuple(d["grid"]), tuple(d["block"]), tuple(d["shape"]), tuple(d["origin"]),
                    name="out" if len(d["shape"]) == 1 else "img")
    return mark_safe(render_svg(wm, translate=gettext, highlight=d["highlight"], origin=tuple(d["origin"])))


def blocks_html(blocks: list[dict]) -> list[dict]:
    """Blocks with paragraph and list text as safe inline HTML (code stays plain text)."""
    out = []
    for b in blocks:
        b = dict(b)
        if b["kind"] == "p":
            b["html"] = inline_html(b["text"])
        elif b["kind"] == "list":
            b["items_html"] = [inline_html(item) for item in b["items"]]
        elif b["kind"] == "code":
            b["line_numbers"] = "\n".join(str(i) for i in range(1, b["text"].count("\n") + 2))
        elif b["kind"] == "writemap":
            b["svg"] = writemap_svg(b["text"])
        out.append(b)
    return out
