"""The question families' inline markup, as HTML: a sentence of a prompt or a worked solution is
CommonMark inline Markdown (`code`, **bold**, *emphasis*), rendered by markdown-it-py as problem
statements are (problems/markdown.py), raw HTML shown as text.

The practice pages and the exam pages (practice/rendering.py) and the printed exams
(exams/core/printing/markup.py) all read it from here, so a family's text looks the same on screen and
on paper. It used to know only `code` and **bold**: synchronization.classify's "*inside*" reached
students with its asterisks. Formulas belong in MATH blocks, not in sentences: "a*b*c" in a sentence
is read as emphasis. Plain Python, no Django.
"""
from __future__ import annotations

from functools import lru_cache

from markdown_it import MarkdownIt


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})


def inline_html(text: str) -> str:
    """`text` (a sentence of a question block) as escaped HTML with its inline Markdown rendered
    (<code>, <strong>, <em>, links); no enclosing paragraph.

    Returns a plain str of HTML; callers that hand it to Django templates mark it safe themselves.
    """
    return _parser().renderInline(text or "")
