"""The last attempt of an exam kernel item is used only after the student confirms it: in a real browser,
"Cancel" posts nothing and leaves Submit usable; "OK" submits. The question names the unchanged starter."""
from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.integration]


def test_the_last_attempt_asks_first(started_exam, live_server, browser, log_in):
    from tests.exams.conftest import TEMPLATE

    one_try = [{"title": "Kernel", "pool": [{"kernel": "tiny-add", "attempts": 1}]}]
    exam, attempt = started_exam(dict(TEMPLATE, zones=one_try))
    item = attempt.items.get(kind="kernel")

    page = browser.new_page(viewport={"width": 1280, "height": 900})
    log_in(page, "alice", next_path=f"/exams/{exam.pk}/attempt/kernel/{item.number}/")
    page.locator("#editor .cm-content").wait_for()
    assert page.locator("#last-attempt").is_visible()

    asked: list[str] = []

    def cancel(dialog):
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", cancel)
    page.click("#submit-button")
    page.wait_for_timeout(500)
    assert asked and "starter code" in asked[0] and "last attempt" in asked[0]
    assert item.submissions.count() == 0 and page.locator("#submit-button").is_enabled()

    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    with page.expect_navigation():
        page.click("#submit-button")
    assert len(asked) == 2 and item.submissions.count() == 1
    assert page.locator("#submit-button").is_disabled()  # 0 of 1 left
