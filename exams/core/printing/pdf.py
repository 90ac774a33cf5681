"""HTML documents to one PDF with WeasyPrint, and the whole path: forms -> HTML -> PDF bytes.

Each form is its own WeasyPrint document (so "page n of m" and the margin boxes are the form's),
and the documents' pages are written into one PDF. Stylesheets are parsed once per process and
reused with one FontConfiguration, which keeps a 26-form set to one CSS parse and one font load.
Plain Python, no Django.
"""
from __future__ import annotations

import re
import threading
from functools import lru_cache

from .katex import KatexRenderer
from .markup import MathSlots
from .sheet import BASE_CSS, ExamHeader, KernelText, Part, PrintForm, form_html

_LOCK = threading.Lock()  # WeasyPrint's font configuration is not documented as thread-safe


# Declarations of KaTeX's screen CSS that WeasyPrint does not implement: SVG painting (its SVGs are
# painted from their attributes), text-rendering, clip-path (the hidden MathML copy) and min-content
# widths. WeasyPrint ignores them anyway, with one log warning each (17 per worker process in the
# worker log); removing them first changes nothing on the page and keeps the log for real problems.
_UNSUPPORTED = re.compile(r"(?<=[{;])\s*(?:(?:fill|stroke)(?:-[a-z]+)*|text-rendering|clip-path"
                          r"|width(?=\s*:\s*(?:-[a-z]+-)?min-content))\s*:[^;}]*;?")


def printable_css(css: str) -> str:
    """`css` without the declarations WeasyPrint ignores with a warning (_UNSUPPORTED); the rest as it is."""
    return _UNSUPPORTED.sub("", css)


@lru_cache(maxsize=4)
def _stylesheets(katex_css: str):
    from weasyprint import CSS
    from weasyprint.text.fonts import FontConfiguration

    fonts = FontConfiguration()
    return fonts, [CSS(string=printable_css(katex_css), font_config=fonts), CSS(string=BASE_CSS, font_config=fonts)]


def render(documents: list[str], katex_css: str) -> list:
    """Each HTML document laid out in pages (a weasyprint Document each), with the print stylesheets."""
    from weasyprint import HTML

    with _LOCK:
        fonts, css = _stylesheets(katex_css)
        return [HTML(string=doc).render(stylesheets=css, font_config=fonts) for doc in documents]


def write_pdf(documents: list[str], katex_css: str) -> bytes:
    """One PDF of the HTML `documents` in order (each a whole HTML document). Raises ValueError when empty."""
    if not documents:
        raise ValueError("no documents to print")
    rendered = render(documents, katex_css)
    pages = [page for doc in rendered for page in doc.pages]
    with _LOCK:
        return rendered[0].copy(pages).write_pdf()


def forms_html(header: ExamHeader, forms: list[PrintForm], lang: str, part: Part, renderer: KatexRenderer,
               kernel_text: KernelText | None = None) -> list[str]:
    """Each form as a finished HTML document, its math typeset (one KaTeX batch for all forms)."""
    slots = MathSlots(renderer)
    documents = [form_html(header, form, lang, part, slots, kernel_text) for form in forms]
    return [slots.fill(doc) for doc in documents]


def print_forms(header: ExamHeader, forms: list[PrintForm], lang: str, part: Part,
                renderer: KatexRenderer | None = None, kernel_text: KernelText | None = None) -> bytes:
    """PDF bytes of `forms` in `lang` ("en" | "ko"): their question sheets, or their answer keys with
    worked solutions (`part`). A4, each form's pages numbered from 1, the form id on every page.

    Raises MathRenderError when KaTeX cannot run, ValueError for no forms.
    """
    renderer = renderer or KatexRenderer()
    return write_pdf(forms_html(header, forms, lang, part, renderer, kernel_text), renderer.stylesheet())
