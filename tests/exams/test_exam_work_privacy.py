"""An exam's kernel submissions stay on the exam's pages: with feedback "None until results are released"
no other page, partial, poll or API tells the student their verdict (the tester's #23 "Wrong answer just
now" on the bank problem's page, whose link 404'd), and a reset that detaches them from their item does
not turn them into practice submissions."""
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from exams.actions.attempts import start_attempt, submit_attempt, submit_kernel
from exams.actions.resets import reset_item
from exams.models import Feedback
from grader import actions as grader_actions
from grader import grading as grader_grading
from grader.core.results import JudgeResult
from grader.core.verdicts import Verdict
from grader.models import Submission

from .conftest import EXAM_SOURCE, client_for, release_results

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("not_sent")]
SOURCE = EXAM_SOURCE  # `wrong_in_exam`'s (conftest), which has a marker to look for on pages


@pytest.fixture
def site_left_open(exam):
    """The exam leaves the rest of the site open during an attempt (Exam.lockdown off), so that its pages
    can be read while the attempt runs; with it on (the default) they are closed altogether
    (test_lockdown.py)."""
    exam.lockdown = False
    exam.save(update_fields=["lockdown"])


def assert_nowhere_outside_the_exam(client, sub, problem):
    """Every page and endpoint a student can reach outside the exam leaves the submission out."""
    page = client.get(reverse("problems:detail", args=[problem.slug])).content.decode()
    assert f"#{sub.pk}<" not in page and "Wrong answer" not in page, "listed on the problem page"
    assert "exam-source-marker" not in page, "the editor reopened the exam source"
    reopened = client.get(reverse("problems:detail", args=[problem.slug]) + f"?from={sub.pk}").content.decode()
    assert "exam-source-marker" not in reopened
    listing = client.get(reverse("problems:list")).content.decode()
    assert "status-tried" not in listing and "status-solved" not in listing, "the problem list marks it"
    mine = client.get(reverse("grader:list")).content.decode()
    assert f"#{sub.pk}<" not in mine and "Wrong answer" not in mine, "listed in My submissions"
    assert client.get(reverse("grader:submission", args=[sub.pk])).status_code == 404
    assert client.get(reverse("grader:submission-live", args=[sub.pk])).status_code == 404
    api_list = client.get("/api/v1/submissions").json()["submissions"]
    assert sub.pk not in [s["id"] for s in api_list], "listed by the API (and the CLI)"
    assert client.get(f"/api/v1/submissions/{sub.pk}").status_code == 404
    assert client.get(reverse("playground:home") + f"?from={sub.pk}").status_code == 404


@pytest.mark.usefixtures("site_left_open")
def test_no_feedback_exam_submission_shows_nowhere_outside_the_exam(wrong_in_exam, people, kernel_problem):
    item, sub = wrong_in_exam
    alice = client_for(people["alice"])
    assert_nowhere_outside_the_exam(alice, sub, kernel_problem)
    # The exam's own page has it, without the verdict.
    page = alice.get(reverse("exams:kernel", args=[item.attempt.exam_id, item.number])).content.decode()
    assert f"#{sub.pk}" in page and "Graded; the verdict is shown with the results" in page
    assert "Wrong answer" not in page


def test_a_practice_submission_is_still_listed(wrong_in_exam, people, kernel_problem):
    """The same problem practised outside the exam: listed on its page, in My submissions and by the API."""
    from exams.actions.attempts import submit_attempt

    item, exam_sub = wrong_in_exam
    submit_attempt(item.attempt_id, people["alice"])  # practice of the exam's problem waits for its end
    practice = grader_actions.create_submission(people["alice"], kernel_problem, SOURCE)
    alice = client_for(people["alice"])
    page = alice.get(reverse("problems:detail", args=[kernel_problem.slug])).content.decode()
    assert f"#{practice.pk}<" in page and f"#{exam_sub.pk}<" not in page
    assert [s["id"] for s in alice.get("/api/v1/submissions").json()["submissions"]] == [practice.pk]


@pytest.mark.usefixtures("site_left_open")
def test_a_reset_keeps_detached_submissions_out_of_practice(wrong_in_exam, people, kernel_problem):
    """A TA's reset detaches the item's submissions (exam_item None): they stay exam work, hidden."""
    item, sub = wrong_in_exam
    reset_item(item.pk, people["tom"])
    sub.refresh_from_db()
    assert sub.exam_item_id is None and sub.exam_id == item.attempt.exam_id
    assert_nowhere_outside_the_exam(client_for(people["alice"]), sub, kernel_problem)
    # The course's staff still read it.
    assert client_for(people["tom"]).get(reverse("grader:submission", args=[sub.pk])).status_code == 200


def test_released_results_open_the_submission_page_but_practice_lists_still_leave_it_out(
        wrong_in_exam, exam, people, kernel_problem):
    item, sub = wrong_in_exam
    submit_attempt(item.attempt_id, people["alice"])  # results show once no attempt runs (exams.release)
    release_results(exam)
    alice = client_for(people["alice"])
    assert alice.get(reverse("grader:submission", args=[sub.pk])).status_code == 200
    assert alice.get(f"/api/v1/submissions/{sub.pk}").json()["verdict"] == "WRONG_ANSWER"
    page = alice.get(reverse("problems:detail", args=[kernel_problem.slug])).content.decode()
    assert f"#{sub.pk}<" not in page


def test_problem_set_status_ignores_exam_work(wrong_in_exam, course, people, kernel_problem):
    """A problem set holding the exam's problem does not mark it "tried" from the exam's submission."""
    from homework.models import ProblemSet, ProblemSetItem
    from homework.services import ItemStatus, item_rows

    now = timezone.now()
    problem_set = ProblemSet.objects.create(course=course, title_en="Week 1", opens_at=now - timedelta(days=1),
                                            due_at=now + timedelta(days=1))
    ProblemSetItem.objects.create(problem_set=problem_set, problem=kernel_problem)
    [row] = item_rows(problem_set, people["alice"])
    assert row.status == ItemStatus.NOT_STARTED


def test_migration_marks_attached_and_detached_exam_submissions(wrong_in_exam, people):
    """grader 0012 fills `exam` for submissions answering an item and for those a reset detached
    (named by the reset's timeline event)."""
    import importlib

    from django.apps import apps

    item, sub = wrong_in_exam
    second = submit_kernel(item, people["alice"], SOURCE)
    reset_item(item.pk, people["tom"])
    third = submit_kernel(item, people["alice"], SOURCE)
    Submission.objects.update(exam=None)
    migration = importlib.import_module("grader.migrations.0012_submission_exam")
    migration.mark_exam_work(apps, None)
    exam_id = item.attempt.exam_id
    assert dict(Submission.objects.values_list("pk", "exam_id")) == {sub.pk: exam_id, second.pk: exam_id,
                                                                    third.pk: exam_id}


@pytest.mark.usefixtures("site_left_open")
def test_practising_the_exams_problem_during_the_attempt_is_refused(wrong_in_exam, exam, people, kernel_problem):
    """While the attempt is open, the bank problem that is its kernel question takes no practice
    submission (its verdict would tell what the exam keeps back): the page says where to answer it,
    a POST and the API are refused with nothing saved; after the attempt it is open again."""
    from exams.actions.attempts import submit_attempt

    item, _ = wrong_in_exam
    alice = client_for(people["alice"])
    url = reverse("problems:detail", args=[kernel_problem.slug])
    exam_url = reverse("exams:kernel", args=[exam.pk, item.number])
    page = alice.get(url).content.decode()
    assert 'id="in-exam-notice"' in page and f'href="{exam_url}"' in page
    before = Submission.objects.count()
    refused = alice.post(url, {"source": SOURCE})
    assert refused.status_code == 409 and "exam in progress" in refused.content.decode()
    api = alice.post(f"/api/v1/problems/{kernel_problem.slug}/submissions", {"source": SOURCE},
                     content_type="application/json")
    assert api.status_code == 409 and api.json()["exam_url"] == exam_url
    assert Submission.objects.count() == before
    korean = alice.get(url, HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert 'id="in-exam-notice"' in korean and "exam in progress" not in korean

    submit_attempt(item.attempt_id, people["alice"])
    assert 'id="in-exam-notice"' not in alice.get(url).content.decode()
    assert alice.post(url, {"source": SOURCE}).status_code == 302
    # Bob, in the same course but not taking the exam, practises it freely.
    assert client_for(people["bob"]).post(url, {"source": SOURCE}).status_code == 302


def test_a_no_feedback_exams_live_row_does_not_show_the_grading_stages(exam, people, kernel_problem):
    """With no feedback until the results, the row says only "being graded" while it is: running test
    k of n or the check pass would tell a failure by when they stop. A compile error is said, with
    the compiler's messages, in every feedback mode (it costs no attempt; the messages say nothing
    of the hidden tests); any other verdict waits for the results."""
    from grader.core.results import TestResult as CaseResult

    exam.feedback = Feedback.NONE
    exam.save(update_fields=["feedback"])
    attempt = start_attempt(exam, people["alice"])
    item = attempt.items.get(kind="kernel")
    sub = submit_kernel(item, people["alice"], SOURCE)
    alice = client_for(people["alice"])
    url = reverse("exams:kernel_live", args=[exam.pk, item.number, sub.pk])
    assert 'data-status="QUEUED"' in alice.get(url).content.decode()
    grader_grading.start_grading(sub.pk, "emulator")
    compiling = alice.get(url).content.decode()
    grader_grading.record_progress(sub.pk, "running", 1, 2)
    running = alice.get(url).content.decode()
    for html in (compiling, running):
        assert 'data-status="GRADING"' in html and "Being graded" in html, html
        assert "Compiling" not in html and "Running test" not in html and "COMPILING" not in html
    korean = alice.get(url, HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "Being graded" not in korean
    grader_grading.finish_grading(sub.pk, JudgeResult(verdict=Verdict.COMPILE_ERROR,
                                                      tests=[CaseResult(name="t", sample=True, verdict=Verdict.ACCEPTED)]))
    graded = alice.get(url).content.decode()
    assert 'data-status="GRADED"' in graded and "Compile error" in graded and "No attempt used" in graded
    assert "Accepted" not in graded


def test_an_exam_with_submissions_cannot_be_deleted(wrong_in_exam, exam, people):
    """Deleting the exam would have left its submissions as practice work (exam None): it is refused,
    in the code and on the admin's delete page, and the submission keeps its exam."""
    from django.contrib.auth.models import User
    from django.db.models import ProtectedError

    _, sub = wrong_in_exam
    with pytest.raises(ProtectedError):
        exam.delete()
    admin = User.objects.create_superuser("root", "root@example.org", "pass-1234-word")
    page = client_for(admin).post(reverse("admin:exams_exam_delete", args=[exam.pk]), {"post": "yes"})
    assert page.status_code == 200 and "would require deleting the following protected related objects" in \
        page.content.decode()
    sub.refresh_from_db()
    assert sub.exam_id == exam.pk and type(exam).objects.filter(pk=exam.pk).exists()


def test_released_results_keep_the_verdict_hidden_while_another_attempt_runs(wrong_in_exam, exam, people):
    """Released while bob still answers (exams.release): alice's exam submission stays hidden from her, on
    its page and in the API, until bob's attempt ends."""
    item, sub = wrong_in_exam
    submit_attempt(item.attempt_id, people["alice"])
    bob = start_attempt(exam, people["bob"])
    release_results(exam)
    alice = client_for(people["alice"])
    assert alice.get(reverse("grader:submission", args=[sub.pk])).status_code == 404
    assert alice.get(f"/api/v1/submissions/{sub.pk}").status_code == 404
    submit_attempt(bob.pk, people["bob"])
    assert alice.get(reverse("grader:submission", args=[sub.pk])).status_code == 200
