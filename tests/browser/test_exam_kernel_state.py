"""The kernel question's Submit row follows its verdicts without a reload: in a real browser, the row's
live poll gets the verdict and the page fetches its Submit row again, which then says solved with
Submit disabled (an ACCEPTED item takes no more submissions), or gives back the attempt of a
submission that did not compile."""
from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.integration]


def finish(submission, verdict):
    from grader import grading as grader_grading
    from grader.core.results import CompileMessage, CompileResult, JudgeResult
    from grader.core.verdicts import Verdict

    grader_grading.start_grading(submission.pk, "emulator")
    compiled = CompileResult(ok=False, messages=[CompileMessage(2, 5, "error", "expected a ';'")]) \
        if verdict == "COMPILE_ERROR" else None
    grader_grading.finish_grading(submission.pk, JudgeResult(verdict=Verdict(verdict), compile=compiled))


def test_the_submit_row_follows_the_verdicts(started_exam, live_server, browser, log_in):
    from exams.actions.attempts import submit_kernel
    from tests.exams.conftest import TEMPLATE

    one_try = [{"title": "Kernel", "pool": [{"kernel": "tiny-add", "attempts": 1}]}]
    exam, attempt = started_exam(dict(TEMPLATE, zones=one_try))
    item = attempt.items.get(kind="kernel")
    broken = submit_kernel(item, attempt.user, "__global__ void add(const float* a) { int i = 0 }\n")

    page = browser.new_page(viewport={"width": 1280, "height": 900})
    log_in(page, "alice", next_path=f"/exams/{exam.pk}/attempt/kernel/{item.number}/")
    page.locator("#editor .cm-content").wait_for()
    assert page.locator("#submit-button").is_disabled()  # the one attempt is held while it is graded

    finish(broken, "COMPILE_ERROR")
    page.locator("#exam-sub-%d .exam-compile" % broken.pk).wait_for()
    page.wait_for_function("() => !document.getElementById('submit-button').disabled")
    assert page.locator("#kernel-state").get_attribute("data-attempts-left") == "1"
    assert page.locator("#last-attempt").is_visible()

    good = submit_kernel(item, attempt.user, "__global__ void add(const float* a) { }\n")
    page.reload()
    page.locator("#editor .cm-content").wait_for()
    finish(good, "ACCEPTED")
    page.locator("#item-solved").wait_for()
    assert "Solved: attempt 1 was accepted." in page.locator("#item-solved").inner_text()
    assert page.locator("#submit-button").is_disabled() and page.locator("#last-attempt").count() == 0
