"""What the page tests check of the times a page shows: every clock time a person reads is written in
the one format, "2026-12-05 20:08 KST" (accounts/core/times.py), never "20:08:05 KST" nor
"2026-12-05 20:08:05". Attributes (<time datetime="…">, data-*) and scripts are machine-readable ISO
8601 and are not read."""
from __future__ import annotations

import html as html_lib
import re

STAMP = re.compile(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2} (?:[A-Z]{2,5}|UTC[+-]\d{2}(?::\d{2})?)")
CLOCK = re.compile(r"(?<![\d:.])\d{1,2}:\d{2}(?::\d{2})?(?![\d:])")  # not "kernel.cu:12:34"


def visible_text(page: str) -> str:
    """The page's text as a reader sees it: scripts, styles and tags (with their attributes) removed."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S | re.I)
    return html_lib.unescape(re.sub(r"<[^>]+>", " ", page))


def stamps(page: str) -> list[str]:
    """The times the page shows, each checked to be in the one format (AssertionError naming the first
    clock time that is not: time-only, with seconds, or without its zone)."""
    text = visible_text(page)
    found = [m.group(0) for m in STAMP.finditer(text)]
    rest = STAMP.sub(" ", text)
    stray = CLOCK.search(rest)
    assert stray is None, f"a time not in the one format: …{rest[max(0, stray.start() - 60):stray.end() + 20]}…"
    return found
