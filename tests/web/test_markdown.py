"""Statements: Markdown with math for KaTeX, tables, code fences; no raw HTML; cached per version/language."""
import pytest

from problems.markdown import render_markdown, render_statement


def test_inline_and_display_math_are_marked_for_katex():
    """$...$ and $$...$$ become escaped TeX between KaTeX auto-render delimiters."""
    html = render_markdown("Let $a < b$.\n\n$$\\lceil n/256 \\rceil$$\n")
    assert '<span class="math inline">\\(a &lt; b\\)</span>' in html
    assert '<div class="math block">\n\\[\\lceil n/256 \\rceil\\]\n</div>' in html


def test_tables_and_code_fences_with_language():
    """Tables are rendered; a ```cuda fence gets class language-cuda."""
    html = render_markdown("| a | b |\n|---|---|\n| 1 | 2 |\n\n```cuda\n__global__ void k();\n```\n")
    assert "<table>" in html and "<td>1</td>" in html
    assert '<pre><code class="language-cuda">__global__ void k();' in html


def test_raw_html_is_escaped():
    """Raw HTML in a statement is shown as text, never passed through."""
    html = render_markdown('<script>alert(1)</script>\n\n<img src=x onerror="alert(2)">')
    assert "<script>" not in html and "<img" not in html
    assert "&lt;script&gt;" in html


@pytest.mark.django_db
def test_statement_language_and_cache(problem, django_assert_num_queries):
    """Korean falls back to English when missing; the rendering is cached per (version, language)."""
    version = problem.current_version
    assert "두 벡터를" in render_statement(version, "ko")
    assert "Add two vectors" in render_statement(version, "en")
    assert "Add two vectors" in render_statement(version, "fr")
    from django.core.cache import cache

    keys = [k for k in cache._cache if "statement:" in str(k)]  # LocMemCache
    assert len(keys) == 2
