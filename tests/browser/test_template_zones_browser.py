"""The exam template editor's zones in a real browser, in English and Korean: the tester found the
picker's Add buttons wrapping under their fields at 1280 px, had to reload to see a zone he had added
or removed, and got zones named "Part 2". Now the picker is one row per field at 1280 and 1024 px, and
the zone list (htmx) adds, renames and removes zones in place, follows the text as it is typed, and
names a new zone "Zone 3" / "구역 3"; the page is never reloaded."""
from __future__ import annotations

import re

import pytest

pytestmark = [pytest.mark.browser]

NEW_ZONE = {"en": "3. Zone 3", "ko": "3. 구역 3"}


def box(page, selector):
    return page.locator(selector).bounding_box()


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("width", [1280, 1024])
def test_the_picker_and_the_zone_list_read_as_a_finished_page(editor, lang, width, tmp_path):
    """Each field with its label and its button on one row, buttons on one line, nothing wider than the card."""
    page = editor(lang, width)
    page.screenshot(path=str(tmp_path / f"editor-{width}-{lang}.png"), full_page=True)
    for field, button in (("#pick-family", "#add-family"), ("#pick-kernel", "#add-kernel")):
        f, b = box(page, field), box(page, button)
        assert b["x"] > f["x"] + f["width"], (field, f, b)  # beside its field, not under it
        assert abs((b["y"] + b["height"] / 2) - (f["y"] + f["height"] / 2)) < 4, (field, f, b)
        assert b["height"] < 40  # one line of text
    assert box(page, "#add-family")["x"] == box(page, "#add-kernel")["x"]  # the buttons in one column
    card = box(page, "#template-form")
    for selector in ("#pool-pickers", "#zone-list", ".zone-table"):
        b = box(page, selector)
        assert b["x"] >= card["x"] and b["x"] + b["width"] <= card["x"] + card["width"] + 1, selector
    for button in page.locator(".zone-actions .btn").all():
        assert button.bounding_box()["height"] < 40
    rows = page.locator(".zone-row").all()
    assert len(rows) == 2 and rows[0].bounding_box()["height"] < 80
    assert not page.errors


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_zones_are_added_renamed_and_removed_in_place(editor, lang):
    from exams.models import ExamTemplate

    page = editor(lang)
    page.evaluate("() => { window.notReloaded = true; }")
    text = lambda: page.input_value("#id_text")  # noqa: E731
    labels = lambda: page.eval_on_selector_all("#pick-zone option", "os => os.slice(1).map(o => o.textContent)")  # noqa: E731

    # Add a zone: the list, the picker's Zone and the text change in place; the picker now adds to it.
    page.click("#add-zone")
    page.wait_for_function("() => document.getElementById('id_text').value.includes('Zone 3')")
    assert page.locator(".zone-row").count() == 3
    assert "- title: {en: Zone 3, ko: 구역 3}\n    pool:" in text()
    assert labels()[2] == NEW_ZONE[lang] and page.input_value("#pick-zone") == "2"
    assert page.get_attribute("input[name=zone-2-title-en]", "placeholder") == "Zone 3"
    page.fill("#pick-family", "indexing.limits")
    page.click("#add-family")
    page.wait_for_selector("#pick-status.pick-added")
    assert text().rstrip().endswith("pool:\n      - {family: indexing.limits}")
    page.wait_for_function("() => document.querySelector('tr[data-zone=\"2\"] .zone-size').textContent.includes('1')")

    # Rename it: type the titles, press Enter in one of them.
    page.fill("input[name=zone-2-title-en]", "Limits")
    page.fill("input[name=zone-2-title-ko]", "한계")
    page.press("input[name=zone-2-title-ko]", "Enter")
    page.wait_for_function("() => document.getElementById('id_text').value.includes('{en: Limits, ko: 한계}')")
    assert labels()[2] == ("3. Limits" if lang == "en" else "3. 한계")
    assert page.input_value("input[name=zone-2-title-en]") == "Limits"

    # Remove the kernel zone (its slug is not in this course).
    page.click("tr[data-zone='1'] .zone-remove")
    page.wait_for_function("() => !document.getElementById('id_text').value.includes('vector-add-tail')")
    assert page.locator(".zone-row").count() == 2
    assert "vector-add-tail" not in text() and labels()[1] == ("2. Limits" if lang == "en" else "2. 한계")

    # A zone typed by hand shows in the list and the picker without a reload.
    page.click("#id_text")
    page.keyboard.press("Control+End")
    page.keyboard.type("\n  - pool: [indexing.inverse]")
    page.wait_for_function("() => document.querySelectorAll('.zone-row').length === 3")
    assert labels()[2] == ("Zone 3" if lang == "en" else "구역 3")
    assert page.evaluate("() => window.notReloaded") is True

    page.click("#save-template")
    page.wait_for_url(re.compile(r".*/exams/course/\d+/$"))
    zones = ExamTemplate.objects.get(course=editor.course).data["zones"]
    assert [z["title"] for z in zones] == [{"en": "Occupancy and indexing", "ko": "점유율과 인덱스 계산"},
                                           {"en": "Limits", "ko": "한계"}, {"en": "Zone 3", "ko": "구역 3"}]
    assert not page.errors, page.errors
