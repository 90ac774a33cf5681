"""Statements and the authoring editor's title row, as a reader sees them at 1280 px.

The tester's 38_exam_kernel_editor: a display formula wider than the exam kernel page's statement column
was cut at the column's edge with no scrollbar (overlay scrollbars show only while one scrolls), and
the page's own title was hidden. 16b_editor_viewport: the editor's "version 1" tag floated in the
middle of the title row. The pages run in a Chromium context that emulates overlay scrollbars (a
touch-screen laptop's, as macOS draws them), where an unstyled scrollbar takes no room until used."""
from __future__ import annotations

import pytest

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS

pytestmark = [pytest.mark.browser]

WIDE = ("Update every element:\n\n"
        "$$y_i \\leftarrow \\mathrm{clamp}(a\\,x_i + y_i,\\ -c,\\ c), \\qquad "
        "\\mathrm{clamp}(v, lo, hi) = \\min(\\max(v, lo), hi), \\qquad 0 \\le i < n, \\qquad "
        "\\text{the grid has } \\lceil n / 256 \\rceil \\text{ blocks of 256 threads}$$\n\n"
        "for every $0 \\le i < n$.\n")

_MATH = """(container) => {
  const box = (el) => el.getBoundingClientRect();
  const column = document.querySelector(container);
  return [...column.querySelectorAll('.katex-display')].map((d) => ({
    right: box(d).right, columnRight: box(column).right, scrollWidth: d.scrollWidth, clientWidth: d.clientWidth,
    scrollbar: d.offsetHeight - d.clientHeight, overflowX: getComputedStyle(d).overflowX}));
}"""


@pytest.fixture
def overlay_page(browser):
    """new(lang) -> a page at 1280 x 900 whose scrollbars are overlay ones unless a page styles them (a
    Chromium of its own: the shared one hides every scrollbar, Playwright's --hide-scrollbars)."""
    drawn = browser.browser_type.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS,
                                        ignore_default_args=["--hide-scrollbars"])

    def new(lang: str = "en"):
        context = drawn.new_context(viewport={"width": 1280, "height": 900}, is_mobile=True, has_touch=True,
                                    locale=lang, extra_http_headers={"Accept-Language": lang})
        return context.new_page()

    yield new
    drawn.close()


def _wide_problem():
    from problems.core.package import parse_package
    from problems.services import import_package
    from tests.packages import tiny_package_files

    return import_package(parse_package(tiny_package_files(**{"statement.md": "# Tiny add\n\n" + WIDE})))


def assert_display_math_scrolls_visibly(page, container: str):
    page.wait_for_selector(f"{container} .katex-display")
    [math] = page.evaluate(_MATH, container)
    assert math["scrollWidth"] > math["clientWidth"] + 50, math  # wider than the column ...
    assert math["right"] <= math["columnRight"] + 0.5, math  # ... kept inside it ...
    assert math["overflowX"] == "auto" and math["scrollbar"] == 8, math  # ... with its scrollbar drawn


def test_display_math_on_the_exam_kernel_page_scrolls_with_a_visible_scrollbar(
        live_server, overlay_page, log_in, started_exam):
    from django.urls import reverse

    _wide_problem()  # version 2 of tiny-add, which the exam draws
    exam, attempt = started_exam()
    kernel = attempt.items.get(kind="kernel")
    page = overlay_page()
    url = reverse("exams:kernel", args=[exam.pk, kernel.number])
    log_in(page, "alice", next_path=url)
    assert_display_math_scrolls_visibly(page, ".statement-card .markdown")
    # The page's title is shown (".statement > h1:first-child" hid it), the statement's own "# Tiny add" is not.
    titles = page.evaluate("() => [...document.querySelectorAll('.statement-card h1')].map((h) => [h.innerText, h.offsetHeight > 0])")
    assert titles == [["Tiny add", True], ["Tiny add", False]], titles


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_display_math_on_the_problem_page_scrolls_with_a_visible_scrollbar(live_server, overlay_page, log_in,
                                                                          transactional_db, lang):
    from django.contrib.auth.models import User

    _wide_problem()
    User.objects.create_user("stu", password="pass-1234-word")
    page = overlay_page(lang)
    log_in(page, "stu", next_path="/problems/tiny-add/")
    assert_display_math_scrolls_visibly(page, "#statement")


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_editors_version_tag_sits_with_its_state_at_the_right(live_server, overlay_page, log_in,
                                                                  transactional_db, lang):
    from django.contrib.auth.models import User

    from authoring import actions
    from courses.models import Course, Membership, Role

    course = Course.objects.create(name="병렬 프로그래밍 (GPU 컴퓨팅)", code="GPU-T4")
    prof = User.objects.create_user("prof", password="pass-1234-word")
    Membership.objects.create(course=course, user=prof, role=Role.INSTRUCTOR)
    actions.create_problem(course, prof, "saxpy-clamp", "SAXPY with clamping", "클램핑이 있는 SAXPY")
    page = overlay_page(lang)
    log_in(page, "prof", next_path="/courses/GPU-T4/problems/saxpy-clamp/")
    m = page.evaluate("""() => {
      const box = (el) => { const r = el.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
      const head = document.querySelector('.page-head');
      return {head: box(head), title: box(head.querySelector('h1')), version: box(head.querySelector('#version-tag')),
              state: box(head.querySelector('.head-tags > :last-child'))};
    }""")
    version, state = m["version"], m["state"]
    assert abs(version["top"] - state["top"]) < 3, m  # one row
    assert 0 <= state["left"] - version["right"] <= 12, m  # side by side
    assert m["head"]["right"] - state["right"] < 2, m  # at the header's right edge, not in its middle
    assert version["left"] > m["title"]["right"], m
