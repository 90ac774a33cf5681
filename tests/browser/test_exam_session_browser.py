"""The exam page when the session changes under it, in a real browser: logged out in another tab, a save
says so and keeps the answer; logged in again there (a new CSRF token), the retry saves it and the exam
stays open. A kernel submitted right after typing leaves the page with no "Leave site?" dialog. A save
that cannot reach the server says NOT SAVED and is retried."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.integration]


@pytest.fixture
def exam_for_alice(started_exam):
    """An open exam of one question zone and one kernel (3 attempts); alice's attempt started."""
    return started_exam()


def test_logging_out_and_in_again_in_another_tab_keeps_the_exam_open(exam_for_alice, live_server, browser, log_in):
    exam, attempt = exam_for_alice
    base = live_server.url
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    log_in(page, "alice", next_path=f"/exams/{exam.pk}/attempt/")  # the exam closes the rest of the site
    item = attempt.items.filter(kind="question").order_by("number").first()
    field = next(f for f in item.data["question"]["fields"] if f["kind"] != "choice")["name"]
    box = f"#answer-{item.number}-{field}"

    other = context.new_page()
    other.goto(f"{base}/")
    with other.expect_navigation():
        other.click(".logout-form button")
    page.fill(box, "1234")
    expect(page.locator("#save-failed")).to_contain_text("You are logged out", timeout=10000)
    assert page.locator(box).is_enabled() and page.locator("#exam-closed").is_hidden()

    # A new session and a new CSRF token; the page still holds the old one. (The site sends alice to her attempt.)
    log_in(other, "alice", next_path=f"/exams/{exam.pk}/attempt/")
    expect(page.locator("#save-status")).to_contain_text("Saved at", timeout=20000)
    assert page.locator(box).is_enabled() and page.locator("#exam-closed").is_hidden()
    item.refresh_from_db()
    assert item.answer[field] == "1234"
    page.fill(box, "5678")  # and the next edit is saved at once, with the renewed token
    expect(page.locator("#save-status")).to_have_class("save-status save-ok", timeout=10000)
    item.refresh_from_db()
    assert item.answer[field] == "5678"
    attempt.refresh_from_db()
    assert attempt.state == "open"
    context.close()


def test_submitting_a_kernel_right_after_typing_asks_nothing(exam_for_alice, live_server, browser, log_in):
    exam, attempt = exam_for_alice
    kernel = attempt.items.get(kind="kernel")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    log_in(page, "alice", next_path=f"/exams/{exam.pk}/attempt/kernel/{kernel.number}/")
    page.locator("#editor .cm-content").click()
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.type), dialog.dismiss()))
    page.keyboard.type("// my kernel\n")
    # The page's change watcher marks the kernel unsaved; submit within the autosave's debounce.
    expect(page.locator("#save-status")).to_contain_text("Unsaved", timeout=3000)
    with page.expect_navigation():
        page.click("#submit-button")
    assert dialogs == [] and kernel.submissions.count() == 1
    assert "// my kernel" in kernel.submissions.get().source


def test_a_log_in_as_another_user_and_a_lost_connection_say_so_and_times_read_as_on_every_page(exam_for_alice, live_server,
                                                                                     browser, log_in):
    """Logged in as bob in another tab, alice's page says to log in again as alice (not "check your
    connection (HTTP 404)") and keeps the field; offline it says "(no connection)", not the browser's
    "Failed to fetch"; the saved time is written as every page writes it, "2026-12-05 20:08 KST", even in
    an en-US browser (not "4:12:27 PM", nor "20:08:05", nor Intl's "GMT+9"), and after a reload too."""
    from zoneinfo import ZoneInfo

    from accounts.core.times import format_when
    from django.contrib.auth.models import User

    User.objects.create_user("bob", "bob@example.org", PASSWORD)
    exam, attempt = exam_for_alice
    base = live_server.url
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US", timezone_id="Asia/Seoul")
    page = context.new_page()
    log_in(page, "alice", next_path=f"/exams/{exam.pk}/attempt/")
    item = attempt.items.filter(kind="question").order_by("number").first()
    field = next(f for f in item.data["question"]["fields"] if f["kind"] != "choice")["name"]
    box = f"#answer-{item.number}-{field}"
    page.fill(box, "11")
    expect(page.locator("#save-status")).to_have_text(re.compile(r"^Saved at \d{4}-\d\d-\d\d \d\d:\d\d KST$"),
                                                      timeout=10000)
    attempt.refresh_from_db()
    saved = f"Saved at {format_when(attempt.last_saved_at, ZoneInfo('Asia/Seoul'))}"
    assert page.inner_text("#save-status") == saved  # the script writes what the server would
    page.reload()
    assert page.inner_text("#save-status") == saved

    other = context.new_page()
    other.goto(f"{base}/")
    with other.expect_navigation():
        other.click(".logout-form button")
    log_in(other, "bob")
    page.fill(box, "22")
    expect(page.locator("#save-failed")).to_contain_text("log in again as alice", timeout=10000)
    assert page.locator(box).is_enabled() and page.locator("#exam-closed").is_hidden()

    context.set_offline(True)
    page.fill(box, "33")
    expect(page.locator("#save-failed")).to_contain_text("(no connection)", timeout=20000)
    assert "Failed to fetch" not in page.locator("#save-failed").inner_text()
    context.close()


def test_failed_autosave_warns_loudly_and_retries(started_exam, live_server, browser, log_in):
    """When the server cannot be reached, the page says NOT SAVED in a red alert and keeps the answer
    dirty; once the network is back, the retry saves it and the alert goes away."""
    from exams.models import ExamItem

    exam, attempt = started_exam({"zones": [{"pool": ["indexing.global_index"]}]})
    page = browser.new_page()
    log_in(page, "alice", next_path=f"/exams/{exam.pk}/attempt/")
    item = attempt.items.get()
    name = item.data["question"]["fields"][0]["name"]
    saves = re.compile(r"/attempt/save/")  # the page's save URL carries its signature as a query
    page.route(saves, lambda route: route.abort())
    page.fill(f"#answer-1-{name}", "4242")
    expect(page.locator("#save-failed")).to_be_visible(timeout=10000)
    expect(page.locator("#save-status")).to_have_text("NOT SAVED")
    assert ExamItem.objects.get(pk=item.pk).answer == {}
    page.unroute(saves)
    expect(page.locator("#save-failed")).to_be_hidden(timeout=20000)
    expect(page.locator("#save-status")).to_contain_text("Saved at")
    assert ExamItem.objects.get(pk=item.pk).answer == {name: "4242"}
