"""Abuse limits: submissions per user per minute and the size of a source, with clear messages on the
page and in the API; parallel requests cannot slip past the rate limit; oversized bodies get a
clear JSON error instead of a bare 400 page.
"""
from __future__ import annotations

import threading

import pytest
from django.db import connection, connections
from django.test import override_settings
from rest_framework.test import APIClient

from grader.models import Submission

from .conftest import body
from .test_ownership import SOURCE

pytestmark = pytest.mark.django_db

SUBMIT = "/api/v1/problems/canary-add/submissions"


@override_settings(WARPDRILL_SUBMISSIONS_PER_MINUTE=2)
def test_rate_limit_is_per_user_with_a_clear_message(canary, page, api, django_capture_on_commit_callbacks):
    """Alice's third submission in a minute is refused (429, page and API, with the limit named);
    Bob is not affected by Alice's limit."""
    with django_capture_on_commit_callbacks(execute=False):
        assert api("alice").post(SUBMIT, {"source": SOURCE}, format="json").status_code == 201
        assert page("alice").post("/problems/canary-add/", {"source": SOURCE}).status_code == 302
        refused = api("alice").post(SUBMIT, {"source": SOURCE}, format="json")
        refused_page = page("alice").post("/problems/canary-add/", {"source": SOURCE})
        assert api("bob").post(SUBMIT, {"source": SOURCE}, format="json").status_code == 201
    assert refused.status_code == 429 and "2 times a minute" in refused.json()["error"]
    assert refused_page.status_code == 429 and "2 times a minute" in body(refused_page)
    assert Submission.objects.filter(user__username="alice").count() == 2


@pytest.mark.django_db(transaction=True)
@override_settings(WARPDRILL_SUBMISSIONS_PER_MINUTE=3)
def test_parallel_submissions_cannot_pass_the_rate_limit(canary, users, monkeypatch):
    """Eight submissions of one user at the same moment: exactly three are accepted."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (row locks); SQLite runs one writer at a time anyway")
    from grader import actions

    monkeypatch.setattr(actions, "enqueue", lambda submission: None)  # only the counting is under test
    start, codes = threading.Barrier(8), []

    def one():
        client = APIClient()
        client.force_authenticate(users["alice"])
        start.wait()
        codes.append(client.post(SUBMIT, {"source": SOURCE}, format="json").status_code)
        connections.close_all()

    threads = [threading.Thread(target=one) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(codes) == [201] * 3 + [429] * 5
    assert Submission.objects.filter(user=users["alice"]).count() == 3


@override_settings(WARPDRILL_MAX_SOURCE_BYTES=1024)
def test_source_size_limit_with_a_clear_message(canary, page, api):
    """A source over the limit is refused before anything is saved; the page keeps the source."""
    big = SOURCE + "// " + "x" * 1100 + "\n"
    response = api("alice").post(SUBMIT, {"source": big}, format="json")
    assert response.status_code == 400 and "larger than 1 KiB" in response.json()["error"]
    response = page("alice").post("/problems/canary-add/", {"source": big})
    assert response.status_code == 400 and "larger than 1 KiB" in body(response)
    assert "x" * 1100 in body(response)  # the student's code is kept in the editor
    assert Submission.objects.count() == 0


def test_request_body_over_djangos_limit_is_a_clear_json_error(canary, api):
    """A body larger than DATA_UPLOAD_MAX_MEMORY_SIZE gets 413 with a JSON error naming the limit,
    not Django's bare 'Bad Request (400)' page."""
    response = api("alice").post(SUBMIT, {"source": "x" * 3_000_000}, format="json")
    assert response.status_code == 413
    assert "KiB" in response.json()["error"]
    assert Submission.objects.count() == 0
