"""Exam mode in a real browser: signed in during an attempt, the student lands on the attempt whatever page
they asked for, the menu offers only the exam, a typed address of a closed page comes back to the attempt
with the message, and once the attempt is submitted the site's menu and pages are back."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser]


def test_the_site_is_closed_until_the_attempt_ends(started_exam, live_server, browser):
    from exams.actions.attempts import submit_attempt

    from .conftest import PASSWORD

    exam, attempt = started_exam()
    attempt_path = f"/exams/{exam.pk}/attempt/"
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{live_server.url}/accounts/login/?next=/practice/occupancy/")  # signing in for the calculator ...
    page.fill("input[name=username]", "alice")
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{live_server.url}{attempt_path}")  # ... lands on the attempt
    nav = page.locator(".site-nav")
    expect(nav.locator("#nav-exam")).to_have_text("Midterm")
    assert nav.get_by_role("link", name="Occupancy calculator").count() == 0
    assert nav.get_by_role("link", name="Playground").count() == 0

    page.goto(f"{live_server.url}/playground/")
    page.wait_for_url(f"{live_server.url}{attempt_path}")
    expect(page.locator(".messages")).to_contain_text("The rest of the site is closed while your exam is in progress.")

    submit_attempt(attempt.pk, attempt.user)
    page.goto(f"{live_server.url}/practice/occupancy/")
    expect(page.locator("h1")).to_contain_text("Occupancy")
    assert nav.locator("#nav-exam").count() == 0
    expect(nav.get_by_role("link", name="Playground")).to_be_visible()
