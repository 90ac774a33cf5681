"""The playground in a real browser: a racy kernel typed into CodeMirror, run by a real Celery worker
on the emulator; the race appears live (htmx polling, no reload) with its line highlighted."""
from __future__ import annotations

import re

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.integration, pytest.mark.slow]

RACY = """\
__global__ void count(int* out, int n) {
    __shared__ int total;
    if (threadIdx.x == 0) total = 0;
    __syncthreads();
    total += 1;
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = total;
}
"""


def test_a_racy_kernel_shows_its_race_live(make_student, celery_worker_process, live_server, browser, monkeypatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    make_student("alice", "pass-1234-word")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "alice")
    page.fill("input[name=password]", "pass-1234-word")
    page.click("main button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")

    page.click("nav >> text=Playground")
    page.wait_for_url(f"{live_server.url}/playground/")
    editor = page.locator("#editor .cm-content")
    editor.wait_for(state="visible")
    assert "iota" in editor.inner_text()  # the example
    editor.click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(RACY)
    page.fill("input[name=grid]", "2")
    page.fill("input[name=block]", "64")
    page.fill("input[name=arg-0-size]", "2")
    page.fill("input[name=arg-1-value]", "2")
    page.keyboard.press("Control+Enter")
    page.wait_for_url(re.compile(r".*/playground/r/[\w-]+/$"))
    page.evaluate("window.__stillTheSamePage = true")

    page.locator("#playground-live[data-state=DONE]").wait_for(timeout=150_000)
    assert page.evaluate("window.__stillTheSamePage === true")  # updated by htmx, not reloaded
    diagnostics = page.locator("#diagnostics")
    assert "Data race" in diagnostics.inner_text(), \
        (diagnostics.inner_text(), celery_worker_process.output()[-3000:])
    assert page.locator("#L5.marked").count() == 1  # `total += 1;` is highlighted
    assert page.locator("#output-out").is_visible()
    # A tap on a write-map cell (touch screens have no hover) shows the cell's details under the picture.
    cell = page.locator(".writemap-scroll svg g").first
    cell.wait_for(state="visible")
    cell.click()
    tip = page.locator(".wm-tip").first
    assert "written by block" in tip.inner_text(), tip.inner_text()
    assert errors == []
