"""Live status of a kernel question inside an exam: QUEUED -> COMPILING -> RUNNING -> verdict, polled
as a conditional GET that costs no SQL while nothing changed (grader.live)."""
import pytest
from django.urls import reverse

from exams.actions.attempts import start_attempt, submit_kernel
from exams.models import Feedback
from grader import grading as grader_grading
from grader.core.results import JudgeResult
from grader.core.results import TestResult as CaseResult
from grader.core.verdicts import Verdict

from .conftest import client_for

pytestmark = pytest.mark.django_db
SOURCE = "__global__ void add(const float* a, const float* b, float* c, int n) { }\n"


@pytest.fixture
def submitted(exam, people, not_sent):
    """Alice's attempt with one kernel submission, QUEUED: (item, submission)."""
    attempt = start_attempt(exam, people["alice"])
    item = attempt.items.get(kind="kernel")
    return item, submit_kernel(item, people["alice"], SOURCE)


def live_url(item, sub):
    return reverse("exams:kernel_live", args=[item.attempt.exam_id, item.number, sub.pk])


def test_kernel_page_polls_each_submission_until_its_verdict(submitted, people, django_assert_num_queries):
    item, sub = submitted
    alice = client_for(people["alice"])
    page = alice.get(reverse("exams:kernel", args=[item.attempt.exam_id, item.number])).content.decode()
    assert f'hx-get="{live_url(item, sub)}"' in page and "Waiting for a grader" in page
    import re

    # The clock starts from the server's time on this page too (an empty data-server-now read NaN:NaN:NaN).
    assert re.search(r'data-server-now="\d{4}-\d\d-\d\dT[^"]+"', page), "no server time for the clock"

    queued = alice.get(live_url(item, sub))
    assert queued.status_code == 200 and 'data-status="QUEUED"' in queued.content.decode()
    etag = queued["ETag"]
    with django_assert_num_queries(0):
        again = alice.get(live_url(item, sub), HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b""

    grader_grading.start_grading(sub.pk, "emulator")
    compiling = alice.get(live_url(item, sub), HTTP_IF_NONE_MATCH=etag)
    assert compiling.status_code == 200 and "Compiling your kernel" in compiling.content.decode()
    grader_grading.record_progress(sub.pk, "running", 1, 2)
    running = alice.get(live_url(item, sub), HTTP_IF_NONE_MATCH=compiling["ETag"])
    assert running.status_code == 200 and "Running test 2 of 2" in running.content.decode()
    tests = [CaseResult(name=f"t{i}", sample=False, verdict=Verdict.ACCEPTED) for i in range(2)]
    grader_grading.finish_grading(sub.pk, JudgeResult(verdict=Verdict.ACCEPTED, tests=tests))
    graded = alice.get(live_url(item, sub), HTTP_IF_NONE_MATCH=running["ETag"])
    html = graded.content.decode()
    assert graded.status_code == 200 and 'data-status="GRADED"' in html and "hx-get" not in html
    assert "Accepted" in html  # the exam's feedback is "verdict"
    with django_assert_num_queries(0):
        assert alice.get(live_url(item, sub), HTTP_IF_NONE_MATCH=graded["ETag"]).status_code == 304


def test_no_feedback_exam_hides_the_verdict_in_the_live_row(submitted, exam, people):
    item, sub = submitted
    exam.feedback = Feedback.NONE
    exam.save(update_fields=["feedback"])
    grader_grading.start_grading(sub.pk, "emulator")
    grader_grading.finish_grading(sub.pk, JudgeResult(verdict=Verdict.WRONG_ANSWER))
    html = client_for(people["alice"]).get(live_url(item, sub)).content.decode()
    assert "Graded; the verdict is shown with the results" in html and "Wrong answer" not in html


def test_another_student_gets_404_even_with_the_owners_etag(submitted, people):
    item, sub = submitted
    etag = client_for(people["alice"]).get(live_url(item, sub))["ETag"]
    bob = client_for(people["bob"])
    assert bob.get(live_url(item, sub), HTTP_IF_NONE_MATCH=etag).status_code == 404
    assert bob.get(live_url(item, sub), HTTP_IF_NONE_MATCH="*").status_code == 404


def test_korean_live_row(submitted, people):
    item, sub = submitted
    html = client_for(people["alice"]).get(live_url(item, sub), HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "Waiting for a grader" not in html and "#" in html


def test_the_submitted_note_is_part_of_the_live_row_and_goes_with_the_verdict(exam, people, not_sent):
    """After a submit the "being graded" note is inside the submission's live row (not a page banner
    that outlives the verdict); the graded row no longer carries it. Rows read "Attempt n" (the
    item's own count), the site-wide id only as a small label."""
    attempt = start_attempt(exam, people["alice"])
    item = attempt.items.get(kind="kernel")
    alice = client_for(people["alice"])
    url = reverse("exams:kernel", args=[exam.pk, item.number])
    for _ in range(2):
        assert alice.post(url, {"source": SOURCE}).status_code == 302
    first, second = item.submissions.order_by("created_at", "pk")
    page = alice.get(url).content.decode()
    note = "Submitted: it is being graded on the exam queue."
    assert page.count(note) == 2 and 'class="alert' not in page.split('id="main"')[0]
    row = page.split(f'id="exam-sub-{second.pk}"')[1].split("</li>")[0]
    assert "Attempt 2" in row and note in row and f'sub-id">#{second.pk}<' in row
    tests = [CaseResult(name="t0", sample=False, verdict=Verdict.ACCEPTED)]
    grader_grading.start_grading(second.pk, "emulator")
    grader_grading.finish_grading(second.pk, JudgeResult(verdict=Verdict.ACCEPTED, tests=tests))
    graded = alice.get(live_url(item, second)).content.decode()
    assert "Accepted" in graded and note not in graded and "Attempt 2" in graded
    assert "Attempt 1" in alice.get(live_url(item, first)).content.decode()


def test_a_young_submissions_row_is_polled_every_quarter_second_then_every_second(submitted, people):
    """The exam's kernel row follows the practice page's schedule (grader.views.live_poll_interval): a
    trivial kernel graded in 0.3 s showed on the exam page only at the first poll, 3 s after the submit
    (bench/exam_load.py, 2026-12-05: verdict 0.3 s, seen 3.1 s at the median). Once the submission is
    older, a queued row is polled every second."""
    from datetime import timedelta

    from grader.models import Submission

    item, sub = submitted
    alice = client_for(people["alice"])
    young = alice.get(live_url(item, sub))
    assert 'hx-trigger="every 0.25s"' in young.content.decode()
    page = alice.get(reverse("exams:kernel", args=[item.attempt.exam_id, item.number])).content.decode()
    assert 'hx-trigger="every 0.25s"' in page
    Submission.objects.filter(pk=sub.pk).update(created_at=sub.created_at - timedelta(minutes=1))
    old = alice.get(live_url(item, sub))
    assert 'hx-trigger="every 1s"' in old.content.decode()
