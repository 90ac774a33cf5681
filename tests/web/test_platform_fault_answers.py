"""A platform fault raised on the way through a view is a 503 with Retry-After, on every path that can
meet one: the problem page's submit form, the submissions API, the playground's form and API, and any
page whose view lets it escape (grader.middleware). The page never shows the fault's own words (a
sandbox's or compiler's, for the worker's log); a bad request stays a 400 without Retry-After."""
import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from grader import actions as grader_actions
from grader.core.errors import PlatformError, SandboxUnavailableError, WarpDrillError
from playground import actions as playground_actions

from .conftest import SOURCE

pytestmark = pytest.mark.django_db

INTERNAL = "bubblewrap: setting up uid map: Permission denied"  # what the worker's log may say
RETRY = str(PlatformError.RETRY_AFTER_S)
PLAYGROUND = {"source": "__global__ void fill(int* out) { out[threadIdx.x] = 1; }\n", "kernel": "", "grid": "1",
              "block": "8", "shared_bytes": "", "arg-0-name": "out", "arg-0-kind": "output", "arg-0-dtype": "int32",
              "arg-0-size": "8", "arg-0-init": "zeros"}


def _raise(exc):
    def fail(*args, **kwargs):
        raise exc
    return fail


@pytest.fixture
def fault(monkeypatch):
    """Make submitting and starting a playground run fail as the platform would."""
    monkeypatch.setattr(grader_actions, "create_submission", _raise(SandboxUnavailableError(INTERNAL)))
    monkeypatch.setattr(playground_actions, "create_run", _raise(PlatformError(INTERNAL)))


def _is_503(response, body: str = "") -> None:
    assert response.status_code == 503, response.status_code
    assert response["Retry-After"] == RETRY
    assert INTERNAL not in body


def test_the_problem_pages_submit_form(problem, alice_client, fault):
    """The form is shown again with the service's fault, in the reader's language; a 503, Retry-After."""
    for language, words in (("en", f"Try again in {RETRY} seconds."), ("ko", f"{RETRY}초 뒤에 다시 시도하세요.")):
        response = alice_client.post(problem.get_absolute_url(), {"source": SOURCE}, HTTP_ACCEPT_LANGUAGE=language)
        body = response.content.decode()
        _is_503(response, body)
        assert words in body and "__global__ void add" in body  # the source is kept


def test_the_submissions_api(problem, alice_api, fault):
    response = alice_api.post(f"/api/v1/problems/{problem.slug}/submissions", {"source": SOURCE}, format="json")
    _is_503(response)
    assert "error" in response.json()


def test_the_playgrounds_form_and_api(alice, fault):
    client = Client()
    client.force_login(alice)
    response = client.post(reverse("playground:home"), PLAYGROUND)
    _is_503(response, response.content.decode())
    assert "The grading service failed" in response.content.decode()
    api = APIClient()
    api.force_authenticate(alice)
    response = api.post(reverse("api:playground-runs"), {"source": PLAYGROUND["source"], "args": []}, format="json")
    _is_503(response)


def test_a_bad_request_escaping_a_page_is_a_400_without_retry_after(alice, monkeypatch):
    """The middleware answers any user-safe error a view lets escape with that error's own status."""
    monkeypatch.setattr(playground_actions, "create_run", _raise(UncaughtError("no such thing")))
    client = Client()
    client.force_login(alice)
    response = client.post(reverse("playground:home"), PLAYGROUND)
    assert response.status_code == 400 and not response.has_header("Retry-After")
    assert "no such thing" in response.content.decode()


class UncaughtError(WarpDrillError):
    """A user-safe error (a 400 by default) that the playground's view does not catch: it catches
    BadRequestError only."""
