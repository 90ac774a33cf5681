"""The released result page names a kernel item by its problem's title and shows the verdicts the
student saw during the exam; the link to a submission's page only where the feedback was "full"."""
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from exams.actions.attempts import start_attempt, submit_attempt, submit_kernel
from exams.models import Exam, Feedback

from .conftest import client_for, release_results
from .test_kernel_items import SOURCE, grade
from grader.core.verdicts import Verdict

pytestmark = pytest.mark.django_db


def _released_result(exam, alice, feedback):
    Exam.objects.filter(pk=exam.pk).update(feedback=feedback)
    exam.refresh_from_db()
    attempt = start_attempt(exam, alice)
    sub = submit_kernel(attempt.items.get(kind="kernel"), alice, SOURCE)
    grade(sub, Verdict.WRONG_ANSWER, 1)
    submit_attempt(attempt.pk, alice)
    release_results(exam)
    return sub, client_for(alice).get(reverse("exams:result", args=[exam.pk])).content.decode()


@pytest.mark.parametrize("feedback, linked", [(Feedback.VERDICT, False), (Feedback.FULL, True),
                                              (Feedback.NONE, False)])
def test_the_kernel_row_has_the_title_the_verdict_and_a_link_as_feedback_allows(
        exam, people, kernel_problem, sent_tasks, feedback, linked):
    sub, html = _released_result(exam, people["alice"], feedback)
    row = html[html.index(f'id="result-sub-{sub.pk}"'):]
    row = row[:row.index("</li>")]
    assert f"· {kernel_problem.title}</h2>" in html and "· tiny-add</h2>" not in html
    assert "Wrong answer" in row
    assert (sub.get_absolute_url() in row) is linked
    assert "Attempt 1" in row and f'sub-id">' in row  # the item's own count; the site-wide id only as a label
