"""The autosave endpoint under hostile requests: a body nested too deep, a flood of late saves, a
student removed from the course. Each is refused with a clear answer and stores nothing it should not."""
import json

import pytest
from django.urls import reverse

from exams.actions.attempts import start_attempt
from exams.models import AttemptEvent

from .conftest import client_for

pytestmark = pytest.mark.django_db


def _post(client, url, body: str):
    return client.post(url, body, content_type="application/json")


def _signed_save_url(client, exam) -> str:
    """The save URL the attempt page gives its own session (exams.clock's signature)."""
    import re
    from html import unescape

    page = client.get(reverse("exams:attempt", args=[exam.pk])).content.decode()
    return unescape(re.search(r'data-save-url="([^"]+)"', page).group(1))


@pytest.mark.parametrize("signed", [False, True])
def test_a_save_nested_100000_deep_is_a_400_that_says_why(exam, people, signed):
    """Python's json recursed once per '[' and raised RecursionError (a 500); the API's depth guard
    (grader.parsers, 32 levels) refuses it first, on the page's signed URL and on the plain one alike."""
    attempt = start_attempt(exam, people["alice"])
    alice = client_for(people["alice"])
    url = _signed_save_url(alice, exam) if signed else reverse("exams:save", args=[exam.pk])
    response = _post(alice, url, '{"answers": ' + "[" * 100_000 + "]" * 100_000 + "}")
    assert response.status_code == 400
    body = response.json()
    assert body["ok"] is False and body["code"] == "bad_request" and "nests deeper than 32 levels" in body["error"]
    attempt.refresh_from_db()
    assert attempt.saves == 0 and not AttemptEvent.objects.filter(attempt=attempt, kind="saved").exists()


def test_a_deep_save_is_refused_in_korean_too(exam, people):
    start_attempt(exam, people["alice"])
    alice = client_for(people["alice"])
    response = alice.post(reverse("exams:save", args=[exam.pk]), "[" * 40 + "]" * 40,
                          content_type="application/json", HTTP_ACCEPT_LANGUAGE="ko")
    assert response.status_code == 400 and "32" in response.json()["error"]
    assert "nests deeper" not in response.json()["error"]


def test_an_ordinary_save_still_nests_well_within_the_limit(exam, people):
    attempt = start_attempt(exam, people["alice"])
    item = attempt.items.filter(kind="question").first()
    field = item.data["question"]["fields"][0]["name"]
    alice = client_for(people["alice"])
    response = _post(alice, reverse("exams:save", args=[exam.pk]), json.dumps({"answers": {item.key: {field: "3"}}}))
    assert response.status_code == 200
    item.refresh_from_db()
    assert item.answer == {field: "3"}
