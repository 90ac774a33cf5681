"""The last attempt of an exam kernel item is used only after the student confirms it: in a real browser,
"Cancel" posts nothing and leaves Submit usable; "OK" submits. The question names the unchanged starter."""
from __future__ import annotations

from datetime import timedelta

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.integration]
PASSWORD = "pass-1234-word"


def test_the_last_attempt_asks_first(transactional_db, live_server, browser, monkeypatch, settings):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    from django.contrib.auth.models import User
    from django.utils import timezone

    from exams.actions.attempts import start_attempt
    from exams.actions.scheduling import save_template, schedule_exam
    from grader import actions as grader_actions
    from tests.exams.conftest import TEMPLATE, enrol, make_course
    from tests.packages import tiny_package_files
    from problems.core.package import parse_package
    from problems.services import import_package

    monkeypatch.setattr(grader_actions, "_send", lambda pk, priority=None, exam=False: None)
    import_package(parse_package(tiny_package_files()))
    course = make_course()
    ivy = User.objects.create_user("ivy", "ivy@example.org", PASSWORD)
    alice = User.objects.create_user("alice", "alice@example.org", PASSWORD)
    enrol(ivy, course, "instructor")
    enrol(alice, course, "student")
    template = save_template(course, ivy, dict(
        TEMPLATE, zones=[{"title": "Kernel", "pool": [{"kernel": "tiny-add", "attempts": 1}]}]))
    now = timezone.now()
    exam = schedule_exam(course, template, opens_at=now - timedelta(minutes=5),
                         closes_at=now + timedelta(hours=1), duration_minutes=30)
    item = start_attempt(exam, alice).items.get(kind="kernel")

    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "alice")
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    page.goto(f"{live_server.url}/exams/{exam.pk}/attempt/kernel/{item.number}/")
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
