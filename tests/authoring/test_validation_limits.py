"""Validate is bounded: one validation at a time per problem (a second click shows the running one), a
per-user limit on how many start in an hour, and every validation message goes at LOW_PRIORITY, the
sweeper's and a retry's re-sends included. Five clicks of a TA's queued 25 gradings ahead of students'
practice (1.1 s became 17.3 s)."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from authoring import actions
from authoring.models import ValidationRun
from grader import actions as grader_actions
from grader import grading, retries, sweeps
from grader.actions import LOW_PRIORITY, RateLimitError
from grader.core.results import JudgeResult
from grader.core.verdicts import Verdict
from grader.models import Purpose, Status, Submission

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch):
    """The grading messages sent after commit: (submission id, priority, queue)."""
    messages = []
    monkeypatch.setattr(grader_actions, "_send",
                        lambda pk, priority=None, exam=False, queue="": messages.append((pk, priority, queue)))
    return messages


def finish(run: ValidationRun) -> None:
    for item in run.items.all():
        grading.finish_grading(item.submission_id, JudgeResult(verdict=Verdict(item.expected)))


def test_a_second_validation_of_a_problem_while_one_runs_is_that_one(problem, people, sent, django_capture_on_commit_callbacks):
    version = problem.versions.get()
    with django_capture_on_commit_callbacks(execute=True):
        first = actions.start_validation(version, people["prof"])
    queued = len(sent)
    assert queued == first.items.count() > 1
    with pytest.raises(actions.ValidationRunningError) as running:
        actions.start_validation(version, people["tara"])  # another member of staff: still one per problem
    assert running.value.run == first and running.value.http_status == 409
    assert ValidationRun.objects.count() == 1 and len(sent) == queued  # nothing more queued
    finish(first)
    assert actions.running_validation(problem) is None
    second = actions.start_validation(version, people["prof"])
    assert second != first


def test_the_validate_button_pressed_again_shows_the_running_run_in_the_readers_language(client_for, problem, sent):
    url = reverse("authoring:validate", args=["PP-A", problem.slug, 1])
    client = client_for("prof")
    first = client.post(url)
    run = ValidationRun.objects.get()
    assert first["Location"] == reverse("authoring:run", args=["PP-A", problem.slug, run.pk])
    for language, says in (("en", "A validation of this problem is still running (version 1)"),
                           ("ko", "이 문제의 검증이 아직 진행 중입니다(버전 1)")):
        again = client.post(url, follow=True, HTTP_ACCEPT_LANGUAGE=language)
        assert again.redirect_chain[-1][0] == first["Location"]
        assert says in again.content.decode()
    assert ValidationRun.objects.count() == 1


def test_a_user_may_start_only_so_many_validations_an_hour(problem, people, settings, sent):
    settings.WARPDRILL_VALIDATIONS_PER_HOUR = 2
    version = problem.versions.get()
    for _ in range(2):
        finish(actions.start_validation(version, people["prof"]))
    with pytest.raises(RateLimitError) as refused:
        actions.start_validation(version, people["prof"])
    assert refused.value.http_status == 429 and 3500 <= refused.value.retry_after <= 3601
    assert "2 validations an hour" in str(refused.value) and "60 minutes" in str(refused.value)
    finish(actions.start_validation(version, people["tara"]))  # another user's own count
    ValidationRun.objects.filter(created_by=people["prof"]).update(created_at=timezone.now() - timedelta(hours=2))
    actions.start_validation(version, people["prof"])  # the hour has passed


def test_the_refusal_is_shown_on_the_editor_in_korean(client_for, problem, people, settings, sent):
    settings.WARPDRILL_VALIDATIONS_PER_HOUR = 1
    finish(actions.start_validation(problem.versions.get(), people["prof"]))
    page = client_for("prof").post(reverse("authoring:validate", args=["PP-A", problem.slug, 1]), follow=True,
                                   HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "한 시간에 검증을 1번까지 시작할 수 있습니다." in page and ValidationRun.objects.count() == 1


def test_validation_goes_at_low_priority_first_and_when_a_sweep_sends_it_again(problem, people, sent, settings,
                                                                                django_capture_on_commit_callbacks):
    """The sweeper re-sends stuck rows by their purpose: a validation at LOW_PRIORITY, a student's at the
    default (it went at the default priority before, ahead of students' work)."""
    with django_capture_on_commit_callbacks(execute=True):
        run = actions.start_validation(problem.versions.get(), people["prof"])
    assert {priority for _pk, priority, _queue in sent} == {LOW_PRIORITY}
    student = Submission.objects.create(user=people["stu"], problem_version=problem.versions.get(), source="x",
                                        status=Status.QUEUED, queued_at=timezone.now())
    long_ago = timezone.now() - timedelta(seconds=settings.WARPDRILL_STUCK_AFTER_S + 60)
    Submission.objects.update(queued_at=long_ago)
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        sweeps.requeue_stuck()
    by_id = {pk: priority for pk, priority, _queue in sent}
    assert by_id[student.pk] is None
    assert {by_id[i.submission_id] for i in run.items.all()} == {LOW_PRIORITY}
    assert Submission.objects.get(pk=student.pk).purpose == Purpose.STUDENT


def test_a_retry_keeps_the_priority_its_message_came_with():
    class Request:
        delivery_info = {"routing_key": "cpu", "priority": LOW_PRIORITY}

    class Task:
        request = Request()

    assert retries.same_priority(Task()) == {"priority": LOW_PRIORITY}
    Task.request.delivery_info = {"routing_key": "cpu"}
    assert retries.same_priority(Task()) == {}
