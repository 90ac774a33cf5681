"""The exam kernel editor's Submit row in a real browser at 1280 px: in Korean the 제출 button keeps its
label on one line beside the attempts text (CJK text may break between any two syllables, so the
button, squeezed by the long text beside it, used to stack 제 over 출)."""
from __future__ import annotations

import os

import pytest

pytestmark = [pytest.mark.browser]
SHOTS = os.environ.get("WARPDRILL_SCREENSHOTS")  # a folder to save screenshots in, when set


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_submit_button_keeps_its_label_on_one_line(started_exam, live_server, browser, log_in, lang):
    """The Submit button is one line high and wider than it is tall, with the attempts text, points per
    attempt and "your best attempt counts" beside it (the default template's kernel: 10, 7, 5 points)."""
    exam, attempt = started_exam()
    item = attempt.items.get(kind="kernel")
    page = browser.new_page(viewport={"width": 1280, "height": 900}, locale=lang,
                            extra_http_headers={"Accept-Language": lang})
    log_in(page, "alice", next_path=f"/exams/{exam.pk}/attempt/kernel/{item.number}/")
    page.locator("#editor .cm-content").wait_for()
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"exam-submit-row-{lang}.png"), full_page=True)
    button = page.locator("#submit-button")
    assert button.inner_text().strip() == ("제출" if lang == "ko" else "Submit")
    box = button.bounding_box()
    line = page.evaluate("(el) => parseFloat(getComputedStyle(el).lineHeight)", button.element_handle())
    assert box["height"] < 1.5 * line + 12, box  # one line plus its padding and border
    assert box["width"] > box["height"], box
    text = page.locator("#attempts-left").bounding_box()
    assert box["x"] + box["width"] <= text["x"], (box, text)  # beside the text, not overlapping it
    row = page.locator(".submit-row").bounding_box()
    assert text["x"] + text["width"] <= row["x"] + row["width"] + 1, (text, row)  # the text wraps inside the card
