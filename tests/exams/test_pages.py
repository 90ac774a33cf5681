"""Exam pages: start, the attempt page, autosave JSON, submit summary, kernel page, staff results and CSVs."""
import csv
import io
import json
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from exams.actions.attempts import save_answers, start_attempt, submit_attempt
from exams.actions.scheduling import save_template
from exams.models import ExamAttempt, ExamTemplate

from .conftest import TEMPLATE, client_for, right_answers, release_results

pytestmark = pytest.mark.django_db


def start(exam, user):
    c = client_for(user)
    r = c.post(reverse("exams:start", args=[exam.pk]))
    assert r.status_code == 302 and r["Location"] == reverse("exams:attempt", args=[exam.pk])
    return c, ExamAttempt.objects.get(exam=exam, user=user)


def save(c, exam, answers):
    return c.post(reverse("exams:save", args=[exam.pk]), json.dumps({"answers": answers}),
                  content_type="application/json")


def test_exam_page_then_attempt_page_shows_questions_and_clock(exam, people):
    c = client_for(people["alice"])
    page = c.get(reverse("exams:exam", args=[exam.pk])).content.decode()
    assert 'id="start-button"' in page
    c, attempt = start(exam, people["alice"])
    html = c.get(reverse("exams:attempt", args=[exam.pk])).content.decode()
    assert "data-deadline=" in html and "data-server-now=" in html
    for item in attempt.items.filter(kind="question"):
        assert f'data-item="{item.key}"' in html
        plain = item.data["question"]["prompt"]["en"][0]["text"].split("`")[0].split("**")[0][:20]
        assert plain in html.replace("&#x27;", "'")
    assert "js/exam.js" in html


def test_page_in_korean(exam, people):
    c, attempt = start(exam, people["alice"])
    html = c.get(reverse("exams:attempt", args=[exam.pk]), HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    q = attempt.items.filter(kind="question").first()
    assert q.data["question"]["prompt"]["ko"][0]["text"].split("`")[0].split("**")[0][:10] in html


def test_answer_key_never_in_attempt_page(exam, people):
    c, attempt = start(exam, people["alice"])
    html = c.get(reverse("exams:attempt", args=[exam.pk])).content.decode()
    assert "Correct answer" not in html and "Worked solution" not in html


def test_autosave_json_and_resume(exam, people):
    """Saved answers come back in the page after a reload (and on another device: another client)."""
    c, attempt = start(exam, people["alice"])
    q = attempt.items.filter(kind="question").first()
    r = save(c, exam, {q.key: {name: "17" for name in right_answers(q)}})
    assert r.status_code == 200 and r.json()["ok"] is True and r.json()["deadline"]
    other_device = client_for(people["alice"])
    html = other_device.get(reverse("exams:attempt", args=[exam.pk])).content.decode()
    assert 'value="17"' in html


def test_autosave_after_deadline_is_409_with_message(exam, people):
    c, attempt = start(exam, people["alice"])
    ExamAttempt.objects.filter(pk=attempt.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    q = attempt.items.filter(kind="question").first()
    r = save(c, exam, {q.key: {name: "17" for name in right_answers(q)}})
    assert r.status_code == 409 and "Time is up" in r.json()["error"]
    q.refresh_from_db()
    assert q.answer == {}


def test_autosave_rejects_malformed(exam, people):
    c, attempt = start(exam, people["alice"])
    r = c.post(reverse("exams:save", args=[exam.pk]), "not json", content_type="application/json")
    assert r.status_code == 400 and r.json()["code"] == "bad_request"


def test_submit_summary_lists_unanswered_then_submits(exam, people):
    c, attempt = start(exam, people["alice"])
    q = attempt.items.filter(kind="question").first()
    save(c, exam, {q.key: right_answers(q)})
    html = c.get(reverse("exams:submit", args=[exam.pk])).content.decode()
    assert 'id="unanswered"' in html and "2 questions have no answer" in html
    r = c.post(reverse("exams:submit", args=[exam.pk]))
    assert r.status_code == 302
    attempt.refresh_from_db()
    assert attempt.state == "submitted" and attempt.total == 5.0


def test_kernel_page_has_the_editor(exam, people):
    c, attempt = start(exam, people["alice"])
    item = attempt.items.get(kind="kernel")
    html = c.get(reverse("exams:kernel", args=[exam.pk, item.number])).content.decode()
    assert 'id="editor"' in html and "build/editor.js" in html and 'name="source"' in html
    assert "Tiny add" in html


def test_result_only_after_release(exam, people):
    c, attempt = start(exam, people["alice"])
    c.post(reverse("exams:submit", args=[exam.pk]))
    early = c.get(reverse("exams:result", args=[exam.pk]), follow=True)  # to the exam page, which says why
    assert early.redirect_chain[-1][0] == reverse("exams:exam", args=[exam.pk])
    assert "Your result is not released yet." in early.content.decode() and "Worked solution" not in early.content.decode()
    release_results(exam)
    html = c.get(reverse("exams:result", args=[exam.pk])).content.decode()
    assert "Worked solution" in html and "Correct answer" in html


def test_template_form_shows_path_errors_and_saves(course, people, kernel_problem):
    c = client_for(people["ivy"])
    bad = "zones:\n  - choose: 4\n    pool: [indexing.inverse, {family: nope}]\n"
    r = c.post(reverse("exams:template_new", args=[course.pk]), {"text": bad})
    html = r.content.decode()
    assert r.status_code == 400
    assert "zones[0].pool[1].family: unknown family &#x27;nope&#x27;" in html
    assert "zones[0].choose: chooses 4 items from a pool of 2" in html
    r = c.post(reverse("exams:template_new", args=[course.pk]), {"text": json.dumps(TEMPLATE)})
    assert r.status_code == 302
    t = ExamTemplate.objects.get(course=course)
    export = c.get(reverse("exams:template_export", args=[course.pk, t.pk]))
    assert export["Content-Disposition"].endswith('.yaml"') and b"tiny-add" in export.content
    preview = c.get(reverse("exams:template_preview", args=[course.pk, t.pk]) + "?n=2").content.decode()
    assert 'id="sample-2"' in preview and "Correct answer" in preview
    # A kernel item shows its statement (bound to the sample's variant), as the student's kernel page does.
    assert preview.count('class="markdown kernel-statement"') == 2 and "Add two vectors" in preview


@pytest.mark.parametrize("lang, title", [("en", "Tiny add"), ("ko", "작은 덧셈")])
def test_template_preview_names_a_kernel_item_by_its_problems_title(course, people, kernel_problem, lang, title):
    """The preview titled a kernel question by its slug, "tiny-add (v1)" (the tester's "saxpy-clamp (v2)"):
    its heading is the problem's title in the reader's language, the slug and version only beside it."""
    t = save_template(course, people["ivy"], TEMPLATE)
    html = client_for(people["tom"]).get(reverse("exams:template_preview", args=[course.pk, t.pk]) + "?n=1",
                                         HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    heading = re.search(r'<h3>[^<]*3[^<]*· <span class="kernel-title">([^<]*)</span>(.*?)</h3>', html, re.S)
    assert heading and heading.group(1) == title, html[html.find("sample-1"):][:3000]
    assert "<code>tiny-add</code>" in heading.group(2) and ("version 1" if lang == "en" else "버전 1") in heading.group(2)
    assert "tiny-add (v" not in html
    # Its worth with the unit, as the attempt page writes it (a tester read a bare "2.5")
    pill = re.search(r'<span class="pill">([^<]*)</span>\s*$', heading.group(2).strip()).group(1)
    assert re.fullmatch(r"[\d.]+ points?" if lang == "en" else r"[\d.]+점", pill), pill


def test_schedule_form(course, people, kernel_problem):
    c = client_for(people["ivy"])
    t = save_template(course, people["ivy"], TEMPLATE)
    now = timezone.localtime()
    r = c.post(reverse("exams:exam_new", args=[course.pk]), {
        "template": t.pk, "title": "Midterm A", "opens_at": now.strftime("%Y-%m-%dT%H:%M"),
        "closes_at": (now + timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M"), "duration_minutes": 50,
        "feedback": "verdict"})
    assert r.status_code == 302, r.content.decode()[:2000]
    assert course.exams.get().title == "Midterm A"


def test_results_page_and_csv_exports(exam, people):
    for name, right in (("alice", True), ("bob", False)):
        a = start_attempt(exam, people[name])
        answers = {q.key: right_answers(q) if right else {} for q in a.items.filter(kind="question")}
        save_answers(a.pk, people[name], answers)
        submit_attempt(a.pk, people[name])
    c = client_for(people["ivy"])
    html = c.get(reverse("exams:results", args=[exam.pk])).content.decode()
    assert 'data-student="alice"' in html and "10 / 20" in html and "<svg" in html and 'id="item-stats"' in html
    canvas = list(csv.reader(io.StringIO(c.get(reverse("exams:export", args=[exam.pk, "canvas"])).content.decode())))
    assert canvas[0][-1] == "Midterm" and canvas[1][-1] == "20"
    assert {r[3]: r[5] for r in canvas[2:]} == {"alice": "10", "bob": "0"}
    moodle = list(csv.reader(io.StringIO(c.get(reverse("exams:export", args=[exam.pk, "moodle"])).content.decode())))
    assert {r[1]: r[-1] for r in moodle[1:]} == {"alice": "10", "bob": "0"}
    long = list(csv.reader(io.StringIO(c.get(reverse("exams:export", args=[exam.pk, "long"])).content.decode())))
    assert len(long) == 1 + 2 * 3
    a = ExamAttempt.objects.get(user=people["alice"])
    detail = c.get(reverse("exams:attempt_detail", args=[a.pk])).content.decode()
    assert 'id="timeline"' in detail and "Started" in detail and "Submitted" in detail


def test_regrade_page_diff_then_apply(exam, people):
    a = start_attempt(exam, people["alice"])
    submit_attempt(a.pk, people["alice"])
    c = client_for(people["ivy"])
    html = c.get(reverse("exams:regrade", args=[exam.pk])).content.decode()
    assert 'id="no-changes"' in html
    assert c.post(reverse("exams:regrade", args=[exam.pk]), {"action": "apply"}).status_code == 302


def test_pages_in_korean(exam, people):
    """The student's and the instructor's pages read in Korean when Korean is chosen."""
    c, attempt = start(exam, people["alice"])
    ko = {"HTTP_ACCEPT_LANGUAGE": "ko"}
    assert "남은 시간" in c.get(reverse("exams:attempt", args=[exam.pk]), **ko).content.decode()
    assert "시험을 제출할까요?" in c.get(reverse("exams:submit", args=[exam.pk]), **ko).content.decode()
    r = c.post(reverse("exams:save", args=[exam.pk]), "{}", content_type="application/json", **ko)
    assert "JSON" in r.json()["error"] and "저장 요청" in r.json()["error"]
    staff = client_for(people["ivy"])
    assert "학생" in staff.get(reverse("exams:results", args=[exam.pk]), **ko).content.decode()
    assert "시험 템플릿" in staff.get(reverse("exams:course", args=[exam.course_id]), **ko).content.decode()


def test_kernel_page_gives_the_points_per_attempt_as_the_template_does(exam, people):
    """attempt_points [10, 7, 5] read "10, 7, 5" on the kernel page (the stored floats read "10.0, 7.0, 5.0")."""
    c, attempt = start(exam, people["alice"])
    item = attempt.items.get(kind="kernel")
    html = c.get(reverse("exams:kernel", args=[exam.pk, item.number])).content.decode()
    assert "Points per attempt: 10, 7, 5" in html and "10.0" not in html


def test_an_exam_under_its_templates_title_reads_in_the_students_language(exam, people):
    """An exam scheduled under its template's title shows the template's Korean title on Korean pages (the
    exam page, the attempt, the course's open items), as its printed forms do; a title the instructor typed
    is shown as typed in every language."""
    exam.lockdown = False  # the course page during the attempt: an exam that leaves the site open
    exam.save(update_fields=["lockdown"])
    assert exam.title == "Midterm"
    assert (exam.title_in("en"), exam.title_in("ko")) == ("Midterm", "중간고사")
    c, _attempt = start(exam, people["alice"])
    ko = {"HTTP_ACCEPT_LANGUAGE": "ko"}
    for name in ("exams:exam", "exams:attempt"):
        html = c.get(reverse(name, args=[exam.pk]), **ko).content.decode()
        assert "<h1>중간고사</h1>" in html and "Midterm" not in html, name
    assert "<h1>Midterm</h1>" in c.get(reverse("exams:attempt", args=[exam.pk])).content.decode()
    assert "중간고사" in c.get(reverse("courses:course", args=[exam.course.code]), **ko).content.decode()

    exam.title = "Midterm (section 2)"
    exam.save(update_fields=["title"])
    assert exam.title_in("ko") == "Midterm (section 2)"
    assert "<h1>Midterm (section 2)</h1>" in c.get(reverse("exams:attempt", args=[exam.pk]), **ko).content.decode()
