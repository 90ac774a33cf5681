"""Problem statements: Markdown with math rendered to HTML that KaTeX typesets in the browser.

CommonMark plus tables, `$...$` and `$$...$$` math (mdit-py-plugins' dollarmath), fenced code
with a `language-*` class. Raw HTML in a package is shown as text, never passed through: a
statement is instructor content, but it must not be able to run script in a student's page.

Math is emitted as escaped TeX between `\\(...\\)` / `\\[...\\]` delimiters inside
`span.math` / `div.math` elements; KaTeX's auto-render typesets them (and without JavaScript
the reader still sees the TeX source).
"""
from __future__ import annotations

from functools import lru_cache

from django.core.cache import cache
from django.utils.safestring import SafeString, mark_safe
from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from mdit_py_plugins.dollarmath import dollarmath_plugin

from .services import version_package

# Bump when the renderer's output changes, so cached HTML of older renderings is ignored.
RENDERER_VERSION = 1
CACHE_TIMEOUT_S = 24 * 3600


def _math(content: str, options: dict) -> str:
    """TeX source, escaped, between KaTeX auto-render delimiters."""
    if options.get("display_mode"):
        return f"\\[{escapeHtml(content)}\\]"
    return f"\\({escapeHtml(content)}\\)"


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable("table")
    md.use(dollarmath_plugin, double_inline=True, allow_labels=False, renderer=_math)
    return md


def render_markdown(text: str) -> SafeString:
    """Render Markdown to safe HTML (raw HTML escaped, math marked for KaTeX)."""
    return mark_safe(_parser().render(text or ""))


def render_statement(version, language: str, variant: dict | None = None) -> SafeString:
    """The statement of a ProblemVersion in `language` ("ko" falls back to English), as HTML; for a
    package with variant parameters, the statement of `variant` (None: the default variant).

    Cached per (version, language, variant): versions are immutable, so the key never goes stale.
    """
    package = version_package(version).with_variant(variant or None)
    statements = package.statement
    lang = "ko" if (language or "").startswith("ko") and "ko" in statements else "en"
    chosen = ",".join(f"{k}={v}" for k, v in sorted(package.variant.items()))
    key = f"statement:v{RENDERER_VERSION}:{version.pk}:{version.content_hash[:16]}:{lang}:{chosen}"
    html = cache.get(key)
    if html is None:
        html = str(render_markdown(statements[lang]))
        cache.set(key, html, CACHE_TIMEOUT_S)
    return mark_safe(html)
