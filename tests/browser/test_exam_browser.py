"""An exam in a real browser: the instructor builds a template and schedules an exam for their course; a
student starts, answers, reloads mid-exam and finds every answer, submits; the instructor sees the scores
and downloads the gradebook CSV. Debian's Chromium driven by Playwright against pytest-django's live server."""
from __future__ import annotations

import csv
import io
import os
import re
from datetime import timedelta

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.slow]
SHOTS = os.environ.get("WARPDRILL_SCREENSHOTS")
PASSWORD = "exam-pass-1234"
TEMPLATE_YAML = """title: {en: Browser midterm, ko: 브라우저 중간고사}
zones:
  - title: {en: Indexing}
    choose: 2
    points: 5
    pool: [indexing.global_index, indexing.warp_lane, indexing.grid_dims]
  - title: {en: Occupancy}
    points: 10
    pool: [{family: occupancy.blocks_per_sm, difficulty: 1}]
"""


def shot(page, name):
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)


def login(page, base, username):
    page.context.clear_cookies()
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_load_state()


def typed(field: dict, value) -> str:
    if field["kind"] == "number" and field.get("fraction"):
        return f"{value * 100:.2f} %"
    if field.get("unit") == "hex":
        return f"0x{value:08X}"
    return str(value)


def test_exam_from_template_to_gradebook(live_server, browser, django_user_model, monkeypatch, settings):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    from django.utils import timezone

    from courses.models import Course, Membership
    from exams.models import Exam, ExamAttempt

    ivy = django_user_model.objects.create_user("ivy", "ivy@example.org", PASSWORD, first_name="Ivy")
    kim = django_user_model.objects.create_user("kim", "kim@example.org", PASSWORD, first_name="Min", last_name="Kim")
    course = Course.objects.create(name="GPU Programming", code="GPU101")
    Membership.objects.create(course=course, user=ivy, role="instructor")
    Membership.objects.create(course=course, user=kim, role="student")
    base = live_server.url
    page = browser.new_page(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"{page.url}: {exc}"))

    # The instructor writes a template (a mistake first: the message names its path), then schedules it.
    login(page, base, "ivy")
    page.goto(f"{base}/exams/course/{course.pk}/")
    page.click("#new-template")
    page.fill("#id_text", TEMPLATE_YAML.replace("indexing.grid_dims", "indexing.nope"))
    page.click("#save-template")
    assert "zones[0].pool[2].family: unknown family 'indexing.nope'" in page.locator("#template-errors").inner_text()
    page.fill("#id_text", TEMPLATE_YAML)
    page.click("#save-template")
    page.wait_for_url(f"{base}/exams/course/{course.pk}/")
    page.click("#schedule-exam")
    now = timezone.localtime()
    page.select_option("#id_template", label="Browser midterm")
    page.fill("#id_title", "Midterm 1")
    page.fill("#id_opens_at", (now - timedelta(minutes=5)).strftime("%Y-%m-%dT%H:%M"))
    page.fill("#id_closes_at", (now + timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M"))
    page.fill("#id_duration_minutes", "45")
    page.fill("#id_honour_code", "I work alone.")
    page.click("#save-exam")
    page.wait_for_url(re.compile(r".*/exams/\d+/results/$"))
    exam = Exam.objects.get(title="Midterm 1")
    shot(page, "exam-scheduled")

    # The student starts, answers every question, and sees "Saved".
    login(page, base, "kim")
    page.goto(f"{base}/exams/{exam.pk}/")
    page.check("input[name=honour_code]")
    page.click("#start-button")
    page.wait_for_url(f"{base}/exams/{exam.pk}/attempt/")
    attempt = ExamAttempt.objects.get(exam=exam, user=kim)
    items = list(attempt.items.all())
    assert len(items) == 3
    typed_values = {}
    for item in items:
        q = item.data["question"]
        for f in q["fields"]:
            value = q["answer"][f["name"]]
            if f["kind"] == "choice":
                page.check(f"#item-{item.number} input[name='answer-{f['name']}'][value='{value}']")
                typed_values[(item.number, f["name"])] = ("choice", value)
            else:
                text = typed(f, value)
                page.fill(f"#answer-{item.number}-{f['name']}", text)
                typed_values[(item.number, f["name"])] = ("text", text)
    expect(page.locator("#save-status")).to_have_class(re.compile(r"\bsave-ok\b"), timeout=10000)
    expect(page.locator("#save-status")).to_contain_text("Saved at")
    assert page.locator("#timer").inner_text().startswith("0:4")
    shot(page, "exam-answered")

    # A reload mid-exam: every answer is back from the server.
    page.reload()
    for (number, name), (kind, value) in typed_values.items():
        if kind == "choice":
            assert page.locator(f"#item-{number} input[name='answer-{name}'][value='{value}']").is_checked()
        else:
            assert page.input_value(f"#answer-{number}-{name}") == value

    # Change one answer and go straight to Submit: the pending save is flushed first.
    first = next((n, k) for (n, k), (kind, _v) in typed_values.items() if kind == "text")
    page.fill(f"#answer-{first[0]}-{first[1]}", "12345678")
    page.click("#to-submit")
    page.wait_for_url(f"{base}/exams/{exam.pk}/attempt/submit/")
    assert attempt.items.get(number=first[0]).answer[first[1]] == "12345678"
    # The summary lists no unanswered question.
    assert page.locator("#unanswered").count() == 0
    page.click("#confirm-submit")
    page.wait_for_url(f"{base}/exams/{exam.pk}/")
    assert page.locator("#attempt-ended").is_visible()
    attempt.refresh_from_db()
    changed = attempt.items.get(number=first[0])
    assert attempt.state == "submitted" and changed.status == "wrong"
    assert attempt.total == 20.0 - changed.max_points

    # The instructor sees the score and downloads the Canvas CSV.
    login(page, base, "ivy")
    page.goto(f"{base}/exams/{exam.pk}/results/")
    row = page.locator("tr[data-student=kim] .score-cell").inner_text()
    assert row.replace(" ", "") == f"{attempt.total:g}/20"
    assert page.locator("#histogram svg").count() == 1
    with page.expect_download() as info:
        page.click("#export-canvas")
    text = open(info.value.path(), encoding="utf-8").read()
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][-1] == "Midterm 1" and rows[2][3] == "kim" and rows[2][5] == f"{attempt.total:g}"
    shot(page, "exam-results")
    assert errors == []


def test_failed_autosave_warns_loudly_and_retries(live_server, browser, django_user_model, monkeypatch, settings):
    """When the server cannot be reached, the page says NOT SAVED in a red alert and keeps the answer
    dirty; once the network is back, the retry saves it and the alert goes away."""
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    from django.utils import timezone

    from courses.models import Course, Membership
    from exams.actions.attempts import start_attempt
    from exams.actions.scheduling import save_template, schedule_exam
    from exams.models import ExamItem

    ivy = django_user_model.objects.create_user("ivy", "ivy@example.org", PASSWORD)
    kim = django_user_model.objects.create_user("kim", "kim@example.org", PASSWORD)
    course = Course.objects.create(name="GPU Programming", code="GPU102")
    Membership.objects.create(course=course, user=ivy, role="instructor")
    Membership.objects.create(course=course, user=kim, role="student")
    template = save_template(course, ivy, {"zones": [{"pool": ["indexing.global_index"]}]})
    now = timezone.now()
    exam = schedule_exam(course, template, opens_at=now - timedelta(minutes=1),
                         closes_at=now + timedelta(hours=1), duration_minutes=30)
    start_attempt(exam, kim)
    page = browser.new_page()
    login(page, live_server.url, "kim")
    page.goto(f"{live_server.url}/exams/{exam.pk}/attempt/")
    item = ExamItem.objects.get(attempt__user=kim)
    name = item.data["question"]["fields"][0]["name"]
    saves = re.compile(r"/attempt/save/")  # the page's save URL carries its signature as a query
    page.route(saves, lambda route: route.abort())
    page.fill(f"#answer-1-{name}", "4242")
    expect(page.locator("#save-failed")).to_be_visible(timeout=10000)
    expect(page.locator("#save-status")).to_have_text("NOT SAVED")
    assert ExamItem.objects.get(pk=item.pk).answer == {}
    page.unroute(saves)
    expect(page.locator("#save-failed")).to_be_hidden(timeout=20000)
    expect(page.locator("#save-status")).to_contain_text("Saved at")
    assert ExamItem.objects.get(pk=item.pk).answer == {name: "4242"}
