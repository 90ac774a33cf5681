"""Polling a submission through the API is a conditional GET: an ETag, and 304 while nothing changed.

GET /api/v1/submissions/<id> carries a strong ETag derived from what its JSON changes with (status,
progress, verdict, the times of grading) and from who reads it; If-None-Match with the current one
is answered 304 with no body. Authentication and ownership come first: an anonymous poll is a 401
and another student's submission a 404 whatever validator is sent. The last test polls a submission
graded by a real Celery worker process.
"""
from __future__ import annotations

import time

import pytest
from django.contrib.auth.models import Group
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from grader import actions
from grader import grading
from grader import rejudging
from grader.core.results import JudgeResult
from grader.core.verdicts import Verdict
from grader.models import Submission
from problems.core.package import parse_package
from problems.models import Problem
from problems.services import import_package
from tests.packages import tiny_package_files

SOLUTION = tiny_package_files()["solution.cu"]


@pytest.fixture
def tiny_problem(db):
    import_package(parse_package(tiny_package_files()))
    return Problem.objects.get(slug="tiny-add")


def token_client(user) -> APIClient:
    """A client sending `Authorization: Token <key>`, as scripts do."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


@pytest.fixture
def alice(make_student):
    return make_student("alice")


@pytest.fixture
def submission(tiny_problem, alice, django_capture_on_commit_callbacks) -> Submission:
    """Alice's QUEUED submission (its queue message captured, not sent)."""
    with django_capture_on_commit_callbacks(execute=False):
        return actions.create_submission(alice, tiny_problem, SOLUTION)


def url(pk: int) -> str:
    return f"/api/v1/submissions/{pk}"


def test_poll_gets_an_etag_and_then_304_without_a_body(submission, alice):
    """The first poll has a strong ETag; the next one sending it back gets 304, empty, same ETag."""
    client = token_client(alice)
    first = client.get(url(submission.pk))
    assert first.status_code == 200 and first.json()["status"] == "QUEUED"
    etag = first["ETag"]
    assert etag.startswith('"') and etag.endswith('"') and not etag.startswith("W/")
    assert "private" in first["Cache-Control"] and "no-cache" in first["Cache-Control"]

    again = client.get(url(submission.pk), HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == etag and "no-cache" in again["Cache-Control"]
    # Among other validators, and on HEAD, too.
    assert client.get(url(submission.pk), HTTP_IF_NONE_MATCH=f'"other", {etag}').status_code == 304
    assert client.head(url(submission.pk), HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert client.get(url(submission.pk), HTTP_IF_NONE_MATCH='"stale"').status_code == 200


def test_unchanged_poll_costs_no_sql(submission, alice, django_assert_num_queries):
    """The 304 comes from the live cache before authentication: not even the token is looked up."""
    client = token_client(alice)
    etag = client.get(url(submission.pk))["ETag"]
    with django_assert_num_queries(0):
        assert client.get(url(submission.pk), HTTP_IF_NONE_MATCH=etag).status_code == 304
    grading.start_grading(submission.pk, "emulator")
    changed = client.get(url(submission.pk), HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed.json()["status"] == "COMPILING" and changed["ETag"] != etag


def test_each_change_a_worker_writes_gives_a_new_body_and_etag(submission, alice):
    """Claim, progress, verdict: the poll with the previous ETag gets 200 with the new state each time."""
    client = token_client(alice)
    etag = client.get(url(submission.pk))["ETag"]
    seen = {etag}

    def poll_changed() -> dict:
        nonlocal etag
        response = client.get(url(submission.pk), HTTP_IF_NONE_MATCH=etag)
        assert response.status_code == 200, response.status_code
        etag = response["ETag"]
        assert etag not in seen
        seen.add(etag)
        assert client.get(url(submission.pk), HTTP_IF_NONE_MATCH=etag).status_code == 304
        return response.json()

    grading.start_grading(submission.pk, "emulator")
    assert poll_changed()["status"] == "COMPILING"
    grading.record_progress(submission.pk, "running", 1, 2)
    assert poll_changed()["progress"] == {"done": 1, "total": 2}
    grading.record_progress(submission.pk, "running", 2, 2)
    assert poll_changed()["progress"] == {"done": 2, "total": 2}
    grading.finish_grading(submission.pk, JudgeResult(verdict=Verdict.ACCEPTED, message="All tests passed."))
    data = poll_changed()
    assert data["status"] == "GRADED" and data["verdict"] == "ACCEPTED"

    # A rejudge that ends with the same verdict still gives a new result: a new ETag.
    rejudging.rejudge([submission.pk])
    assert poll_changed()["status"] == "QUEUED"
    grading.start_grading(submission.pk, "emulator")
    grading.finish_grading(submission.pk, JudgeResult(verdict=Verdict.ACCEPTED, message="All tests passed."))
    assert poll_changed()["verdict"] == "ACCEPTED"


def test_another_students_etag_or_star_is_still_a_404(submission, alice, make_student):
    """Bob sending Alice's ETag (or `*`) gets the 404 of a missing id: a 304 would confirm the id exists."""
    etag = token_client(alice).get(url(submission.pk))["ETag"]
    bob = token_client(make_student("bob"))
    for validator in (etag, "*"):
        theirs = bob.get(url(submission.pk), HTTP_IF_NONE_MATCH=validator)
        missing = bob.get(url(submission.pk + 1000), HTTP_IF_NONE_MATCH=validator)
        assert theirs.status_code == missing.status_code == 404
        assert theirs.json() == missing.json() == {"error": "Not found."}
        assert "ETag" not in theirs


def test_anonymous_or_bad_token_poll_is_401_even_with_the_current_etag(submission, alice):
    """Authentication comes before the validator: no 304 without valid credentials."""
    etag = token_client(alice).get(url(submission.pk))["ETag"]
    anonymous = APIClient().get(url(submission.pk), HTTP_IF_NONE_MATCH=etag)
    assert anonymous.status_code == 401 and anonymous["WWW-Authenticate"] == "Token"
    assert "Authentication credentials were not provided" in anonymous.json()["error"]
    bad = APIClient()
    bad.credentials(HTTP_AUTHORIZATION="Token not-a-real-key")
    assert bad.get(url(submission.pk), HTTP_IF_NONE_MATCH=etag).status_code == 401


def test_instructor_language_and_format_have_their_own_etags(submission, alice, make_student):
    """An instructor's JSON shows hidden tests' details, and a Korean reader's describes them in
    Korean: neither may revalidate the student's English copy. The browsable API's HTML page has
    no ETag (it differs on every request)."""
    client = token_client(alice)
    english = client.get(url(submission.pk), HTTP_ACCEPT_LANGUAGE="en")["ETag"]
    korean = client.get(url(submission.pk), HTTP_ACCEPT_LANGUAGE="ko")["ETag"]
    assert english != korean
    assert client.get(url(submission.pk), HTTP_ACCEPT_LANGUAGE="ko", HTTP_IF_NONE_MATCH=english).status_code == 200

    ivy = make_student("ivy")
    ivy.groups.add(Group.objects.get_or_create(name="Instructor")[0])
    instructor = token_client(ivy).get(url(submission.pk), HTTP_ACCEPT_LANGUAGE="en")
    assert instructor.status_code == 200 and instructor["ETag"] != english

    html = client.get(url(submission.pk), HTTP_ACCEPT="text/html")
    assert html.status_code == 200 and "ETag" not in html


@pytest.mark.django_db(transaction=True)
def test_polling_a_submission_graded_by_a_real_worker(tiny_problem, alice, celery_worker_process):
    """Poll with If-None-Match as a client would: every 304 keeps the last ETag; the last 200 is the
    verdict, and polls after it are all 304. (A 200 may repeat the caller's ETag: while a writer
    replaces a state token the entry is briefly absent and the view answers in full, with the same
    state's token; the body is current either way.)"""
    client = token_client(alice)
    created = client.post("/api/v1/problems/tiny-add/submissions", {"source": SOLUTION}, format="json")
    assert created.status_code == 201, created.content
    pk = created.json()["id"]
    etag, body, states, not_modified = None, None, [], 0
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (body and body["status"] == "GRADED"):
        response = client.get(url(pk), **({"HTTP_IF_NONE_MATCH": etag} if etag else {}))
        if response.status_code == 304:
            assert response["ETag"] == etag
            not_modified += 1
        else:
            assert response.status_code == 200 and response["ETag"]
            etag, body = response["ETag"], response.json()
            states.append((body["status"], body["progress"]["done"]))
        time.sleep(0.05)
    assert body and body["verdict"] == "ACCEPTED", (states, celery_worker_process.output()[-3000:])
    for _ in range(3):
        response = client.get(url(pk), HTTP_IF_NONE_MATCH=etag)
        assert response.status_code == 304 and response.content == b""
