"""An exam's hot paths have a fixed database cost, whatever the exam holds: Start and autosave (every
student, every few seconds) run a known number of statements (bench/exam_load.py times them)."""
import json

import pytest
from django.urls import reverse

from exams import actions
from exams.models import AttemptEvent, ExamAttempt

from .conftest import client_for

pytestmark = pytest.mark.django_db

# session, user, exam+course, the student's role, an attempt already?, accommodation, the kernel
# problem's current version, then in one transaction (2): the attempt, its items, the "started" event.
START_QUERIES = 12
# session, user, then in one transaction (2): the attempt's UPDATE (checks open and in time, and
# locks it), the listed items' field names, one UPDATE per item, the "saved" event.
AUTOSAVE_QUERIES = 8


def test_start_costs_a_fixed_number_of_queries(exam, people, django_assert_max_num_queries):
    alice = client_for(people["alice"])
    with django_assert_max_num_queries(START_QUERIES):
        response = alice.post(reverse("exams:start", args=[exam.pk]))
    assert response.status_code == 302
    attempt = ExamAttempt.objects.get(exam=exam, user=people["alice"])
    assert attempt.items.count() == 3 and attempt.events.filter(kind="started").count() == 1


def test_autosave_costs_a_fixed_number_of_queries_and_stores_the_answer(exam, people, django_assert_num_queries):
    attempt = actions.start_attempt(exam, people["alice"])
    item = attempt.items.filter(kind="question").first()
    field = item.data["question"]["fields"][0]["name"]
    alice = client_for(people["alice"])
    alice.get("/")  # the session is loaded once before counting
    url = reverse("exams:save", args=[exam.pk])
    with django_assert_num_queries(AUTOSAVE_QUERIES):
        response = alice.post(url, json.dumps({"answers": {item.key: {field: "42", "junk": "x"}}, "seq": 7}),
                              content_type="application/json")
    body = response.json()
    assert response.status_code == 200 and body["ok"] and body["seq"] == 7
    assert body["deadline"] == attempt.deadline.isoformat()
    item.refresh_from_db()
    attempt.refresh_from_db()
    assert item.answer == {field: "42"} and item.saved_at is not None
    assert attempt.saves == 1 and attempt.last_saved_at == item.saved_at
    assert AttemptEvent.objects.filter(attempt=attempt, kind="saved", data={"slots": [item.key]}).exists()


def test_autosave_of_an_unknown_slot_changes_nothing(exam, people):
    attempt = actions.start_attempt(exam, people["alice"])
    response = client_for(people["alice"]).post(reverse("exams:save", args=[exam.pk]),
                                                json.dumps({"answers": {"z9.p9": {"x": "1"}}}),
                                                content_type="application/json")
    assert response.status_code == 400 and response.json()["code"] == "bad_item"
    attempt.refresh_from_db()
    assert attempt.saves == 0 and attempt.last_saved_at is None


def test_autosave_without_an_attempt_is_a_404(exam, people):
    response = client_for(people["bob"]).post(reverse("exams:save", args=[exam.pk]),
                                              json.dumps({"answers": {}}), content_type="application/json")
    assert response.status_code == 404


def test_autosave_after_submitting_still_says_why(exam, people):
    attempt = actions.start_attempt(exam, people["alice"])
    actions.submit_attempt(attempt.pk, people["alice"])
    item = attempt.items.filter(kind="question").first()
    response = client_for(people["alice"]).post(reverse("exams:save", args=[exam.pk]),
                                                json.dumps({"answers": {item.key: {"x": "1"}}}),
                                                content_type="application/json")
    assert response.status_code == 409 and response.json()["code"] == "submitted"


def test_the_pages_clock_poll_costs_no_sql_and_follows_an_extension(exam, people, django_assert_num_queries):
    """The attempt page's clock resync (every 30 s per student) is answered from the live cache when
    its URL is signed for the session; a staff extension shows in the next poll."""
    import re
    from html import unescape

    attempt = actions.start_attempt(exam, people["alice"])
    alice = client_for(people["alice"])
    page = alice.get(reverse("exams:attempt", args=[exam.pk])).content.decode()
    url = unescape(re.search(r'data-state-url="([^"]+)"', page).group(1))
    assert "?a=" in url and "&t=" in url
    first = alice.get(url).json()  # fills the cache
    assert first["state"] == "open" and first["deadline"] == attempt.deadline.isoformat()
    with django_assert_num_queries(0):
        again = alice.get(url)
    assert again.status_code == 200 and again.json()["deadline"] == attempt.deadline.isoformat()
    actions.extend_attempt(attempt.pk, 10, people["ivy"])
    attempt.refresh_from_db()
    assert alice.get(url).json()["deadline"] == attempt.deadline.isoformat()
    # Another session (or someone else) with the same URL gets the full, authenticated answer.
    bob = client_for(people["bob"])
    assert bob.get(url).status_code == 404
    from django.test import Client

    assert Client().get(url).status_code == 302
    actions.submit_attempt(attempt.pk, people["alice"])
    assert alice.get(url).json()["state"] == "submitted"
