"""An instructor writes a kernel problem in a real browser, validates it through a real worker,
publishes it to a problem set, and the demo student solves it; the dashboard counts that submission.

Chromium (Debian's, driven by Playwright) against pytest-django's live server, with a separate
Celery worker process on the emulator (tests/conftest.py's celery_worker_process).
"""
from __future__ import annotations

import os
import re
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

pytestmark = [pytest.mark.browser, pytest.mark.integration, pytest.mark.slow]

STATEMENT = "Triple every element: $y_i = 3 x_i$ for $0 \\le i < n$."
SOLUTION = """__global__ void scale(const float* x, float* y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i];
}
"""
HARNESS = """import numpy as np


def generate(case, rng):
    n = case["n"]
    return {"x": rng.standard_normal(n, dtype=np.float32), "y": np.zeros(n, np.float32),
            "a": np.float32(3.0), "n": n}


def reference(inputs):
    return {"y": np.float32(3.0) * inputs["x"]}
"""


def _replace(page, host_for: str, text: str) -> None:
    """Replace the content of the CodeMirror editor that mirrors textarea #`host_for`."""
    editor = page.locator(f'.code-editor[data-for="{host_for}"] .cm-content')
    editor.click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(text)


def _login(browser, live_server, username: str, password: str):
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    return page


def test_instructor_writes_validates_and_assigns_a_problem_that_the_student_solves(
        transactional_db, celery_worker_process, live_server, browser, monkeypatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    call_command("seed_demo", stdout=open(os.devnull, "w"))
    from courses.models import Course

    course = Course.objects.get(memberships__user__username="student")
    page = _login(browser, live_server, "instructor", "instructor-demo-pass")
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    # Write: a new problem from the course page.
    page.goto(f"{live_server.url}/courses/{course.code}/")
    page.click("#course-problems")
    page.fill("#new-problem input[name=slug]", "triple-it")
    page.fill("#new-problem input[name=title_en]", "Triple it")
    page.fill("#new-problem input[name=title_ko]", "세 배로")
    page.click("#new-problem button[type=submit]")
    page.wait_for_url(re.compile(r".*/problems/triple-it/$"))
    page.fill("textarea[name=statement_en]", STATEMENT)
    page.locator("#preview-statement_en .katex").first.wait_for(timeout=20_000)  # the live preview typeset the math
    _replace(page, "id_solution", SOLUTION)
    _replace(page, "id_harness", HARNESS)
    page.fill("input[name=message]", "triple instead of 1.5")
    page.click("#save-button")
    page.wait_for_selector("#version-tag")
    assert "2" in page.inner_text("#version-tag")

    # Validate through the real worker; the table fills in live.
    page.click("#validate-button")
    page.wait_for_url(re.compile(r".*/runs/\d+/$"))
    try:
        page.wait_for_selector('#run-table[data-outcome="passed"]', timeout=240_000)
    except Exception:
        raise AssertionError(page.inner_text("#run-table") + "\n" + celery_worker_process.output()[-4000:])
    assert page.locator(".validation-table tr.row-ok").count() == 2
    page.click("#publish-button")
    page.wait_for_selector("#published-badge")

    # Assign it in a problem set, open now.
    page.goto(f"{live_server.url}/courses/{course.code}/sets/")
    now = timezone.localtime()
    page.fill("#new-set input[name=title_en]", "Week 1")
    page.fill("#new-set input[name=opens_at]", (now - timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M"))
    page.fill("#new-set input[name=due_at]", (now + timedelta(days=7)).strftime("%Y-%m-%dT%H:%M"))
    page.click("#new-set button[type=submit]")
    page.wait_for_url(re.compile(r".*/sets/\d+/$"))
    page.select_option("#add-problem select[name=problem]", "triple-it")
    page.click("#add-problem button[type=submit]")
    page.wait_for_selector("#set-items")
    assert errors == []

    # The demo student finds it on the course page and solves it.
    student = _login(browser, live_server, "student", "student-demo-pass")
    student.goto(f"{live_server.url}/courses/{course.code}/")
    student.click("text=Week 1")
    student.click("#set-items >> text=Triple it")
    editor = student.locator("#editor .cm-content")
    editor.wait_for(state="visible")
    editor.click()
    student.keyboard.press("Control+A")
    student.keyboard.press("Delete")
    student.keyboard.insert_text(SOLUTION)
    student.keyboard.press("Control+Enter")
    student.wait_for_url(re.compile(r".*/submissions/\d+/$"))
    verdict = student.locator("#submission-verdict")
    verdict.wait_for(timeout=180_000)
    assert verdict.inner_text().strip() == "Accepted", celery_worker_process.output()[-4000:]

    # The dashboard counts that submission (and not the validation runs).
    page.goto(f"{live_server.url}/courses/{course.code}/problems/dashboard/")
    assert "1 graded submission" in page.inner_text("main")
    student.goto(f"{live_server.url}/courses/{course.code}/sets/")
    student.click("text=Week 1")
    assert student.locator('#set-items tr[data-status="solved"]').count() == 1
    # So does the set's dashboard, found from the sets list: the student's cell is solved.
    page.goto(f"{live_server.url}/courses/{course.code}/sets/")
    page.click("#problem-sets >> text=Dashboard")
    assert page.locator("#set-matrix td.c-solved").count() == 1
    assert page.locator("#set-chart rect.seg-solved").count() == 1
