"""The occupancy calculator keeps what a student types: the result updates in place, never a reload under the cursor."""
from __future__ import annotations

import re

import pytest

pytestmark = [pytest.mark.browser]


def test_typing_at_human_speed_gives_the_result_for_what_was_typed(live_server, browser):
    """Type 1024, Tab, 64, Tab, 49152, Enter at about 8 keys a second (the issue's sequence): the page is never
    reloaded while typing, the fields hold what was typed, and the result and URL are for those numbers."""
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live_server.url}/practice/occupancy/?cc=8.6&threads=256&regs=32&smem=0")
    page.wait_for_function("window.htmx !== undefined")
    page.evaluate("window.__notReloaded = true")

    page.click("#id_threads")
    page.keyboard.press("Control+A")
    page.keyboard.type("1024", delay=120)
    page.keyboard.press("Tab")
    page.keyboard.press("Control+A")
    page.keyboard.type("64", delay=120)
    page.keyboard.press("Tab")
    page.keyboard.press("Control+A")
    page.keyboard.type("49152", delay=120)
    page.keyboard.press("Enter")

    page.wait_for_selector('#result[data-inputs="8.6|1024|64|49152"]')
    assert page.evaluate("window.__notReloaded") is True  # the same document all along
    assert page.input_value("#id_threads") == "1024"
    assert page.input_value("#id_regs") == "64"
    assert page.input_value("#id_smem") == "49152"
    page.wait_for_url(re.compile(r".*threads=1024.*regs=64.*smem=49152.*"))
    # 1024 threads x 64 registers = 65536 registers: exactly one block on cc 8.6.
    assert page.locator("#result .big-number").first.inner_text().strip() == "1"
    binding = [row.strip() for row in page.locator(".limits-table tr.binding").all_inner_texts()]
    assert any(row.startswith("registers") for row in binding), binding  # 64 regs x 1024 fills the register file
    assert page.locator("#calc-more .chart svg").count() == 3
    assert not errors, errors


def test_a_half_typed_invalid_value_keeps_the_field_and_the_last_result(live_server, browser):
    """An invalid value while typing (0 threads) is marked invalid by the browser's own constraint check; no
    request replaces the last valid result, and the field keeps what was typed."""
    page = browser.new_page()
    page.goto(f"{live_server.url}/practice/occupancy/?cc=9.0&threads=256&regs=32&smem=0")
    page.wait_for_function("window.htmx !== undefined")
    page.click("#id_threads")
    page.keyboard.press("Control+A")
    page.keyboard.type("0", delay=100)
    page.wait_for_timeout(1200)  # past the 400 ms debounce
    assert page.input_value("#id_threads") == "0"
    assert page.locator("#id_threads:invalid").count() == 1
    assert page.locator('#result[data-inputs="9.0|256|32|0"]').count() == 1
    page.keyboard.type("64", delay=100)  # 064 threads: valid again
    page.wait_for_selector('#result[data-inputs="9.0|064|32|0"]')
