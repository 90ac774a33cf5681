"""CodeMirror's own words (the fold markers' tooltips) follow the page's language: a Korean exam kernel
page showed "Fold line" in English (static/src/phrases.js)."""
from __future__ import annotations

import pytest

from .test_exam_session_browser import exam_for_alice  # noqa: F401  (the fixture; log_in is tests/browser/conftest.py's)

pytestmark = [pytest.mark.browser, pytest.mark.integration]


@pytest.mark.parametrize("locale, titles", [("ko-KR", {"줄 접기", "줄 펼치기"}), ("en-US", {"Fold line", "Unfold line"})])
def test_the_fold_marker_tooltip_is_in_the_pages_language(exam_for_alice, live_server, browser, log_in, locale, titles):  # noqa: F811
    """The fold markers are titled "줄 접기"/"줄 펼치기" on a Korean page, "Fold line"/"Unfold line" on an English one."""
    exam, attempt = exam_for_alice
    item = attempt.items.get(kind="kernel")
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale=locale)
    page = context.new_page()
    log_in(page, "alice", next_path=f"/exams/{exam.pk}/attempt/kernel/{item.number}/")
    marker = page.locator(".cm-foldGutter span[title]").first
    marker.wait_for(state="attached", timeout=10000)  # drawn hidden until the pointer is over the gutter
    assert page.evaluate("document.documentElement.lang") == locale[:2]
    shown = set(page.locator(".cm-foldGutter span[title]").evaluate_all("(els) => els.map((e) => e.title)"))
    assert shown and shown <= titles, shown
    context.close()
