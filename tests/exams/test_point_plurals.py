"""The exam pages say "1 point" and "2.5 points" (a plural chosen by the amount, fractions included; no
trailing zeros: the pages said "2.50 points"), and Korean "1점" (one form): the attempt page showed
"1 points" for a 1-point question."""
import pytest
from django.urls import reverse

from exams.actions.attempts import start_attempt, submit_kernel
from exams.actions.scheduling import save_template, schedule_exam
from grader import grading as grader_grading
from grader.core.results import JudgeResult
from grader.core.verdicts import Verdict
from problems.templatetags.warpdrill import plural_count

from .conftest import client_for

pytestmark = pytest.mark.django_db
ONE_POINT = {
    "title": {"en": "Quiz", "ko": "퀴즈"},
    "zones": [
        {"title": "Questions", "choose": 1, "points": 1, "pool": ["indexing.global_index"]},
        {"title": "More", "choose": 1, "points": 2.5, "pool": ["indexing.warp_lane"]},
        {"title": "Kernel", "pool": [{"kernel": "tiny-add", "attempt_points": [1]}]},
    ],
}


@pytest.fixture
def one_point_attempt(course, people, kernel_problem, not_sent):
    from datetime import timedelta

    from django.utils import timezone

    now = timezone.now()
    exam = schedule_exam(course, save_template(course, people["ivy"], ONE_POINT), opens_at=now - timedelta(minutes=5),
                         closes_at=now + timedelta(hours=1), duration_minutes=30)
    return start_attempt(exam, people["alice"])


@pytest.mark.parametrize("value, count", [(1, 1), (1.0, 1), (2, 2), (0, 0), (2.5, 2), (0.5, 2), (1.5, 2),
                                          (1.001, 1), (None, 2), ("x", 2)])
def test_plural_count(value, count):
    """Whole amounts count as themselves; any fraction picks the plural ("0.5 points")."""
    assert plural_count(value) == count


@pytest.mark.parametrize("lang, one, fraction", [("en", "1 point<", "2.5 points<"), ("ko", "1점<", "2.5점<")])
def test_attempt_page_points(one_point_attempt, people, lang, one, fraction):
    """The attempt page's questions: "1 point" and "2.5 points" (Korean "1점", "2.5점")."""
    html = client_for(people["alice"]).get(reverse("exams:attempt", args=[one_point_attempt.exam_id]),
                                           HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert one in html and fraction in html
    assert "1 points" not in html and "2.50 points" not in html and "2.50점" not in html


@pytest.mark.parametrize("lang, text", [("en", "1 of 1 point."), ("ko", "1점 중 1점.")])
def test_solved_kernel_of_one_point(one_point_attempt, people, lang, text):
    """A 1-point kernel, solved: its question page and the attempt page say "1 of 1 point"."""
    item = one_point_attempt.items.get(kind="kernel")
    sub = submit_kernel(item, people["alice"], "__global__ void add(const float* a) { }\n")
    grader_grading.start_grading(sub.pk, "emulator")
    grader_grading.finish_grading(sub.pk, JudgeResult(verdict=Verdict.ACCEPTED))
    alice = client_for(people["alice"])
    for url in (reverse("exams:kernel", args=[one_point_attempt.exam_id, item.number]),
                reverse("exams:attempt", args=[one_point_attempt.exam_id])):
        html = alice.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        assert text in html, url
        assert "1 points" not in html
