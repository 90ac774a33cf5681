"""A student removed from the course while the attempt page is open, in a real browser: the page's next
save, or its clock poll, is answered "removed" (409), and the page takes the path of a close at the
deadline: the clock stops, nothing is retried, the fields are locked and the removal's sentence shows,
not "NOT SAVED ... check your connection (HTTP 404)"; then the exam's page says why the attempt ended."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.integration]

SENTENCE = "Your attempt was closed when you were removed from the course"


def _remove_alice(exam):
    from django.contrib.auth.models import User

    from courses.actions import remove_member
    from courses.models import Membership

    ivy = User.objects.get(username="ivy")
    membership = Membership.objects.get(course=exam.course, user__username="alice")
    assert remove_member(exam.course, ivy, membership.pk)


def _ends_with_the_removal(page, exam, live_server):
    expect(page.locator("#exam-closed")).to_contain_text(SENTENCE, timeout=10000)
    expect(page.locator("#save-failed")).to_be_hidden()
    stopped = page.locator("#timer").text_content()
    page.wait_for_timeout(1500)
    assert page.locator("#timer").text_content() == stopped  # the clock stopped
    assert page.locator("input[name^='answer-']").first.is_disabled()
    assert "Saving" not in (page.locator("#save-status").text_content() or "")  # not "Saving…" for ever
    # The exam's page follows (read-only), with the attempt's state and the same sentence.
    page.wait_for_url(f"{live_server.url}/exams/{exam.pk}/", timeout=10000)
    expect(page.locator("#attempt-state")).to_have_text("Closed: removed from the course")
    expect(page.locator("#attempt-ended")).to_contain_text(SENTENCE)
    assert page.locator("#not-in-course").count() == 0 and page.locator("#start-form").count() == 0


def test_a_save_after_the_removal_closes_the_page_with_the_reason(started_exam, live_server, browser, log_in):
    from exams.models import ExamItem

    exam, attempt = started_exam({"zones": [{"pool": ["indexing.global_index"]}]})
    page = browser.new_page()
    log_in(page, "alice", next_path=f"/exams/{exam.pk}/attempt/")  # the exam closes the rest of the site
    page.goto(f"{live_server.url}/exams/{exam.pk}/attempt/")
    item = attempt.items.get()
    name = item.data["question"]["fields"][0]["name"]
    saves = []
    page.on("request", lambda r: saves.append(r.url) if "/attempt/save/" in r.url else None)
    _remove_alice(exam)
    page.fill(f"#answer-1-{name}", "4242")
    _ends_with_the_removal(page, exam, live_server)
    assert len(saves) == 1  # refused once, never retried
    assert ExamItem.objects.get(pk=item.pk).answer == {}


def test_the_clock_poll_after_the_removal_closes_the_page_with_the_reason(started_exam, live_server, browser,
                                                                         log_in):
    exam, _attempt = started_exam({"zones": [{"pool": ["indexing.global_index"]}]})
    page = browser.new_page()
    log_in(page, "alice", next_path=f"/exams/{exam.pk}/attempt/")  # the exam closes the rest of the site
    page.clock.install()
    page.goto(f"{live_server.url}/exams/{exam.pk}/attempt/")
    expect(page.locator("#timer")).to_have_text(re.compile(r"0:2\d:\d\d"))
    _remove_alice(exam)
    page.clock.fast_forward("00:31")  # the 30 s poll, with no edit to save
    _ends_with_the_removal(page, exam, live_server)
