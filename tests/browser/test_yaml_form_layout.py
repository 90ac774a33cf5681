"""The problem.yaml form at 1280 px, in English and Korean: every field sits under its own label, the
fields of a row are as wide as each other, and every table field spans its column (the tester's
68_yamlform_en: an unstyled, 40 px Difficulty box ran into the "Kernel name" label on one line)."""
from __future__ import annotations

import os

import pytest

pytestmark = [pytest.mark.browser]

_MEASURE = """() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width, height: r.height}; };
  const grids = [...document.querySelectorAll('#yaml-form .form-grid')].map((grid) =>
    [...grid.querySelectorAll(':scope > label:not(.check)')].map((label) => {
      const field = label.querySelector('input, select');
      const text = [...label.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent).join('').trim();
      const range = document.createRange();
      range.selectNodeContents(label.firstChild);
      const style = getComputedStyle(field);
      return {name: field.name, text, label: box(range), field: box(field), border: style.borderTopWidth,
              radius: style.borderTopLeftRadius, weight: style.fontWeight};
    }));
  const cells = [...document.querySelectorAll('#yaml-form .form-table td')].map((td) => {
    const field = td.querySelector('input[type=text], select');
    return field ? {name: field.name, cell: box(td), field: box(field)} : null;
  }).filter(Boolean);
  const card = box(document.querySelector('#yaml-form .card'));
  const tables = [...document.querySelectorAll('#yaml-form .form-table')].map(box);
  return {grids, cells, card, tables, scrollWidth: document.documentElement.scrollWidth};
}"""


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_problem_yaml_form_is_a_grid_of_labelled_fields(live_server, browser, log_in, transactional_db, lang,
                                                             tmp_path):
    from django.contrib.auth.models import User

    from authoring import actions
    from courses.models import Course, Membership, Role

    course = Course.objects.create(name="병렬 프로그래밍 (GPU 컴퓨팅)", code="GPU-T4")
    prof = User.objects.create_user("prof", password="pass-1234-word")
    Membership.objects.create(course=course, user=prof, role=Role.INSTRUCTOR)
    actions.create_problem(course, prof, "saxpy-clamp", "SAXPY with clamping", "클램핑이 있는 SAXPY")
    page = browser.new_page(viewport={"width": 1280, "height": 900}, locale=lang,
                            extra_http_headers={"Accept-Language": lang})
    log_in(page, "prof")
    page.goto(f"{live_server.url}/courses/GPU-T4/problems/saxpy-clamp/fields/")
    page.wait_for_selector("#yaml-form")
    page.screenshot(path=str(tmp_path / f"yaml_form_{lang}.png"), full_page=True)
    if os.environ.get("WARPDRILL_SHOTS"):  # keep the screenshot to look at
        page.screenshot(path=os.path.join(os.environ["WARPDRILL_SHOTS"], f"yaml_form_{lang}.png"), full_page=True)
    m = page.evaluate(_MEASURE)

    assert m["scrollWidth"] <= 1280
    problem_row = m["grids"][0]
    assert [f["name"] for f in problem_row] == ["topic", "difficulty", "kernel_name"]
    for grid in m["grids"]:
        for f in grid:
            # The label's text is above its field and inside its width, never on the field's line.
            assert f["label"]["bottom"] <= f["field"]["top"] + 1, f
            assert f["field"]["left"] - 1 <= f["label"]["left"] < f["field"]["right"], f
            assert f["field"]["height"] >= 34 and f["border"] == "1px" and f["radius"] == "8px", f  # styled as the rest
            assert f["weight"] == "400", f  # a value in plain type under its bold label
        # One row: the same top, the same width, side by side without overlapping.
        widths = [f["field"]["width"] for f in grid]
        assert max(widths) - min(widths) < 2, grid
        assert len({round(f["field"]["top"]) for f in grid}) == 1, grid
        for before, after in zip(grid, grid[1:]):
            assert after["field"]["left"] >= before["field"]["right"] + 8, (before, after)
    # The tables span their card and each field fills its cell.
    for table in m["tables"]:
        assert table["width"] >= m["card"]["width"] - 2 * 21 - 2, (table, m["card"])
    for c in m["cells"]:
        assert c["field"]["width"] >= c["cell"]["width"] - 12, c
