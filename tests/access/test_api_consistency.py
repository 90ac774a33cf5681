"""The JSON API answers like an HTTP API: 401 with WWW-Authenticate for missing or bad credentials,
404 for another user's submission and for unknown paths, 400 naming the field for a non-string
source, always as {"error": ...}. Every request here goes through the real URL, middleware and
authentication (tokens from POST /api/v1/token, session cookies), not force_authenticate.
"""
from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from grader import actions
from grader.models import Submission

from .test_ownership import PRIVATE_MARKER, SOURCE

pytestmark = pytest.mark.django_db

SUBMIT = "/api/v1/problems/canary-add/submissions"


def token_for(username: str) -> str:
    """A key from POST /api/v1/token, as a script would get it."""
    response = APIClient().post("/api/v1/token", {"username": username, "password": "pass-1234-word"}, format="json")
    assert response.status_code == 200, response.content
    return response.json()["token"]


def with_header(value: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=value)
    return client


@pytest.fixture
def alices_submission(canary, users, django_capture_on_commit_callbacks) -> Submission:
    with django_capture_on_commit_callbacks(execute=False):
        return actions.create_submission(users["alice"], canary, SOURCE)


# --- 1. authentication -----------------------------------------------------------------------

@pytest.mark.parametrize("header", [None, "Token deadbeef", "Bearer deadbeef", "Token", "Basic YWxpY2U6cGFzcw=="])
def test_missing_or_bad_credentials_are_401_with_www_authenticate(canary, header):
    """No header, a wrong key (either scheme), a key-less header or an unknown scheme: 401, WWW-Authenticate: Token."""
    client = with_header(header) if header else APIClient()
    for response in (client.get("/api/v1/problems"), client.post(SUBMIT, {"source": SOURCE}, format="json")):
        assert response.status_code == 401, response.content
        assert response["WWW-Authenticate"] == "Token"
        assert response.json()["error"]
    assert not Submission.objects.exists()


def test_missing_credentials_message_names_the_scheme(canary):
    """The 401 for a request without usable credentials says which header to send."""
    error = APIClient().get("/api/v1/problems").json()["error"]
    assert "Authorization: Token <key>" in error and "/api/v1/token" in error


def test_bad_token_says_invalid_token(canary):
    """A wrong key is 401 'Invalid token.', not 'credentials were not provided'."""
    assert with_header("Token deadbeef").get("/api/v1/problems").json() == {"error": "Invalid token."}


@pytest.mark.parametrize("scheme", ["Token", "Bearer", "bearer"])
def test_token_and_bearer_both_authenticate(canary, users, scheme, django_capture_on_commit_callbacks):
    """The key from POST /api/v1/token works as 'Token <key>' and as 'Bearer <key>', for reads and submits."""
    client = with_header(f"{scheme} {token_for('alice')}")
    assert client.get("/api/v1/problems").status_code == 200
    with django_capture_on_commit_callbacks(execute=False):
        response = client.post(SUBMIT, {"source": SOURCE}, format="json")
    assert response.status_code == 201, response.content
    assert Submission.objects.get().user == users["alice"]


def test_session_still_works_with_csrf(canary, users, django_capture_on_commit_callbacks):
    """The browser's session cookie reads the API; its writes need the CSRF token (403 without, as before)."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(users["alice"])
    assert client.get("/api/v1/problems").status_code == 200
    response = client.post(SUBMIT, {"source": SOURCE}, content_type="application/json")
    assert response.status_code == 403 and "CSRF" in response.json()["error"]
    client.get("/problems/canary-add/")
    with django_capture_on_commit_callbacks(execute=False):
        response = client.post(SUBMIT, {"source": SOURCE}, content_type="application/json",
                               HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)
    assert response.status_code == 201


# --- 2. the source must be a string ----------------------------------------------------------

@pytest.mark.parametrize("source", [5, 3.5, True, ["x"], {"a": 1}, None])
def test_non_string_source_is_400_naming_the_field(canary, users, source):
    """A source that is not a JSON string is refused with 400 {"error": "source: ..."}; nothing is saved."""
    client = with_header(f"Token {token_for('alice')}")
    response = client.post(SUBMIT, {"source": source}, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["error"].startswith("source:")
    assert not Submission.objects.exists()


def test_source_with_null_characters_is_400(canary, users):
    """A source with NUL characters is a 400 that says so (DRF's CharField refuses them)."""
    client = with_header(f"Token {token_for('alice')}")
    response = client.post(SUBMIT, {"source": SOURCE + "\x00\x00"}, format="json")
    assert response.status_code == 400 and "Null characters" in response.json()["error"]
    assert not Submission.objects.exists()


# --- 3. another user's submission is a 404 ---------------------------------------------------

def test_another_users_submission_is_404_like_a_missing_id(alices_submission, users):
    """Bob's GET of Alice's submission has the same status and body as a GET of an id that does not exist."""
    bob = with_header(f"Token {token_for('bob')}")
    theirs = bob.get(f"/api/v1/submissions/{alices_submission.pk}")
    missing = bob.get(f"/api/v1/submissions/{alices_submission.pk + 1000}")
    assert theirs.status_code == missing.status_code == 404
    assert theirs.json() == missing.json() == {"error": "Not found."}
    assert PRIVATE_MARKER not in theirs.content.decode()


@pytest.mark.parametrize("reader", ["alice", "ivy"])
def test_owner_and_instructor_read_the_submission(alices_submission, users, reader):
    """The owner and an instructor still read it."""
    response = with_header(f"Token {token_for(reader)}").get(f"/api/v1/submissions/{alices_submission.pk}")
    assert response.status_code == 200 and response.json()["id"] == alices_submission.pk


# --- 4. unknown paths are JSON 404s ----------------------------------------------------------

@pytest.mark.parametrize("method, path", [
    ("get", "/api/v1/nope"),
    ("get", "/api/v1/problems/"),
    ("get", "/api/v1/submissions/abc"),
    ("get", "/api/v1/problems/canary-add/nope"),
    ("post", "/api/v1/problems/canary-add/submission"),
    ("delete", "/api/v1/a/b/c"),
])
def test_unknown_api_paths_are_json_404(canary, users, method, path):
    """Any path under /api/v1/ without an endpoint: 404 {"error": "Not found."}, for anyone, any method."""
    for client in (APIClient(), with_header(f"Token {token_for('alice')}")):
        response = getattr(client, method)(path, {"source": SOURCE}, format="json")
        assert response.status_code == 404, (path, response.content)
        assert response["Content-Type"] == "application/json"
        assert response.json() == {"error": "Not found."}


def test_known_paths_still_route(canary, users):
    """The catch-all comes last: every endpoint still answers."""
    client = with_header(f"Token {token_for('alice')}")
    assert client.get("/api/v1/problems").status_code == 200
    assert client.get("/api/v1/submissions").status_code == 200


# --- 5. the submit form names NUL characters -------------------------------------------------

NUL_SOURCE = SOURCE + "\x00\x01\x7fELF\x00garbage"


def test_submit_form_keeps_code_with_null_characters(canary, page):
    """Pasted binary with NUL characters is refused with 400, nothing is saved, and the code stays in the editor."""
    response = page("alice").post("/problems/canary-add/", {"source": NUL_SOURCE})
    assert response.status_code == 400 and not Submission.objects.exists()
    assert PRIVATE_MARKER in response.content.decode() and "garbage" in response.content.decode()
    assert "\x00" not in response.content.decode()  # kept without the NULs, so it can be sent again as is


def test_a_stale_authorization_header_does_not_block_getting_a_new_token(canary, users):
    """POST /api/v1/token reads only the body: an old or wrong token in the header is ignored."""
    client = with_header("Bearer not-a-real-key")
    response = client.post("/api/v1/token", {"username": "alice", "password": "pass-1234-word"}, format="json")
    assert response.status_code == 200 and response.json()["token"]


@pytest.mark.parametrize("language, needle", [("en", "null characters"), ("ko", "null 문자")])
def test_submit_form_names_null_characters(canary, page, language, needle):
    """The error names the NUL characters (in the reader's language), not 'the form was incomplete'."""
    client = page("alice")
    client.cookies["django_language"] = language
    response = client.post("/problems/canary-add/", {"source": NUL_SOURCE}, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 400
    assert needle in response.content.decode()
