"""A problem set's "Add an item" card reads as two rows, in English and Korean: each label on its own
line above its select, each Add button beside its own select, and the first Add never on the line of
the next label (a tester found "Add Question family" on one line)."""
from __future__ import annotations

from datetime import timedelta

import pytest

pytestmark = [pytest.mark.browser]

_MEASURE = """() => [...document.querySelectorAll('#add-problem, #add-family')].map((form) => {
  const box = (el) => { const r = el.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
  return {id: form.id, form: box(form), label: box(form.querySelector('label')), select: box(form.querySelector('select')),
          button: box(form.querySelector('button'))};
})"""


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_each_add_button_sits_beside_its_own_select(live_server, browser, log_in, transactional_db, lang):
    from django.contrib.auth.models import User
    from django.utils import timezone

    from courses.models import Course, Membership, Role
    from homework import actions
    from problems.core.package import load_package
    from problems.services import import_package
    from tests.browser.conftest import ROOT

    prof = User.objects.create_user("prof", password="pass-1234-word")
    course = Course.objects.create(name="Parallel Programming", code="PP-A")
    Membership.objects.create(course=course, user=prof, role=Role.INSTRUCTOR)
    now = timezone.now()
    problem_set = actions.create_set(course, prof, title_en="Week 1", opens_at=now, due_at=now + timedelta(days=1))
    # An item of the set is not offered again: the family dropdown lists the others, and the problem
    # dropdown has a problem to offer (a set that had every one would show a sentence instead).
    import_package(load_package(ROOT / "problems" / "bank" / "vector-add-tail"))
    actions.add_item(problem_set, family="occupancy.limiter")

    page = browser.new_page(viewport={"width": 1280, "height": 900}, locale=lang,
                            extra_http_headers={"Accept-Language": lang})
    log_in(page, "prof")
    page.goto(f"{live_server.url}/courses/PP-A/sets/{problem_set.pk}/")
    rows = page.evaluate(_MEASURE)
    assert [r["id"] for r in rows] == ["add-problem", "add-family"]
    for r in rows:
        assert r["label"]["bottom"] <= r["select"]["top"] + 0.5, r  # the label above its select
        # The button on the select's line, to its right.
        assert r["button"]["top"] < r["select"]["bottom"] and r["select"]["top"] < r["button"]["bottom"], r
        assert r["select"]["right"] <= r["button"]["left"], r
    first, second = rows
    assert first["button"]["bottom"] <= second["label"]["top"], rows
    # The families are listed by title with the id, grouped by topic, in the page's language.
    assert page.locator("#add-family-select option[value='occupancy.limiter']").count() == 0
    option = page.locator("#add-family-select option[value='occupancy.blocks_per_sm']").inner_text()
    assert option.endswith("(occupancy.blocks_per_sm)") and option != "occupancy.blocks_per_sm"
    assert ("SM당" in option) == (lang == "ko")
    if lang == "ko":
        assert page.locator("#set-items button").inner_text() == "제거"
