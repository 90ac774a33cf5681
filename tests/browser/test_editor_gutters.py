"""The problem editor's CodeMirror editors in a real browser draw each line number beside the line it
numbers. CodeMirror measures an editor only while it is inside the window and, until then, lays the
gutter out at an estimated 14 px a line; the code fields of a fresh problem editor open below the
window, so their numbers ran 14 px apart beside 22.4 px lines ("12" beside line 8) until scrolled to."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.core.management import call_command

pytestmark = [pytest.mark.browser, pytest.mark.integration]

ROOT = Path(__file__).resolve().parents[2]

# For every line number of the editor, how far (px) its top lies from the top of the line it numbers.
OFFSETS = """(host) => {
  const editor = document.querySelector(`.code-editor[data-for="${host}"]`);
  const lines = [...editor.querySelectorAll(".cm-content .cm-line")].map((l) => l.getBoundingClientRect().top);
  const numbers = [...editor.querySelectorAll(".cm-lineNumbers .cm-gutterElement")]
    .filter((g) => g.textContent.trim() !== "" && g.style.visibility !== "hidden")
    .map((g) => [Number(g.textContent), g.getBoundingClientRect().top]);
  return numbers.filter(([n]) => n <= lines.length).map(([n, top]) => Math.abs(top - lines[n - 1]));
}"""


def _login(browser, live_server):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "instructor")
    page.fill("input[name=password]", "instructor-demo-pass")
    page.click("main button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    return page


def test_a_new_problems_code_fields_number_their_lines_before_they_are_scrolled_to(
        transactional_db, live_server, browser, monkeypatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    call_command("seed_demo", stdout=open(os.devnull, "w"))
    from courses.models import Course

    course = Course.objects.get(memberships__user__username="student")
    page = _login(browser, live_server)
    page.goto(f"{live_server.url}/courses/{course.code}/")
    page.click("#course-problems")
    page.fill("#new-problem input[name=slug]", "gutters-new")
    page.fill("#new-problem input[name=title_en]", "Gutters")
    page.fill("#new-problem input[name=title_ko]", "줄 번호")
    page.click("#new-problem button[type=submit]")
    page.wait_for_url(f"{live_server.url}/courses/{course.code}/problems/gutters-new/")
    page.wait_for_load_state("networkidle")
    assert page.evaluate("window.scrollY") == 0  # measuring in place did not scroll the page
    for name in ("id_starter", "id_solution", "id_harness"):
        top = page.evaluate(f"document.querySelector('.code-editor[data-for={name}]').getBoundingClientRect().top")
        assert top > 900, (name, top)  # below the window, as the tester saw them: never scrolled to
        offsets = page.evaluate(OFFSETS, name)
        lines = page.locator(f'.code-editor[data-for="{name}"] .cm-content .cm-line').count()
        assert len(offsets) == lines > 1 and max(offsets) <= 1.0, (name, lines, offsets)


def test_a_wrong_solutions_line_numbers_line_up_once_it_is_shown(transactional_db, live_server, browser, monkeypatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    call_command("seed_demo", stdout=open(os.devnull, "w"))
    from authoring import actions
    from courses.models import Course
    from django.contrib.auth.models import User
    from problems.core.package import load_package
    from problems.models import Problem
    from problems.services import import_package

    import_package(load_package(ROOT / "problems" / "bank" / "vector-add-tail"))
    course = Course.objects.get(memberships__user__username="student")
    copy = actions.copy_from_bank(course, User.objects.get(username="instructor"),
                                  Problem.objects.get(slug="vector-add-tail"), "gutters")
    page = _login(browser, live_server)
    page.goto(f"{live_server.url}/courses/{course.code}/problems/{copy.slug}/")
    page.wait_for_load_state("networkidle")  # the statements' previews are in: the page has its final layout
    for host in page.locator(".wrong-solution .code-editor").all()[:2]:
        name = host.get_attribute("data-for")
        host.scroll_into_view_if_needed()
        page.wait_for_timeout(300)
        offsets = page.evaluate(OFFSETS, name)
        assert offsets and max(offsets) <= 1.0, (name, offsets)
