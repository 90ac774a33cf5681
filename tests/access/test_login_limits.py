"""Brute-force limits: the log-in form and /api/v1/token lock a username out from an address after
AXES_FAILURE_LIMIT wrong passwords (django-axes, counted in the database), say so in the user's
language, and leave every other user, and the same user elsewhere, able to log in.

Every request is a real one through Django's test client (the whole middleware stack, the real
view, the real authentication backends and axes's database tables).
"""
from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

LOCKED_EN = "Too many failed log-in attempts for this account from your network"
LOCKED_KO = "이 네트워크에서 이 계정의 로그인 실패가 너무 많습니다"
WRONG = "not-the-password-123"
PASSWORD = "pass-1234-word"


def post_login(client: Client, username: str, password: str, **extra):
    return client.post("/accounts/login/", {"username": username, "password": password}, **extra)


def test_login_form_locks_out_after_the_failure_limit_and_says_so(make_student):
    """N-1 wrong passwords are 'incorrect'; the Nth locks out with 429 and a message naming the
    cool-off; after that even the right password is refused, and nobody is logged in."""
    make_student("alice", PASSWORD)
    client = Client()
    limit = settings.AXES_FAILURE_LIMIT
    assert limit >= 3
    for _ in range(limit - 1):
        response = post_login(client, "alice", WRONG)
        assert response.status_code == 200
        assert LOCKED_EN not in response.content.decode()
    response = post_login(client, "alice", WRONG)
    assert response.status_code == 429
    html = response.content.decode()
    assert LOCKED_EN in html and f"Try again in {settings.AXES_COOLOFF_TIME.seconds // 60} minutes" in html
    assert 'role="alert"' in html and 'name="password"' in html  # the form, with the message above it

    response = post_login(client, "alice", PASSWORD)
    assert response.status_code == 429 and LOCKED_EN in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_lockout_message_is_translated(make_student):
    """A Korean user reads the lockout in Korean."""
    make_student("minji", PASSWORD)
    client = Client(headers={"accept-language": "ko"})
    for _ in range(settings.AXES_FAILURE_LIMIT):
        response = post_login(client, "minji", WRONG)
    assert response.status_code == 429
    html = response.content.decode()
    assert LOCKED_KO in html and "15분 후에 다시 시도하세요" in html and LOCKED_EN not in html


def test_lockout_is_per_user_and_address(make_student):
    """While alice is locked out from 127.0.0.1, bob logs in from there, and alice from another address."""
    make_student("alice", PASSWORD)
    make_student("bob", PASSWORD)
    for _ in range(settings.AXES_FAILURE_LIMIT):
        post_login(Client(), "alice", WRONG)
    assert post_login(Client(), "alice", PASSWORD).status_code == 429

    bob = Client()
    response = post_login(bob, "bob", PASSWORD)
    assert response.status_code == 302 and bob.session["_auth_user_id"]
    elsewhere = Client()
    response = post_login(elsewhere, "alice", PASSWORD, REMOTE_ADDR="10.9.8.7")
    assert response.status_code == 302 and elsewhere.session["_auth_user_id"]


def test_a_successful_login_forgets_earlier_failures(make_student):
    """Failures below the limit, a correct login, then as many failures again: still not locked out."""
    make_student("alice", PASSWORD)
    limit = settings.AXES_FAILURE_LIMIT
    for _ in range(limit - 1):
        post_login(Client(), "alice", WRONG)
    assert post_login(Client(), "alice", PASSWORD).status_code == 302
    for _ in range(limit - 1):
        assert post_login(Client(), "alice", WRONG).status_code == 200
    assert post_login(Client(), "alice", PASSWORD).status_code == 302


def test_token_endpoint_errors_use_the_api_format_and_lock_out(make_student):
    """/api/v1/token: wrong or missing credentials are 400 {"error": ...}; the Nth failure and every
    attempt after it, the right password included, are 429 {"error": lockout}; bob still gets a token."""
    make_student("alice", PASSWORD)
    make_student("bob", PASSWORD)
    api = APIClient()
    missing = api.post("/api/v1/token", {"username": "alice"}, format="json")
    assert missing.status_code == 400 and missing.json()["error"].startswith("password:"), missing.content
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        response = api.post("/api/v1/token", {"username": "alice", "password": WRONG}, format="json")
        assert response.status_code == 400
        assert set(response.json()) >= {"error"} and "Unable to log in" in response.json()["error"]
    response = api.post("/api/v1/token", {"username": "alice", "password": WRONG}, format="json")
    assert response.status_code == 429 and LOCKED_EN in response.json()["error"], response.content
    response = api.post("/api/v1/token", {"username": "alice", "password": PASSWORD}, format="json")
    assert response.status_code == 429 and set(response.json()) == {"error"}
    assert "token" not in response.json()

    response = api.post("/api/v1/token", {"username": "bob", "password": PASSWORD}, format="json")
    assert response.status_code == 200 and response.json()["token"]
    # The form shares the count: alice is locked out of the web log-in from this address too.
    assert post_login(Client(), "alice", PASSWORD).status_code == 429


def test_token_lockout_is_translated(make_student):
    """The API speaks the request's language too."""
    make_student("minji", PASSWORD)
    api = APIClient(headers={"accept-language": "ko"})
    for _ in range(settings.AXES_FAILURE_LIMIT):
        response = api.post("/api/v1/token", {"username": "minji", "password": WRONG}, format="json")
    assert response.status_code == 429 and LOCKED_KO in response.json()["error"]


def test_client_address_behind_a_trusted_proxy(settings, make_student):
    """Behind one proxy the address is the one nginx appended; what the client wrote further left is
    ignored, so spoofing X-Forwarded-For does not dodge the lockout."""
    settings.WARPDRILL_TRUSTED_PROXIES = 1
    make_student("alice", PASSWORD)
    for i in range(settings.AXES_FAILURE_LIMIT):
        post_login(Client(), "alice", WRONG, HTTP_X_FORWARDED_FOR=f"10.0.0.{i}, 203.0.113.5")
    spoofed = post_login(Client(), "alice", PASSWORD, HTTP_X_FORWARDED_FOR="10.0.0.99, 203.0.113.5")
    assert spoofed.status_code == 429
    other = post_login(Client(), "alice", PASSWORD, HTTP_X_FORWARDED_FOR="198.51.100.7")
    assert other.status_code == 302
