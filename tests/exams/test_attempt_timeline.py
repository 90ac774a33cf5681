"""An attempt's timeline names questions as the student's paper does (number and title), never by the
template's slot keys ("Saved z0.p1, z0.p2" in the tester's screenshot), and says what each event
concerns: the submission and its verdict, the new deadline, the totals, a late save's keys that name no
question (the bare "1")."""
import re

import pytest
from django.urls import reverse

from exams.actions.attempts import extend_attempt, save_answers, start_attempt, submit_attempt, submit_kernel
from exams.actions.resets import reset_item
from exams.errors import ExamError
from grader import grading as grader_grading
from grader.core.results import JudgeResult
from grader.core.verdicts import Verdict

from .conftest import client_for

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("not_sent")]
SOURCE = "__global__ void add(const float* a, const float* b, float* c, int n) { }\n"


@pytest.fixture
def walked(exam, people):
    """Alice starts, saves two questions, submits a kernel (graded WRONG_ANSWER), a TA extends her time
    and resets question 1, she submits, then a crafted late save sends the key "1"."""
    alice = people["alice"]
    attempt = start_attempt(exam, alice)
    items = list(attempt.items.order_by("number"))
    questions = [i for i in items if i.kind == "question"]
    kernel = next(i for i in items if i.kind == "kernel")
    save_answers(attempt.pk, alice, {q.key: {} for q in questions})
    sub = submit_kernel(kernel, alice, SOURCE)
    grader_grading.start_grading(sub.pk, "emulator")
    grader_grading.finish_grading(sub.pk, JudgeResult(verdict=Verdict.WRONG_ANSWER))
    extend_attempt(attempt.pk, 10, people["tom"])
    reset_item(questions[0].pk, people["tom"])
    submit_attempt(attempt.pk, alice)
    with pytest.raises(ExamError):
        save_answers(attempt.pk, alice, {"1": {"x": "y"}})
    return attempt, items, sub


def timeline_html(client, attempt, **headers) -> str:
    page = client.get(reverse("exams:attempt_detail", args=[attempt.pk]), **headers).content.decode()
    return page[page.index('id="timeline"'):]


def test_the_timeline_names_questions_by_number_and_title(walked, people):
    attempt, items, sub = walked
    html = timeline_html(client_for(people["ivy"]), attempt)
    assert not re.search(r"z\d+\.p\d+", html), "a slot key is shown"
    rows = dict(re.findall(r'<tr data-kind="(\w+)">(.*?)</tr>', html, re.S))
    q1, q2 = (i for i in items if i.kind == "question")
    kernel = next(i for i in items if i.kind == "kernel")
    assert f'href="#item-{q1.number}"' in rows["saved"] and f'href="#item-{q2.number}"' in rows["saved"]
    assert f"Question {kernel.number}</a> · Tiny add" in rows["kernel"]
    assert f'href="/submissions/{sub.pk}/"' in rows["kernel"] and "Wrong answer" in rows["kernel"]
    assert "by tom" in rows["extended"] and "+10 min" in rows["extended"] and "new deadline" in rows["extended"]
    title = q1.data["question"]["title"]["en"]
    assert f"Question {q1.number}</a> · {title}" in rows["reset"] and "by tom" in rows["reset"]
    assert "not a question of this attempt: “1”" in rows["late"]


def test_a_crafted_late_save_key_is_quoted_short(exam, people):
    alice = people["alice"]
    attempt = start_attempt(exam, alice)
    submit_attempt(attempt.pk, alice)
    with pytest.raises(ExamError):
        save_answers(attempt.pk, alice, {"0" + "x" * 500: {}, "a": {}, "b": {}, "c": {}, "d": {}})
    html = timeline_html(client_for(people["ivy"]), attempt)
    assert "x" * 23 not in html and "“0" + "x" * 22 + "…”" in html and "and 2 more" in html


def test_the_korean_timeline(walked, people):
    attempt, items, _ = walked
    html = timeline_html(client_for(people["ivy"]), attempt, HTTP_ACCEPT_LANGUAGE="ko")
    assert "not a question of this attempt" not in html and "new deadline" not in html
    assert "Question" not in html and "문항" in html
