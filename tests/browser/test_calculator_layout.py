"""The occupancy calculator's form fits its card on a 1366 x 768 laptop screen: help text and the
compute-capability select stay inside the card, and every GPU name in the select is shown whole."""
from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser]

# For every element of the form that must fit: its box, the card's box, and for the select, how wide its
# widest option's text is against the room the select has for text (its content box minus the arrow).
_MEASURE = """() => {
  const card = document.querySelector('#calc-form').getBoundingClientRect();
  const box = (el) => { const r = el.getBoundingClientRect(); return {left: r.left, right: r.right, top: r.top,
                                                                         bottom: r.bottom, width: r.width}; };
  const items = [...document.querySelectorAll('#calc-form .help, #calc-form select, #calc-form input, #calc-form label')]
    .map((el) => ({what: el.tagName + (el.id ? '#' + el.id : '.' + el.className), box: box(el),
                   overflows: el.scrollWidth > el.clientWidth + 1 && el.tagName !== 'SELECT'}));
  const select = document.querySelector('#calc-form select');
  const style = getComputedStyle(select);
  const canvas = document.createElement('canvas').getContext('2d');
  canvas.font = style.font;
  const widest = Math.max(...[...select.options].map((o) => canvas.measureText(o.text).width));
  const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16;
  return {card: box(document.querySelector('#calc-form')), items, widest, room};
}"""


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_help_text_and_select_stay_inside_the_card_at_1366(live_server, browser, lang):
    page = browser.new_page(viewport={"width": 1366, "height": 768}, locale=lang,
                            extra_http_headers={"Accept-Language": lang})
    page.goto(f"{live_server.url}/practice/occupancy/?cc=8.6&threads=256&regs=32&smem=0")
    assert page.locator("html").get_attribute("lang").startswith(lang)
    m = page.evaluate(_MEASURE)
    card = m["card"]
    assert m["items"] and any(i["what"].startswith("DIV.help") for i in m["items"]), m["items"]
    assert any(i["what"].startswith("SELECT") for i in m["items"])
    for item in m["items"]:
        b = item["box"]
        assert card["left"] <= b["left"] and b["right"] <= card["right"] + 0.5, (item, card)
        assert card["top"] <= b["top"] and b["bottom"] <= card["bottom"] + 0.5, (item, card)
        assert not item["overflows"], item
    # The select shows its widest option (the GPU names) whole, not cut off.
    assert m["widest"] <= m["room"], m
    # No horizontal scroll of the page at this width.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
