"""The exam regrade page in Chromium: the instructor re-judges the kernel submissions after a package fix,
the page follows the copies live (htmx, no reload) from "0 of 1 re-judged" to the diff, and Apply changes
the score. Grading messages are dropped: the test grades the copy as the worker would."""
from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_regrade_page_follows_the_rejudging_live_then_applies(browser, live_server, log_in, started_exam, tmp_path):
    from exams.actions.attempts import submit_attempt, submit_kernel
    from exams.models import KernelRegrade
    from grader import grading as grader_grading
    from grader.core.results import JudgeResult
    from grader.core.results import TestResult as CaseResult
    from grader.core.verdicts import Verdict
    from problems.core.package import parse_package
    from problems.services import import_package
    from tests.packages import HARNESS, SOLUTION, tiny_package_files

    def tests(passed):
        return [CaseResult(name=f"t{i}", sample=False, verdict=Verdict.ACCEPTED if i < passed else Verdict.WRONG_ANSWER)
                for i in range(2)]

    exam, attempt = started_exam()
    sub = submit_kernel(attempt.items.get(kind="kernel"), attempt.user, SOLUTION)
    grader_grading.finish_grading(sub.pk, JudgeResult(verdict=Verdict.WRONG_ANSWER, tests=tests(0)))
    submit_attempt(attempt.pk, attempt.user)
    import_package(parse_package(tiny_package_files(**{"harness.py": "# v2\n" + HARNESS})))

    page = browser.new_page(viewport={"width": 1200, "height": 900})
    log_in(page, "ivy", next_path=f"/exams/{exam.pk}/regrade/")
    page.click("#start-rejudge")
    page.wait_for_selector('#regrade-body[data-running="1"]')
    assert "0 of 1 submission re-judged" in page.inner_text("#rejudge-progress")
    assert page.is_disabled("#apply-regrade")
    page.screenshot(path=str(tmp_path / "running.png"), full_page=True)

    copy = KernelRegrade.objects.get().items.get().copy
    grader_grading.finish_grading(copy.pk, JudgeResult(verdict=Verdict.ACCEPTED, tests=tests(2)))
    page.wait_for_selector('#regrade-body[data-running="0"]', timeout=15000)  # the poll swapped the body in
    row = page.inner_text('tr[data-student="alice"]')
    assert "Wrong answer" in row and "Accepted" in row and "0 → 10" in row
    page.screenshot(path=str(tmp_path / "finished.png"), full_page=True)
    page.click("#apply-regrade")
    page.wait_for_url(f"{live_server.url}/exams/{exam.pk}/results/")
    assert "10 / " in page.inner_text('tr[data-student="alice"] .score-cell')
    page.close()
