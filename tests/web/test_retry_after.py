"""Rate limits say how long to wait: the submission limit's 429 counts the seconds until the next
submission is allowed (message on the page and in the API, `Retry-After` in the API), and the
token endpoint's lockout sends the cool-off as `Retry-After`."""
from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from grader import actions
from grader.models import Submission

from .conftest import SOURCE

pytestmark = pytest.mark.django_db

SUBMIT = "/api/v1/problems/{slug}/submissions"


def age(submissions, seconds: float) -> None:
    """Move the submissions' created_at `seconds` into the past."""
    Submission.objects.filter(pk__in=[s.pk for s in submissions]).update(
        created_at=timezone.now() - timedelta(seconds=seconds))


@override_settings(WARPDRILL_SUBMISSIONS_PER_MINUTE=2)
def test_retry_after_counts_to_the_oldest_submission_in_the_window(problem, alice, make_submission):
    """With the limit at 2, submissions 50.5 s and 10 s before `now`: the older leaves the window
    9.5 s later, so the wait is 10 s; one second later, 9 s; just past it, nothing is refused."""
    older, newer = make_submission(alice, problem), make_submission(alice, problem)
    now = timezone.now()
    Submission.objects.filter(pk=older.pk).update(created_at=now - timedelta(seconds=50.5))
    Submission.objects.filter(pk=newer.pk).update(created_at=now - timedelta(seconds=10))
    with pytest.raises(actions.RateLimitError) as refused:
        actions.check_rate_limit(alice, now=now)
    assert refused.value.retry_after == 10
    assert str(refused.value) == "You can submit 2 times a minute. Try again in 10 seconds."
    with pytest.raises(actions.RateLimitError) as refused:
        actions.check_rate_limit(alice, now=now + timedelta(seconds=1))
    assert refused.value.retry_after == 9
    actions.check_rate_limit(alice, now=now + timedelta(seconds=9.6))  # allowed: no exception


@override_settings(WARPDRILL_SUBMISSIONS_PER_MINUTE=1)
def test_retry_after_of_one_second_is_singular(problem, alice, make_submission):
    """A wait of one second reads "1 second", not "1 seconds"."""
    submission = make_submission(alice, problem)
    now = timezone.now()
    Submission.objects.filter(pk=submission.pk).update(created_at=now - timedelta(seconds=59.5))
    with pytest.raises(actions.RateLimitError) as refused:
        actions.check_rate_limit(alice, now=now)
    assert refused.value.retry_after == 1
    assert str(refused.value) == "You can submit 1 time a minute. Try again in 1 second."


@override_settings(WARPDRILL_SUBMISSIONS_PER_MINUTE=2)
def test_api_429_has_retry_after_and_says_the_seconds(problem, alice, alice_api, make_submission):
    """The API's 429 carries `Retry-After: <seconds>` and the same number in its message; nothing is saved."""
    submissions = [make_submission(alice, problem), make_submission(alice, problem)]
    age(submissions, 45.5)  # the older leaves the window in 14.5 s (less the request's own time)
    response = alice_api.post(SUBMIT.format(slug="tiny-add"), {"source": SOURCE}, format="json")
    assert response.status_code == 429
    assert response["Retry-After"] == "15"
    assert response.json()["error"] == "You can submit 2 times a minute. Try again in 15 seconds."
    assert Submission.objects.count() == 2


@override_settings(WARPDRILL_SUBMISSIONS_PER_MINUTE=1)
def test_page_429_says_the_seconds(problem, alice, alice_client, make_submission):
    """The problem page's 429 says how many seconds to wait, with the source kept."""
    age([make_submission(alice, problem)], 30.5)
    response = alice_client.post(reverse("problems:detail", args=[problem.slug]), {"source": SOURCE})
    assert response.status_code == 429 and response["Retry-After"] == "30"
    assert "You can submit 1 time a minute. Try again in 30 seconds." in response.content.decode()


def test_other_errors_have_no_retry_after(problem, alice_api):
    """A 400 is not something to retry later: no `Retry-After`."""
    response = alice_api.post(SUBMIT.format(slug="tiny-add"), {"source": SOURCE, "launch": {"block": "1"}},
                              format="json")
    assert response.status_code == 400 and not response.has_header("Retry-After")


def test_token_lockout_has_retry_after_of_the_cool_off(db):
    """/api/v1/token's lockout 429 sends the cool-off in seconds as `Retry-After` (the message says
    it in minutes)."""
    User.objects.create_user(username="carol", password="pass-1234-word")
    api = APIClient()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        response = api.post("/api/v1/token", {"username": "carol", "password": "wrong-pass-999"}, format="json")
    assert response.status_code == 429
    assert response["Retry-After"] == str(int(settings.AXES_COOLOFF_TIME.total_seconds()))
