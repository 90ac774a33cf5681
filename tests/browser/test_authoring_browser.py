"""An instructor writes a kernel problem in a real browser (statement with math, harness, solution, a
wrong solution with its declared verdict, a problem.yaml field through the settings form), validates it
through a real worker, publishes it to a problem set, and the demo student solves it; the dashboard
counts that submission. Once in English and once with Korean selected (the language switch in the page
header), for the instructor and the student alike.

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
# The instructor's own wrong solution: the tail guard stops one element early.
SKIPS_LAST = """__global__ void scale(const float* x, float* y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n - 1) y[i] = a * x[i];
}
"""
# What the pages say, per language, where the test reads words (ids and data attributes elsewhere).
WORDS = {
    "en": {"save": "Save as a new version", "run": "Validation of triple-it v3", "accepted": "Accepted",
           "dashboard": "1 graded submission", "declared": "Declared verdict", "title": "Triple it"},
    "ko": {"save": "새 버전으로 저장", "run": "triple-it v3 검증", "accepted": "정답",
           "dashboard": "채점된 제출 1건", "declared": "선언된 판정", "title": "세 배로"},
}


def _replace(page, host_for: str, text: str) -> None:
    """Replace the content of the CodeMirror editor that mirrors textarea #`host_for`."""
    editor = page.locator(f'.code-editor[data-for="{host_for}"] .cm-content')
    editor.click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(text)


def _login(browser, live_server, username: str, password: str, lang: str):
    """A new browser page logged in as `username`, with `lang` chosen in the header's language switch."""
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    if lang != "en":
        page.click(f'.lang-switch button[value="{lang}"]')
        page.wait_for_selector(f'html[lang="{lang}"]')
    return page


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_instructor_writes_validates_and_assigns_a_problem_that_the_student_solves(
        transactional_db, celery_worker_process, live_server, browser, monkeypatch, lang):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    call_command("seed_demo", stdout=open(os.devnull, "w"))
    from courses.models import Course
    from problems.models import Problem

    words = WORDS[lang]
    course = Course.objects.get(memberships__user__username="student")
    page = _login(browser, live_server, "instructor", "instructor-demo-pass", lang)
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
    assert page.inner_text("#save-button").strip() == words["save"]
    page.fill("textarea[name=statement_en]", STATEMENT)
    page.locator("#preview-statement_en .katex").first.wait_for(timeout=20_000)  # the live preview typeset the math
    _replace(page, "id_solution", SOLUTION)
    _replace(page, "id_harness", HARNESS)
    # The skeleton's wrong solution goes; the instructor writes their own, with the verdict it must get.
    page.check("input[name=wrong-0-delete]")
    page.fill("input[name=wrong-1-name]", "skips_last_element")
    page.select_option("select[name=wrong-1-verdict]", "WRONG_ANSWER")
    _replace(page, "wrong-1-source", SKIPS_LAST)
    page.fill("input[name=message]", "triple instead of 1.5; my own wrong solution")
    page.click("#save-button")
    page.wait_for_selector("#version-tag")
    assert "2" in page.inner_text("#version-tag")
    assert page.locator("input[name=wrong-0-name]").input_value() == "skips_last_element"
    assert page.locator("select[name=wrong-0-verdict]").input_value() == "WRONG_ANSWER"

    # One problem.yaml field through the settings form: the sample test's size.
    page.click("#yaml-form-link")
    page.wait_for_selector("#yaml-form")
    sample = page.locator("input[name=test-0-params]")
    assert sample.input_value() == "n=1000"
    sample.fill("n=1500")
    page.fill("#yaml-form input[name=message]", "a larger sample")
    page.click("#save-fields")
    page.wait_for_selector("#yaml-form")
    page.click("#raw-yaml-link")
    page.wait_for_selector("#version-tag")
    assert "3" in page.inner_text("#version-tag")
    package = Problem.objects.get(slug="triple-it").versions.get(number=3).package()
    assert [(t.name, dict(t.params), t.sample) for t in package.tests][0] == ("small", {"n": 1500}, True)
    assert [(w.name, w.verdict.value) for w in package.wrong] == [("skips_last_element.cu", "WRONG_ANSWER")]

    # Validate through the real worker; the table fills in live.
    page.click("#validate-button")
    page.wait_for_url(re.compile(r".*/runs/\d+/$"))
    assert page.inner_text("h1").strip() == words["run"]
    try:
        page.wait_for_selector('#run-table[data-outcome="passed"]', timeout=240_000)
    except Exception:
        raise AssertionError(page.inner_text("#run-table") + "\n" + celery_worker_process.output()[-4000:])
    assert page.locator(".validation-table tr.row-ok").count() == 2
    assert words["declared"] in page.inner_text(".validation-table thead")
    wrong_row = page.locator('.validation-table tr[data-name="wrong/skips_last_element.cu"]')
    assert wrong_row.locator('[data-verdict="WRONG_ANSWER"]').count() == 1
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

    # The demo student finds it on the course page, under its title in their language, and solves it.
    student = _login(browser, live_server, "student", "student-demo-pass", lang)
    student.goto(f"{live_server.url}/courses/{course.code}/")
    student.click("text=Week 1")
    student.click(f"#set-items >> text={words['title']}")
    assert "n = 1500" in student.inner_text("main")  # the sample test as the form set it
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
    assert verdict.inner_text().strip() == words["accepted"], celery_worker_process.output()[-4000:]

    # The dashboard counts that submission (and not the validation runs).
    page.goto(f"{live_server.url}/courses/{course.code}/problems/dashboard/")
    assert words["dashboard"] in page.inner_text("main")
    student.goto(f"{live_server.url}/courses/{course.code}/sets/")
    student.click("text=Week 1")
    assert student.locator('#set-items tr[data-status="solved"]').count() == 1
    assert errors == []
