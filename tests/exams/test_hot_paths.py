"""An exam's hot paths have a fixed database cost, whatever the exam holds: Start and autosave (every
student, every few seconds) run a known number of statements (bench/exam_load.py times them)."""
import json

import pytest
from django.urls import reverse

from exams.actions.attempts import extend_attempt, start_attempt, submit_attempt
from exams.models import AttemptEvent, ExamAttempt

from .conftest import client_for

pytestmark = pytest.mark.django_db

# session, user, exam+course, the student's role, one query for (an attempt already?, an accommodation?,
# the draw stored ahead), the drawn kernel version still current, then in one transaction (2): the
# attempt, its items, the "started" event. Drawing at Start (no stored draw) reads the catalogue instead
# of checking the version: the same count.
# Plus exam mode's check (exams.lockdown: the user's attempts in progress, one query).
START_QUERIES = 12
# session, user, the student's membership of the exam's course, then in one transaction (2): the
# attempt's UPDATE (checks open and in time, and locks it), the listed items' field names, one UPDATE
# per item, the "saved" event.
AUTOSAVE_QUERIES = 9


@pytest.mark.parametrize("drawn_ahead", [True, False])
def test_start_costs_a_fixed_number_of_queries(exam, people, django_assert_max_num_queries, drawn_ahead):
    from exams import drawing

    if drawn_ahead:
        drawing.predraw_exam(exam.pk)
    alice = client_for(people["alice"])
    with django_assert_max_num_queries(START_QUERIES):
        response = alice.post(reverse("exams:start", args=[exam.pk]))
    assert response.status_code == 302
    attempt = ExamAttempt.objects.get(exam=exam, user=people["alice"])
    assert attempt.items.count() == 3 and attempt.events.filter(kind="started").count() == 1


def test_autosave_costs_a_fixed_number_of_queries_and_stores_the_answer(exam, people, django_assert_num_queries):
    attempt = start_attempt(exam, people["alice"])
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
    attempt = start_attempt(exam, people["alice"])
    response = client_for(people["alice"]).post(reverse("exams:save", args=[exam.pk]),
                                                json.dumps({"answers": {"z9.p9": {"x": "1"}}}),
                                                content_type="application/json")
    assert response.status_code == 400 and response.json()["code"] == "bad_item"
    attempt.refresh_from_db()
    assert attempt.saves == 0 and attempt.last_saved_at is None


@pytest.mark.parametrize("lang, why", [("en", "An answer field must be text."), ("ko", "답 칸에는 글자만 넣을 수 있습니다.")])
def test_autosave_of_a_field_that_is_not_text_is_refused_and_stores_nothing(exam, people, lang, why):
    """A field sent as a list or an object (never the page's own) is a 400 saying why, on the signed path
    and the authenticated one, and nothing is stored: not its text as Python would write it ("{'a': [1]}"),
    nor the other fields' loss. A number is taken as its text."""
    attempt = start_attempt(exam, people["alice"])
    question = attempt.items.filter(kind="question").first()
    field = question.data["question"]["fields"][0]["name"]
    alice = client_for(people["alice"])
    alice.post(reverse("exams:save", args=[exam.pk]), json.dumps({"answers": {question.key: {field: "7"}}}),
               content_type="application/json")
    for url in (_signed_save_url(alice, exam), reverse("exams:save", args=[exam.pk])):
        for value in ({"a": [1, 2, 3]}, [1], True):
            response = alice.post(url, json.dumps({"answers": {question.key: {field: value}}}),
                                  content_type="application/json", HTTP_ACCEPT_LANGUAGE=lang)
            assert response.status_code == 400 and response.json()["code"] == "bad_answer"
            assert response.json()["error"] == why
    question.refresh_from_db()
    assert question.answer == {field: "7"}
    alice.post(reverse("exams:save", args=[exam.pk]), json.dumps({"answers": {question.key: {field: 42}}}),
               content_type="application/json")
    question.refresh_from_db()
    assert question.answer == {field: "42"}


def test_autosave_without_an_attempt_is_a_404(exam, people):
    response = client_for(people["bob"]).post(reverse("exams:save", args=[exam.pk]),
                                              json.dumps({"answers": {}}), content_type="application/json")
    assert response.status_code == 404


def test_autosave_after_submitting_still_says_why(exam, people):
    attempt = start_attempt(exam, people["alice"])
    submit_attempt(attempt.pk, people["alice"])
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

    attempt = start_attempt(exam, people["alice"])
    alice = client_for(people["alice"])
    page = alice.get(reverse("exams:attempt", args=[exam.pk])).content.decode()
    url = unescape(re.search(r'data-state-url="([^"]+)"', page).group(1))
    assert "?a=" in url and "&t=" in url
    first = alice.get(url).json()  # fills the cache
    assert first["state"] == "open" and first["deadline"] == attempt.deadline.isoformat()
    with django_assert_num_queries(0):
        again = alice.get(url)
    assert again.status_code == 200 and again.json()["deadline"] == attempt.deadline.isoformat()
    extend_attempt(attempt.pk, 10, people["ivy"])
    attempt.refresh_from_db()
    assert alice.get(url).json()["deadline"] == attempt.deadline.isoformat()
    # Another session (or someone else) with the same URL gets the full, authenticated answer.
    bob = client_for(people["bob"])
    assert bob.get(url).status_code == 404
    from django.test import Client

    assert Client().get(url).status_code == 401  # JSON for the page to show, not a redirect to log in
    submit_attempt(attempt.pk, people["alice"])
    assert alice.get(url).json()["state"] == "submitted"


def _signed_save_url(client, exam) -> str:
    """The save URL the attempt page gives its own session."""
    import re
    from html import unescape

    page = client.get(reverse("exams:attempt", args=[exam.pk])).content.decode()
    url = unescape(re.search(r'data-save-url="([^"]+)"', page).group(1))
    assert "?a=" in url and "&t=" in url
    return url


# The page's own (signed) save: no session, no user, one statement.
SIGNED_AUTOSAVE_QUERIES = 1


def test_the_pages_signed_autosave_is_one_statement_and_stores_what_the_slow_path_would(
        exam, people, django_assert_num_queries):
    from django.db import connection

    if connection.vendor != "postgresql":  # exams.fastsave: the one-statement path is PostgreSQL's
        pytest.skip("the signed autosave's single statement needs PostgreSQL (SQLite takes the slow path)")
    attempt = start_attempt(exam, people["alice"])
    items = {i.kind: i for i in attempt.items.all()}
    question, kernel = items["question"], items["kernel"]
    field = question.data["question"]["fields"][0]["name"]
    alice = client_for(people["alice"])
    url = _signed_save_url(alice, exam)
    body = {question.key: {field: "42", "junk": "x", "nothing": None}, kernel.key: {"source": "// draft", "x": "y"}}
    with django_assert_num_queries(SIGNED_AUTOSAVE_QUERIES):
        response = alice.post(url, json.dumps({"answers": body, "seq": 3}), content_type="application/json")
    assert response.status_code == 200 and response.json()["seq"] == 3
    assert response.json()["deadline"] == attempt.deadline.isoformat()
    question.refresh_from_db()
    kernel.refresh_from_db()
    attempt.refresh_from_db()
    assert question.answer == {field: "42"} and kernel.answer == {"source": "// draft"}
    assert question.saved_at == kernel.saved_at == attempt.last_saved_at and attempt.saves == 1
    event = AttemptEvent.objects.get(attempt=attempt, kind="saved")
    assert event.data == {"slots": sorted([question.key, kernel.key])} and event.by == people["alice"]


def test_a_signed_autosave_of_an_unknown_slot_stores_nothing(exam, people):
    attempt = start_attempt(exam, people["alice"])
    question = attempt.items.filter(kind="question").first()
    field = question.data["question"]["fields"][0]["name"]
    alice = client_for(people["alice"])
    response = alice.post(_signed_save_url(alice, exam),
                          json.dumps({"answers": {question.key: {field: "1"}, "z9.p9": {"x": "1"}}}),
                          content_type="application/json")
    assert response.status_code == 400 and response.json()["code"] == "bad_item"  # the authenticated path's answer
    question.refresh_from_db()
    attempt.refresh_from_db()
    assert question.answer == {} and attempt.saves == 0 and not attempt.events.filter(kind="saved").exists()


def test_a_signed_autosave_after_submitting_or_logging_out_stores_nothing(exam, people):
    """What the one statement does not take goes the authenticated path: its 409 after submitting,
    the login redirect once the session is gone (the signature alone saves nothing)."""
    attempt = start_attempt(exam, people["alice"])
    question = attempt.items.filter(kind="question").first()
    field = question.data["question"]["fields"][0]["name"]
    alice = client_for(people["alice"])
    url = _signed_save_url(alice, exam)
    save = json.dumps({"answers": {question.key: {field: "7"}}})
    cookie = alice.cookies["sessionid"].value
    alice.logout()
    alice.cookies["sessionid"] = cookie  # the old cookie, whose session no longer exists
    response = alice.post(url, save, content_type="application/json")
    assert response.status_code == 401 and response.json()["code"] == "logged_out"
    question.refresh_from_db()
    assert question.answer == {}
    alice = client_for(people["alice"])
    url = _signed_save_url(alice, exam)
    submit_attempt(attempt.pk, people["alice"])
    response = alice.post(url, save, content_type="application/json")
    assert response.status_code == 409 and response.json()["code"] == "submitted"
    question.refresh_from_db()
    assert question.answer == {}


def test_a_save_url_signed_for_another_session_is_the_authenticated_path(exam, people):
    attempt = start_attempt(exam, people["alice"])
    question = attempt.items.filter(kind="question").first()
    field = question.data["question"]["fields"][0]["name"]
    url = _signed_save_url(client_for(people["alice"]), exam)
    response = client_for(people["bob"]).post(url, json.dumps({"answers": {question.key: {field: "9"}}}),
                                              content_type="application/json")
    assert response.status_code == 404
    question.refresh_from_db()
    assert question.answer == {}
