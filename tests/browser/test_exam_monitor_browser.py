"""The live monitor updates itself in a real browser: a student's autosave and submit show in their row
and in the counts within a poll (5 s), without a reload."""
from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.integration]


def test_the_monitor_follows_a_student_without_a_reload(started_exam, live_server, browser, log_in):
    from exams.actions.attempts import save_answers, submit_attempt
    from tests.exams.conftest import right_answers

    exam, attempt = started_exam()
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    log_in(page, "ivy")
    page.goto(f"{live_server.url}/exams/{exam.pk}/monitor/")
    row = page.locator('tr[data-student="alice"]')
    assert row.locator("td.answered").inner_text() == "0 / 3"
    assert page.locator('[data-count="in_progress"] strong').inner_text() == "1"

    question = attempt.items.filter(kind="question").first()
    save_answers(attempt.pk, attempt.user, {question.key: right_answers(question)})
    page.wait_for_function(
        "() => document.querySelector('tr[data-student=\"alice\"] td.answered').textContent.trim() === '1 / 3'",
        timeout=12000)
    assert "s ago" in row.locator("td.saved").inner_text()

    submit_attempt(attempt.pk, attempt.user)
    page.wait_for_function(
        "() => document.querySelector('[data-count=\"submitted\"] strong').textContent.trim() === '1'", timeout=12000)
    assert page.locator('tr[data-student="alice"]').get_attribute("data-phase") == "submitted"
    assert page.locator('[data-count="in_progress"] strong').inner_text() == "0"
