"""An exam in a real browser, the whole way as people go, in English and with Korean selected: an instructor
creates a course and an invite; the student joins through the invite link; the instructor writes a
template (generated questions and a kernel problem) and schedules the exam; the student starts, answers,
submits the kernel and sees its verdict come in live (graded by a real worker on the exam queue), reloads
and finds every answer, submits; the instructor sees the score, downloads the gradebook CSV and a printed
PDF, whose pages, seen as images (pdftoppm), show the math and the Korean in ink.

Debian's Chromium driven by Playwright against pytest-django's live server; a Celery worker process
(tests/browser/conftest.py's exam_worker) grades the kernel and typesets the PDF.
"""
from __future__ import annotations

import csv
import io
import os
import re
from datetime import timedelta
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PASSWORD, ROOT
from tests.pdfcheck import fonts, hangul, ink, page_images, pages_text, text_runs

pytestmark = [pytest.mark.browser, pytest.mark.integration, pytest.mark.slow]
SHOTS = os.environ.get("WARPDRILL_SCREENSHOTS")  # a folder to save screenshots in, when set
TITLE = {"en": "Midterm 1", "ko": "중간고사 1"}
TEMPLATE_YAML = """title: {en: Midterm 1, ko: 중간고사 1}
zones:
  - title: {en: Indexing, ko: 인덱싱}
    choose: 2
    points: 5
    pool: [indexing.global_index, indexing.warp_lane, indexing.grid_dims]
  - title: {en: Occupancy, ko: 점유율}
    points: 10
    pool: [{family: occupancy.blocks_per_sm, difficulty: 1}]
  - title: {en: Kernel, ko: 커널}
    pool: [{kernel: vector-add-tail, attempts: 2, attempt_points: [20, 15]}]
"""
KERNEL_POINTS = 20  # accepted at the first attempt
MAX_TOTAL = 5 + 5 + 10 + 20
VERDICT_TIMEOUT_MS = 240_000  # a worker on a loaded 2-core machine compiles and runs 4 tests on the emulator
PDF_TIMEOUT_MS = 240_000


def shot(page, name):
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)


def typed(field: dict, value) -> str:
    """What a student types for a generated question's right value (a share as a percentage, hex as 0x...)."""
    if field["kind"] == "number" and field.get("fraction"):
        return f"{value * 100:.2f} %"
    if field.get("unit") == "hex":
        return f"0x{value:08X}"
    return str(value)


def choose_language(page, language: str) -> None:
    """Press the header's language button, as a person does; the site answers in that language."""
    if language != "en":
        with page.expect_navigation():
            page.click(f"form.lang-switch button[value={language}]")
    assert page.locator("html").get_attribute("lang") == language


@pytest.fixture
def people(transactional_db, django_user_model):
    """ivy, who may create courses (the Instructor group), and kim, a student with a Korean name; the
    bank's vector-add-tail problem, imported as `make dev` does."""
    from django.contrib.auth.models import Group, Permission

    from problems.core.package import load_package
    from problems.services import import_package

    import_package(load_package(ROOT / "problems" / "bank" / "vector-add-tail"))
    instructors, _ = Group.objects.get_or_create(name="Instructor")  # a data migration's; flushed between tests
    instructors.permissions.add(Permission.objects.get(codename="create_course"))
    ivy = django_user_model.objects.create_user("ivy", "ivy@example.org", PASSWORD, first_name="Ivy")
    ivy.groups.add(instructors)
    kim = django_user_model.objects.create_user("kim", "kim@example.org", PASSWORD, first_name="민수",
                                                last_name="김")
    return ivy, kim


@pytest.mark.parametrize("language", ["en", "ko"])
def test_an_exam_from_a_new_course_to_the_printed_pdf(language, people, exam_worker, live_server, browser, log_in,
                                                      tmp_path):
    from django.utils import timezone

    from exams.models import Exam, ExamAttempt

    ivy, kim = people
    base = live_server.url
    errors: list[str] = []

    def new_page(**options):
        page = browser.new_context(viewport={"width": 1280, "height": 900}, **options).new_page()
        page.on("pageerror", lambda exc: errors.append(f"{page.url}: {exc}"))
        return page

    # The instructor: Courses, New course, the form; then an invite on the management page.
    teacher = new_page(accept_downloads=True)
    log_in(teacher, "ivy")
    choose_language(teacher, language)
    teacher.click("header nav a[href='/courses/']")
    teacher.click("main a[href='/courses/new/']")
    teacher.fill("input[name=name]", "CUDA 프로그래밍")
    teacher.fill("input[name=code]", "CUDA-2027S")
    teacher.select_option("select[name=language]", language)
    teacher.click("main button[type=submit]")
    teacher.wait_for_url(f"{base}/courses/CUDA-2027S/manage/")
    teacher.fill("input[name=days]", "7")
    teacher.click("form.invite-form button[type=submit]")
    teacher.wait_for_url(re.compile(r".*/courses/CUDA-2027S/manage/#invites$"))
    link = teacher.locator("input.invite-link").first.input_value()

    # The student follows the link, joins, and sees the course.
    student = new_page()
    log_in(student, "kim")
    choose_language(student, language)
    student.goto(link)
    student.click("main form button[type=submit]")
    student.wait_for_url(f"{base}/courses/CUDA-2027S/")
    assert "CUDA 프로그래밍" in student.locator("main h1").inner_text()

    # The instructor writes the template (a mistake first: the message names its path), then schedules it.
    teacher.goto(f"{base}/courses/CUDA-2027S/")
    teacher.click("#course-exams")
    teacher.click("#new-template")
    teacher.fill("#id_text", TEMPLATE_YAML.replace("indexing.grid_dims", "indexing.nope"))
    teacher.click("#save-template")
    problems = teacher.locator("#template-errors").inner_text()
    assert "zones[0].pool[2].family" in problems and "indexing.nope" in problems, problems
    teacher.fill("#id_text", TEMPLATE_YAML)
    teacher.click("#save-template")
    teacher.wait_for_url(re.compile(r".*/exams/course/\d+/$"))
    teacher.click("#schedule-exam")
    now = timezone.localtime()
    teacher.select_option("#id_template", label=TITLE[language])
    teacher.fill("#id_opens_at", (now - timedelta(minutes=5)).strftime("%Y-%m-%dT%H:%M"))
    teacher.fill("#id_closes_at", (now + timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M"))
    teacher.fill("#id_duration_minutes", "45")
    teacher.fill("#id_honour_code", "I work alone.")
    teacher.click("#save-exam")
    teacher.wait_for_url(re.compile(r".*/exams/\d+/results/$"))
    exam = Exam.objects.get(course__code="CUDA-2027S")
    assert exam.feedback == "verdict"  # the default: a student sees a kernel's verdict during the exam
    shot(teacher, f"journey-{language}-scheduled")

    # The student finds the exam open in their courses, starts it and answers every question.
    student.goto(f"{base}/courses/")
    student.click(f"main a[href='/exams/{exam.pk}/']")
    student.check("input[name=honour_code]")
    student.click("#start-button")
    student.wait_for_url(f"{base}/exams/{exam.pk}/attempt/")
    assert student.locator("#exam-attempt h1").inner_text() == TITLE[language]  # the template's, in the language
    attempt = ExamAttempt.objects.get(exam=exam, user=kim)
    items = list(attempt.items.order_by("number"))
    assert sorted(i.kind for i in items) == ["kernel", "question", "question", "question"]
    answers = {}
    for item in (i for i in items if i.kind == "question"):
        question = item.data["question"]
        for f in question["fields"]:
            value = question["answer"][f["name"]]
            if f["kind"] == "choice":
                student.check(f"#item-{item.number} input[name='answer-{f['name']}'][value='{value}']")
                answers[(item.number, f["name"])] = ("choice", value)
            else:
                answers[(item.number, f["name"])] = ("text", typed(f, value))
                student.fill(f"#answer-{item.number}-{f['name']}", typed(f, value))
    expect(student.locator("#save-status")).to_have_class(re.compile(r"\bsave-ok\b"), timeout=15000)
    assert student.locator("#timer").inner_text().startswith("0:4")
    shot(student, f"journey-{language}-answered")

    # The kernel: the editor from the attempt page, the solution typed, Submit; the verdict comes in live.
    kernel = next(i for i in items if i.kind == "kernel")
    student.click(f"#item-{kernel.number} a[href$='/attempt/kernel/{kernel.number}/']")
    editor = student.locator("#editor .cm-content")
    editor.click()
    student.keyboard.press("Control+A")
    student.keyboard.press("Delete")
    source = (ROOT / "problems" / "bank" / "vector-add-tail" / "solution.cu").read_text()
    student.keyboard.insert_text(source)
    with student.expect_navigation():
        student.click("#submit-button")
    row = student.locator("#exam-submissions li[data-status]").first
    first_status = row.get_attribute("data-status")
    student.evaluate("window.__stillTheSamePage = true")
    try:
        expect(student.locator("#exam-submissions li[data-status=GRADED]")).to_have_count(1, timeout=VERDICT_TIMEOUT_MS)
    except AssertionError:
        raise AssertionError("no verdict came in; worker output:\n" + exam_worker.output()[-4000:]) from None
    from problems.templatetags.warpdrill import verdict_label
    from django.utils import translation

    with translation.override(language):
        accepted = str(verdict_label("ACCEPTED"))
    assert row.locator(".badge").inner_text().strip() == accepted, exam_worker.output()[-4000:]
    assert first_status != "GRADED" and student.evaluate("window.__stillTheSamePage") is True
    shot(student, f"journey-{language}-kernel")

    # Back to the questions, and a reload: every answer is there, the kernel's too.
    student.click(f"nav.breadcrumbs a[href='/exams/{exam.pk}/attempt/']")
    student.wait_for_url(f"{base}/exams/{exam.pk}/attempt/")
    student.reload()
    for (number, name), (kind, value) in answers.items():
        if kind == "choice":
            assert student.locator(f"#item-{number} input[name='answer-{name}'][value='{value}']").is_checked()
        else:
            assert student.input_value(f"#answer-{number}-{name}") == value
    student.goto(f"{base}/exams/{exam.pk}/attempt/kernel/{kernel.number}/")
    assert "c[i] = a[i] + b[i];" in student.locator("#editor .cm-content").inner_text()
    student.goto(f"{base}/exams/{exam.pk}/attempt/")

    # One answer changed, then straight to Submit: the pending save goes first; nothing is unanswered.
    first = next(key for key, (kind, _v) in answers.items() if kind == "text")
    student.fill(f"#answer-{first[0]}-{first[1]}", "12345678")
    student.click("#to-submit")
    student.wait_for_url(f"{base}/exams/{exam.pk}/attempt/submit/")
    assert student.locator("#unanswered").count() == 0
    student.click("#confirm-submit")
    student.wait_for_url(f"{base}/exams/{exam.pk}/")
    assert student.locator("#attempt-ended").is_visible()
    attempt.refresh_from_db()
    changed = attempt.items.get(number=first[0])
    assert attempt.state == "submitted" and changed.answer[first[1]] == "12345678" and changed.status == "wrong"
    total = MAX_TOTAL - changed.max_points
    assert attempt.total == total and attempt.items.get(kind="kernel").points == KERNEL_POINTS

    # The instructor: the score, the gradebook CSV.
    teacher.goto(f"{base}/exams/course/{exam.course_id}/")
    teacher.click(f"#exam-list a[href='/exams/{exam.pk}/results/']")
    assert teacher.locator("tr[data-student=kim] .score-cell").inner_text().replace(" ", "") == f"{total:g}/{MAX_TOTAL}"
    assert teacher.locator("#histogram svg").count() == 1
    with teacher.expect_download() as download:
        teacher.click("#export-canvas")
    rows = list(csv.reader(io.StringIO(Path(download.value.path()).read_text(encoding="utf-8-sig"))))
    # The grade column is named in the course's language (the course was made in the page's).
    assert rows == [["Student", "ID", "SIS User ID", "SIS Login ID", "Section", exam.title_in(language)],
                    ["Points Possible", "", "", "", "", f"{MAX_TOTAL}"],
                    ["김, 민수", "", "", "kim", "", f"{total:g}"]]  # Canvas matches on SIS Login ID
    shot(teacher, f"journey-{language}-results")

    # The printed exam: one form per student, in the page's language; the PDF comes once typeset.
    teacher.click("#print-link")
    assert teacher.input_value("#id_lang") == language
    teacher.select_option("#id_set", "students")
    with teacher.expect_download(timeout=PDF_TIMEOUT_MS) as download:
        teacher.click("#print-download")
    pdf = Path(download.value.path()).read_bytes()
    check_printed_form(pdf, language, kim.get_full_name(), tmp_path)
    assert errors == []


def check_printed_form(pdf: bytes, language: str, name: str, folder: Path) -> None:
    """The student's printed form as a reader sees it: their name on every page; the statement's formulas
    typeset by KaTeX and inked where they stand on the page image; the Korean (the name, and in Korean
    the whole sheet) set in Noto Sans CJK KR, embedded, and inked where it stands."""
    pages = pages_text(pdf, folder)
    assert pages and all(name in p for p in pages), pages
    text = "".join(pages)
    assert "$$" not in text and "\\le" not in text and "\\qquad" not in text  # no TeX source left
    assert hangul(text) > (100 if language == "ko" else 1)
    embedded = [line.split() for line in fonts(pdf, folder).splitlines()[2:]]
    for family in ("Noto-Sans-CJK-KR", "KaTeX_Main", "KaTeX_Math"):
        assert any(family in cols[0] and "yes" in cols[-5] for cols in embedded), (family, embedded)

    scale = 2  # 144 dpi: a point is two pixels
    images = page_images(pdf, folder, dpi=72 * scale)
    runs = [r for r in text_runs(pdf, folder) if r.text.strip() and r.width >= 2]
    math = [r for r in runs if r.font.startswith("KaTeX")]
    korean = [r for r in runs if hangul(r.text)]
    assert len(math) >= 5 and korean, runs
    assert all(r.font.startswith("Noto-Sans-CJK-KR") for r in korean), {r.font for r in korean}
    for runs in (math, korean):
        inked = [(r, ink(images[r.page], r.box(scale))) for r in runs]
        assert all(dark > 0 for _r, dark in inked), [x for x in inked if not x[1]]  # every glyph run shows
        area = sum((b[2] - b[0]) * (b[3] - b[1]) for b in (r.box(scale) for r in runs))
        # Glyphs cover a part of their boxes (an "=" 3 %, a "b" 24 %): not blank, not filled boxes (tofu).
        assert 0.05 * area < sum(dark for _r, dark in inked) < 0.5 * area, (sum(d for _r, d in inked), area)
