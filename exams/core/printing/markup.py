"""HTML for printed content: question blocks, answer fields, Markdown statements with math.

Math is typeset in one batch per document: while HTML is built, each formula becomes a slot
(`MathSlots.slot`), and `MathSlots.fill(html)` replaces every slot with KaTeX's HTML. Everything else
is escaped here; Markdown raw HTML is shown as text (as on the site), so a statement cannot inject
markup into a PDF. Plain Python, no Django.
"""
from __future__ import annotations

import re
import secrets
import threading
from functools import lru_cache
from html import escape

from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin

from practice.core.inline import inline_html

from .katex import Formula, KatexRenderer


class MathSlots:
    """Formulas of one document, typeset together. A slot is an ASCII token with a per-document nonce,
    so text that happens to look like one is never replaced."""

    def __init__(self, renderer: KatexRenderer):
        self.renderer = renderer
        self.formulas: list[Formula] = []
        self.nonce = secrets.token_hex(6)
        self._pattern = re.compile(rf"@@math-{self.nonce}-(\d+)@@")

    def slot(self, tex: str, display: bool) -> str:
        self.formulas.append(Formula(tex.strip(), display))
        return f"@@math-{self.nonce}-{len(self.formulas) - 1}@@"

    def fill(self, html: str) -> str:
        """`html` with every slot replaced by its typeset formula (display ones in a div.math-display)."""
        typeset = self.renderer.render(self.formulas)

        def replace(match: re.Match) -> str:
            formula = self.formulas[int(match.group(1))]
            html_ = typeset[formula]
            return f'<div class="math-display">{html_}</div>' if formula.display else html_

        return self._pattern.sub(replace, html)


def blocks_html(blocks: list[dict]) -> str:
    """Rendered question blocks ({"kind": p | code | math | list, "text" or "items"}) as HTML.

    A `math` block of a family is a Unicode formula line ("⌈41 × 32 / 256⌉ × 256 = 1536"), set in
    KaTeX's main font with fallbacks, not TeX."""
    out = []
    for b in blocks:
        kind = b.get("kind")
        if kind == "p":
            out.append(f"<p>{inline_html(b['text'])}</p>")
        elif kind == "code":
            out.append(f'<pre class="code"><code>{escape(b["text"])}</code></pre>')
        elif kind == "math":
            out.append(f'<div class="formula">{escape(b["text"])}</div>')
        elif kind == "list":
            out.append("<ul>" + "".join(f"<li>{inline_html(i)}</li>" for i in b["items"]) + "</ul>")
        elif kind == "writemap":
            continue  # the write-map picture is for the screen; the formula lines before it give the answer
        else:  # a kind this printer does not know yet: its text, escaped, is better than nothing
            out.append(f"<p>{escape(str(b.get('text', '')))}</p>")
    return "\n".join(out)


@lru_cache(maxsize=1)
def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable("table")
    md.use(dollarmath_plugin, double_inline=True, allow_labels=False,
           renderer=lambda content, options: _CURRENT.stack[-1].slot(content, bool(options.get("display_mode"))))
    return md


# The slots of the Markdown being rendered, per thread: markdown-it's math renderer takes no context.
_CURRENT = threading.local()


def markdown_html(text: str, slots: MathSlots) -> str:
    """A statement's Markdown as HTML; its $...$ and $$...$$ become slots of `slots`. Raw HTML is escaped."""
    stack = _CURRENT.__dict__.setdefault("stack", [])
    stack.append(slots)
    try:
        return _markdown().render(text or "")
    finally:
        stack.pop()
