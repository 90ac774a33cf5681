"""A student practises in a real browser: one question of each topic, then the occupancy calculator.

Debian's Chromium driven by Playwright against pytest-django's live server. The answers are read
from the stored variant (the test plays a student who knows them) and typed the way a student would.
"""
from __future__ import annotations

import os
import re

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = os.environ.get("WARPDRILL_SCREENSHOTS")  # a folder to save screenshots in, when set



def typed(field: dict, value) -> str:
    """How a student types the value: occupancies as percentages, masks in hex."""
    if field["kind"] == "number" and field.get("fraction"):
        return f"{value * 100:.2f} %"
    if field.get("unit") == "hex":
        return f"0x{value:08X}"
    return str(value)


def shot(page, name):
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)


def test_student_answers_one_question_of_each_topic(live_server, browser, django_user_model, monkeypatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from practice.models import QuestionVariant

    django_user_model.objects.create_user(username="kim", password="practice-pass-123")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    page.goto(f"{live_server.url}/accounts/login/?next=/practice/")
    page.fill("input[name=username]", "kim")
    page.fill("input[name=password]", "practice-pass-123")
    page.click("main button[type=submit]")
    page.wait_for_url(f"{live_server.url}/practice/")
    shot(page, "practice-home")

    for topic in ("occupancy", "indexing", "synchronization"):
        page.goto(f"{live_server.url}/practice/")
        page.check(f"input[name=topic][value={topic}]")
        page.check("input[name=difficulty][value='2']")
        page.click("form.practice-start button[type=submit]")
        page.wait_for_url(re.compile(r".*/practice/q/\d+/$"))
        pk = int(page.url.rstrip("/").split("/")[-1])
        variant = QuestionVariant.objects.get(pk=pk)
        assert variant.family.startswith(topic)
        assert page.locator("article.question h1").inner_text()

        # First a malformed answer: an error, no attempt.
        first = variant.answer["fields"][0]
        if first["kind"] != "choice":
            page.fill(f"#answer-{first['name']}", "not a number")
            page.click("form.answer-form button[type=submit]")
            assert page.locator(".field-error").first.is_visible()
            assert variant.attempts.count() == 0

        for f in variant.answer["fields"]:
            value = variant.answer["values"][f["name"]]
            if f["kind"] == "choice":
                page.check(f"input[name='answer-{f['name']}'][value='{value}']")
            else:
                page.fill(f"#answer-{f['name']}", typed(f, value))
        page.click("form.answer-form button[type=submit]")
        page.locator("#result .result-title").wait_for()
        assert "Right" in page.locator("#result .result-title").inner_text()
        assert page.locator("#result .solution").inner_text().strip()
        shot(page, f"question-{topic}")
        assert variant.attempts.filter(correct=True).count() == 1

    page.goto(f"{live_server.url}/practice/progress/")
    from practice.core.questions import Topic

    assert page.locator("table.progress-table").count() == len(Topic)  # one table per topic

    # The calculator works logged out too, with the link the submission pages use.
    ctx = browser.new_context(viewport={"width": 1280, "height": 1000})
    anon = ctx.new_page()
    anon.goto(f"{live_server.url}/practice/occupancy/?cc=8.6&threads=256&regs=41&smem=2048")
    assert anon.locator(".limits-table tr.binding").inner_text().strip().startswith("registers")
    assert anon.locator(".chart svg").count() == 3
    shot(anon, "calculator")
    anon.select_option("#id_cc", "9.0")  # the result follows the select in place (htmx), and so does the URL
    anon.wait_for_url(re.compile(r".*cc=9\.0.*"))
    assert "9.0" in anon.url
    assert not errors, errors
