"""The live monitor of a running exam (staff): counts at the top, a row per started student (answered
items, the last autosave relative and absolute, time left, kernel submissions being graded and their
verdicts, links to extend time and reset a question), who has not started; it fetches itself again
every few seconds with a fixed number of queries, whatever the number of students. EN and KO."""
import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from exams.actions.attempts import save_answers, start_attempt, submit_attempt, submit_kernel
from exams.models import ExamAttempt
from grader import grading as grader_grading
from grader.core.results import JudgeResult
from grader.core.verdicts import Verdict

from .conftest import PASSWORD, client_for, enrol, right_answers

pytestmark = pytest.mark.django_db
SOURCE = "__global__ void add(const float* a, const float* b, float* c, int n) { }\n"
STAMP = r"\d{4}-\d\d-\d\d \d\d:\d\d [A-Z+0-9-]+"  # the one date format (the when filter)

TEXTS = {
    "en": {"not_started": "Not started", "in_progress": "In progress", "submitted": "Submitted",
           "title": "Live monitor", "updates": "Updates itself every 5 seconds", "grading": "1 being graded",
           "wrong": "Wrong answer × 1", "extend": "Extend time…", "reset": "Reset a question…",
           "ago": "1 min ago", "nothing": "Nothing saved yet"},
    "ko": {"not_started": "시작 전", "in_progress": "응시 중", "submitted": "제출됨",
           "title": "실시간 현황", "updates": "5초마다 저절로 갱신됩니다", "grading": "1건 채점 중",
           "wrong": "오답 × 1", "extend": "시간 연장…", "reset": "문항 초기화…",
           "ago": "1분 전", "nothing": "아직 저장한 답 없음"},
}


def counts(html: str) -> dict:
    return {k: int(n) for k, n in re.findall(r'data-count="(\w+)"><strong>(\d+)</strong>', html)}


def row_of(html: str, username: str) -> str:
    return html.split(f'<tr data-student="{username}"')[1].split("</tr>")[0]


@pytest.mark.parametrize("language", ["en", "ko"])
def test_staff_follow_each_student_of_a_running_exam(exam, people, not_sent, language):
    alice = start_attempt(exam, people["alice"])
    question = alice.items.filter(kind="question").first()
    save_answers(alice.pk, people["alice"], {question.key: right_answers(question)})
    ExamAttempt.objects.filter(pk=alice.pk).update(last_saved_at=timezone.now() - timedelta(seconds=75))
    kernel = alice.items.get(kind="kernel")
    wrong = submit_kernel(kernel, people["alice"], SOURCE)
    grader_grading.start_grading(wrong.pk, "emulator")
    grader_grading.finish_grading(wrong.pk, JudgeResult(verdict=Verdict.WRONG_ANSWER))
    submit_kernel(kernel, people["alice"], SOURCE)  # being graded
    t = TEXTS[language]
    for staff in ("ivy", "tom"):
        page = client_for(people[staff]).get(reverse("exams:monitor", args=[exam.pk]), HTTP_ACCEPT_LANGUAGE=language)
        html = page.content.decode()
        assert page.status_code == 200 and t["title"] in html and t["updates"] in html
        assert counts(html) == {"not_started": 1, "in_progress": 1, "submitted": 0, "closed": 0}
        row = row_of(html, "alice")
        assert 'data-phase="in_progress"' in row and row.split('class="num answered">')[1].startswith("2 / 3<")
        assert t["ago"] in row and re.search(STAMP, row.split('class="saved"')[1])
        assert re.search(r'class="num time-left">0:(29|30):\d\d<', row)
        assert t["grading"] in row and t["wrong"] in row
        detail = reverse("exams:attempt_detail", args=[alice.pk])
        assert f'href="{detail}#staff-tools">{t["extend"]}' in row and f'href="{detail}#item-1">{t["reset"]}' in row
        assert 'data-student="bob">bob<' in html.split('id="not-started"')[1]


@pytest.mark.parametrize("language", ["en", "ko"])
def test_a_submitted_attempt_and_one_past_its_deadline(exam, people, language):
    alice = start_attempt(exam, people["alice"])
    submit_attempt(alice.pk, people["alice"])
    bob = start_attempt(exam, people["bob"])
    ExamAttempt.objects.filter(pk=bob.pk).update(deadline=timezone.now() - timedelta(seconds=5))
    html = client_for(people["ivy"]).get(reverse("exams:monitor_live", args=[exam.pk]),
                                         HTTP_ACCEPT_LANGUAGE=language).content.decode()
    t = TEXTS[language]
    assert counts(html) == {"not_started": 0, "in_progress": 1, "submitted": 1, "closed": 0}
    done = row_of(html, "alice")
    # A submitted attempt can be neither extended nor reset (a fresh variant could not be answered).
    assert t["submitted"] in done and t["extend"] not in done and t["reset"] not in done and t["nothing"] in done
    assert t["reset"] in row_of(html, "bob")
    assert 'data-phase="time_up"' in row_of(html, "bob")
    assert ("Time is up (closing)" if language == "en" else "시간 종료(마감 처리 중)") in row_of(html, "bob")
    assert html.index('data-student="bob"') < html.index('data-student="alice"')  # in progress first


def test_the_monitor_fetches_itself_until_nothing_can_change(exam, people):
    ivy = client_for(people["ivy"])
    live = reverse("exams:monitor_live", args=[exam.pk])
    page = ivy.get(reverse("exams:monitor", args=[exam.pk])).content.decode()
    assert f'hx-get="{live}" hx-trigger="every 5s"' in page
    for name in ("alice", "bob"):
        submit_attempt(start_attempt(exam, people[name]).pk, people[name])
    exam.closes_at = timezone.now() - timedelta(minutes=1)
    exam.save(update_fields=["closes_at"])
    over = ivy.get(live).content.decode()
    assert "hx-get" not in over and "no longer updates itself" in over


def test_students_and_outsiders_get_nothing(exam, people):
    for name in ("alice", "eve"):
        c = client_for(people[name])
        for url in (reverse("exams:monitor", args=[exam.pk]), reverse("exams:monitor_live", args=[exam.pk])):
            assert c.get(url).status_code == 404, (name, url)


def test_the_results_page_links_the_monitor(exam, people):
    for language, label in (("en", "Live monitor"), ("ko", "실시간 현황")):
        html = client_for(people["tom"]).get(reverse("exams:results", args=[exam.pk]),
                                             HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert f'href="{reverse("exams:monitor", args=[exam.pk])}" id="monitor-link">{label}</a>' in html


def test_a_refresh_is_a_fixed_handful_of_queries_for_50_students(exam, people, course, not_sent,
                                                                  django_assert_max_num_queries):
    """Session, user, exam mode's check (exams.lockdown), the exam, the role, then two aggregate queries
    (attempts with their items and kernel submissions; the students who have not started): the same for 3
    started students as for 50."""
    live = reverse("exams:monitor_live", args=[exam.pk])
    ivy = client_for(people["ivy"])

    def start(n0, n1):
        for n in range(n0, n1):
            user = User.objects.create_user(f"s{n:02d}", None, PASSWORD)
            enrol(user, course, "student")
            attempt = start_attempt(exam, user)
            question = attempt.items.filter(kind="question").first()
            if n % 2:
                save_answers(attempt.pk, user, {question.key: right_answers(question)})
            if n % 3 == 0:
                sub = submit_kernel(attempt.items.get(kind="kernel"), user, SOURCE)
                if n % 2 == 0:
                    grader_grading.start_grading(sub.pk, "emulator")
                    grader_grading.finish_grading(sub.pk, JudgeResult(verdict=Verdict.ACCEPTED))
            if n % 7 == 0:
                submit_attempt(attempt.pk, user)

    start(0, 3)
    with CaptureQueriesContext(connection) as few:
        assert ivy.get(live).status_code == 200
    start(3, 50)
    with django_assert_max_num_queries(7):
        html = ivy.get(live).content.decode()
    assert html.count("<tr data-student=") == 50
    with CaptureQueriesContext(connection) as many:
        ivy.get(live)
    assert len(many) == len(few)
    assert counts(html) == {"not_started": 2, "in_progress": 42, "submitted": 8, "closed": 0}
    def answered(name):
        return row_of(html, name).split('class="num answered">')[1].split("<")[0]

    assert (answered("s01"), answered("s02"), answered("s03"), answered("s06")) == ("1 / 3", "0 / 3", "2 / 3", "1 / 3")
    assert "1 being graded" in row_of(html, "s03") and "Accepted × 1" in row_of(html, "s06")
