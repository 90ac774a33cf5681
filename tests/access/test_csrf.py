"""CSRF: every form POST and every cookie-authenticated API write without the token is refused.

These clients enforce CSRF checks as a browser-facing server does (Django's test client skips
them by default). API calls authenticated by a token carry no ambient credentials and need none.
"""
from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token

from grader.models import Submission
from practice import actions as practice
from practice.models import QuestionAttempt

from .test_ownership import SOURCE

pytestmark = pytest.mark.django_db

SUBMIT = "/api/v1/problems/canary-add/submissions"


def strict(user=None) -> Client:
    client = Client(enforce_csrf_checks=True)
    if user is not None:
        client.force_login(user)
    return client


def token_of(client: Client, url: str) -> str:
    """GET a page so that the CSRF cookie is set; return the token a form on it would send."""
    assert client.get(url).status_code == 200
    return client.cookies["csrftoken"].value


def test_submit_form_needs_the_token(canary, users, django_capture_on_commit_callbacks):
    """POST to the problem page without the token: 403 and nothing saved; with it: redirect."""
    client = strict(users["alice"])
    assert client.post("/problems/canary-add/", {"source": SOURCE}).status_code == 403
    assert Submission.objects.count() == 0
    token = token_of(client, "/problems/canary-add/")
    with django_capture_on_commit_callbacks(execute=False):
        response = client.post("/problems/canary-add/", {"source": SOURCE, "csrfmiddlewaretoken": token})
    assert response.status_code == 302 and Submission.objects.count() == 1


def test_api_with_the_session_cookie_needs_the_token(canary, users, django_capture_on_commit_callbacks):
    """A logged-in browser's cookie alone cannot submit through the API: 403 without X-CSRFToken."""
    client = strict(users["alice"])
    response = client.post(SUBMIT, {"source": SOURCE}, content_type="application/json")
    assert response.status_code == 403 and "CSRF" in response.json()["error"]
    assert Submission.objects.count() == 0
    token = token_of(client, "/problems/canary-add/")
    with django_capture_on_commit_callbacks(execute=False):
        response = client.post(SUBMIT, {"source": SOURCE}, content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 201


def test_api_with_a_token_needs_no_csrf_token(canary, users, django_capture_on_commit_callbacks):
    """Token authentication is not ambient (a page on another site cannot send it): no CSRF check."""
    key = Token.objects.create(user=users["alice"]).key
    with django_capture_on_commit_callbacks(execute=False):
        response = strict().post(SUBMIT, {"source": SOURCE}, content_type="application/json",
                                 HTTP_AUTHORIZATION=f"Token {key}")
    assert response.status_code == 201


@pytest.mark.parametrize("url, data", [
    ("/accounts/login/", {"username": "alice", "password": "pass-1234-word"}),
    ("/accounts/signup/", {"username": "mallory", "password1": "Long-pass-1234", "password2": "Long-pass-1234"}),
    ("/i18n/setlang/", {"language": "ko", "next": "/"}),
])
def test_anonymous_forms_need_the_token(users, url, data):
    """Login (login CSRF), sign-up and the language switch refuse a POST without the token."""
    from django.contrib.auth.models import User

    response = strict().post(url, data)
    assert response.status_code == 403
    assert not User.objects.filter(username="mallory").exists()


def test_logged_in_forms_need_the_token(users):
    """Log out, start a practice question and answer one: 403 without the token, nothing changes."""
    client = strict(users["alice"])
    assert client.post("/accounts/logout/").status_code == 403
    assert client.get("/practice/").status_code == 200  # still logged in
    assert client.post("/practice/start/", {"topic": practice.MIXED, "difficulty": "1"}).status_code == 403
    variant = practice.next_variant(users["alice"], practice.MIXED, 1)
    fields = practice.answer_fields(variant)
    answer = {f"answer-{f.name}": (f.choices[0].key if f.choices else "1") for f in fields}
    assert client.post(f"/practice/q/{variant.pk}/", answer).status_code == 403
    assert QuestionAttempt.objects.count() == 0
