"""An attempt in progress has no score yet: its page (staff's, while it runs) reads "— / 20" with a
note that it is scored when it ends, and "— / 5" per question with whether it is answered; the
tester's page read "/ 25 · 응시 중" and "/ 5", nothing before the slash. Once it ends, the numbers."""
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from exams.actions.attempts import save_answers, start_attempt, submit_attempt

from .conftest import client_for, right_answers, release_results

pytestmark = pytest.mark.django_db

TEXTS = {"en": {"state": "In progress", "note": "Not scored yet: the attempt is scored when it ends",
                "answered": "Answered, not scored yet", "unanswered": "Not answered yet"},
         "ko": {"state": "응시 중", "note": "아직 채점 전입니다: 응시가 끝나면",
                "answered": "답함, 아직 채점 전", "unanswered": "아직 답하지 않음"}}


def total_line(html: str) -> str:
    return html.split('id="total"')[1].split("</p>")[0]


def pills(html: str) -> list[str]:
    return re.findall(r'<span class="pill">([^<]*)</span>', html)


@pytest.mark.parametrize("language", ["en", "ko"])
def test_staff_read_an_attempt_in_progress_as_not_scored_yet(exam, people, language):
    attempt = start_attempt(exam, people["alice"])
    question = attempt.items.filter(kind="question").first()
    save_answers(attempt.pk, people["alice"], {question.key: right_answers(question)})
    html = client_for(people["ivy"]).get(reverse("exams:attempt_detail", args=[attempt.pk]),
                                         HTTP_ACCEPT_LANGUAGE=language).content.decode()
    line, t = total_line(html), TEXTS[language]
    assert "<strong>—</strong> / 20" in line and t["state"] in line and t["note"] in line
    assert pills(html) == ["— / 5", "— / 5", "— / 10"]
    card = html.split(f'id="item-{question.number}"')[1].split("</header>")[0]
    assert t["answered"] in card
    assert html.count(t["unanswered"]) == 2


@pytest.mark.parametrize("language", ["en", "ko"])
def test_an_ended_attempt_shows_its_scores_to_staff_and_to_the_student(exam, people, language):
    attempt = start_attempt(exam, people["alice"])
    question = attempt.items.filter(kind="question").first()
    save_answers(attempt.pk, people["alice"], {question.key: right_answers(question)})
    submit_attempt(attempt.pk, people["alice"])
    release_results(exam)
    for who, url in (("ivy", reverse("exams:attempt_detail", args=[attempt.pk])),
                     ("alice", reverse("exams:result", args=[exam.pk]))):
        html = client_for(people[who]).get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert "<strong>5</strong> / 20" in total_line(html) and TEXTS[language]["note"] not in html
        assert sorted(pills(html)) == sorted(["5 / 5", "0 / 5", "0 / 10"]), pills(html)
        assert TEXTS[language]["unanswered"] not in html
