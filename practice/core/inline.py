"""The question families' inline markup: `code` and **bold** inside a sentence, as HTML.

The practice pages (practice/rendering.py) and the printed exams (exams/core/printing/markup.py) both
read it from here, so a family's text looks the same on screen and on paper. Plain Python, no Django.
"""
from __future__ import annotations

import re
from html import escape

_INLINE = re.compile(r"`([^`]+)`|\*\*([^*]+)\*\*")


def inline_html(text: str) -> str:
    """`text` (a sentence of a question block) escaped, with `code` and **bold** as <code> and <strong>.

    Returns a plain str of HTML; callers that hand it to Django templates mark it safe themselves.
    """
    out, pos = [], 0
    for m in _INLINE.finditer(text):
        out.append(escape(text[pos:m.start()]))
        out.append(f"<code>{escape(m.group(1))}</code>" if m.group(1) else f"<strong>{escape(m.group(2))}</strong>")
        pos = m.end()
    out.append(escape(text[pos:]))
    return "".join(out)
