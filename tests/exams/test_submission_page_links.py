"""Where the page of an exam kernel submission leads its student (grader.views.submission_detail). A
practice submission of the same problem does not count for the exam, so "Edit and resubmit" goes back to
the exam's question while the attempt is open, and once it is not, the page leads back to the exam
instead; the playground, which runs code outside the exam, is not offered while the attempt is open
(the exam's own pages do not offer it either)."""
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from exams.actions.attempts import submit_attempt
from exams.models import ExamAttempt, Feedback
from grader import actions as grader_actions

from .conftest import client_for

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("not_sent")]
SOURCE = "__global__ void add(const float* a, const float* b, float* c, int n) { }\n"


@pytest.fixture
def exam_feedback():
    """`wrong_in_exam` (conftest) in an exam that shows the full result, so that its student may open the
    submission's page during the exam."""
    return Feedback.FULL


def page(user, sub, lang="en") -> str:
    response = client_for(user).get(reverse("grader:submission", args=[sub.pk]), HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("lang, label", [("en", "Edit and resubmit"), ("ko", "고쳐서 다시 제출")])
def test_resubmit_goes_back_to_the_exam_question_while_the_attempt_is_open(wrong_in_exam, people, lang, label):
    """The button opens the question's page in the attempt, not the practice page, and the page offers
    no playground, in English and Korean."""
    item, sub = wrong_in_exam
    html = page(people["alice"], sub, lang)
    question = reverse("exams:kernel", args=[item.attempt.exam_id, item.number])
    assert f'id="resubmit" href="{question}#submit-form">{label}</a>' in html
    assert "/problems/tiny-add/?from=" not in html
    assert "try-in-playground" not in html and reverse("playground:home") + "?from=" not in html


@pytest.mark.parametrize("lang, label", [("en", "Back to the exam"), ("ko", "시험으로 돌아가기")])
@pytest.mark.parametrize("how", ["submitted", "past_deadline"])
def test_a_closed_attempt_leads_back_to_the_exam(wrong_in_exam, people, lang, label, how):
    """Once the attempt is submitted, or its deadline has passed (before the server closes it), the
    page offers no resubmission, neither in the exam nor in practice: a link back to the exam's page."""
    item, sub = wrong_in_exam
    if how == "submitted":
        submit_attempt(item.attempt_id, people["alice"])
    else:
        ExamAttempt.objects.filter(pk=item.attempt_id).update(deadline=timezone.now() - timedelta(seconds=1))
    html = page(people["alice"], sub, lang)
    assert f'id="back-to-exam" href="{reverse("exams:exam", args=[item.attempt.exam_id])}">{label}</a>' in html
    assert 'id="resubmit"' not in html and "/problems/tiny-add/?from=" not in html
    assert "/attempt/kernel/" not in html


def test_the_instructor_is_offered_neither(wrong_in_exam, people):
    """An instructor reading the student's exam submission gets no button that acts for its owner; the
    playground stays theirs to use."""
    _, sub = wrong_in_exam
    html = page(people["ivy"], sub)
    assert 'id="resubmit"' not in html and 'id="back-to-exam"' not in html
    assert 'id="try-in-playground"' in html


def test_a_practice_submission_still_reopens_the_practice_editor(people, kernel_problem):
    """Practice work is unchanged: its button opens the problem's editor, and the playground is offered."""
    kernel_problem.is_published = True
    kernel_problem.save(update_fields=["is_published"])
    sub = grader_actions.create_submission(people["alice"], kernel_problem, SOURCE)
    html = page(people["alice"], sub)
    assert f'id="resubmit" href="/problems/tiny-add/?from={sub.pk}#submit-form"' in html
    assert 'id="try-in-playground"' in html and 'id="back-to-exam"' not in html
