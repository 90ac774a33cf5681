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


# ---- late saves -------------------------------------------------------------------------------

def _late_flood() -> str:
    """The tester's late save: 50 crafted keys of 5,100 characters each (255 KB)."""
    return json.dumps({"answers": {("K%02d" % i) + "A" * 5100: {} for i in range(50)}})


def test_a_flood_of_late_saves_logs_one_small_event_a_minute(exam, people):
    """20 late saves of 50 keys x 5,100 characters stored 5 MB of events; now the first logs a summary
    (3 keys cut short, how many there were), the next ones within a minute log nothing, and every one
    is still refused with 409."""
    from datetime import timedelta

    from exams.actions.attempts import submit_attempt

    attempt = start_attempt(exam, people["alice"])
    alice = client_for(people["alice"])
    url = _signed_save_url(alice, exam)
    submit_attempt(attempt.pk, people["alice"])
    body = _late_flood()
    for _ in range(20):
        response = _post(alice, url, body)
        assert response.status_code == 409 and response.json()["code"] == "submitted"
    late = list(AttemptEvent.objects.filter(attempt=attempt, kind="late"))
    assert len(late) == 1
    data = late[0].data
    assert data["keys"] == 50 and len(data["slots"]) == 3
    assert all(len(k) <= 24 for k in data["slots"]) and data["slots"][0] == "K00" + "A" * 20 + "…"
    assert len(json.dumps(data)) < 200
    # A minute later the next refused save is logged again.
    AttemptEvent.objects.filter(pk=late[0].pk).update(at=late[0].at - timedelta(seconds=61))
    assert _post(alice, url, body).status_code == 409
    assert AttemptEvent.objects.filter(attempt=attempt, kind="late").count() == 2


def test_a_late_save_after_the_deadline_still_closes_the_attempt_when_not_logged(exam, people):
    """The attempt past its deadline is closed by the late save even when the event is skipped."""
    from datetime import timedelta

    from django.utils import timezone

    from exams.models import ExamAttempt

    attempt = start_attempt(exam, people["alice"])
    item = attempt.items.filter(kind="question").first()
    alice = client_for(people["alice"])
    url = reverse("exams:save", args=[exam.pk])
    ExamAttempt.objects.filter(pk=attempt.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    AttemptEvent.objects.create(attempt=attempt, kind="late", data={"slots": [], "keys": 0})
    response = _post(alice, url, json.dumps({"answers": {item.key: {"x": "1"}}}))
    assert response.status_code == 409 and response.json()["code"] == "closed"
    attempt.refresh_from_db()
    assert attempt.state == "closed"
    assert AttemptEvent.objects.filter(attempt=attempt, kind="late").count() == 1


def test_the_timeline_says_how_many_keys_a_late_save_had(exam, people):
    from exams.actions.attempts import submit_attempt

    attempt = start_attempt(exam, people["alice"])
    submit_attempt(attempt.pk, people["alice"])
    _post(client_for(people["alice"]), reverse("exams:save", args=[exam.pk]), _late_flood())
    page = client_for(people["ivy"]).get(reverse("exams:attempt_detail", args=[attempt.pk])).content.decode()
    timeline = page[page.index('id="timeline"'):]
    assert "“K00" + "A" * 20 + "…”" in timeline and "and 47 more" in timeline and "A" * 21 not in timeline


# ---- a student removed from the course ----------------------------------------------------------

def _membership(course, user):
    from courses.models import Membership

    return Membership.objects.get(course=course, user=user)


@pytest.mark.parametrize("signed", [True, False])
def test_a_student_whose_membership_is_gone_saves_nothing(exam, people, signed):
    """The autosave skipped the course lookup: a student removed from the course (here: the row
    deleted, as the admin would) kept saving with 200. Both paths now answer 404 and store nothing."""
    attempt = start_attempt(exam, people["alice"])
    item = attempt.items.filter(kind="question").first()
    field = item.data["question"]["fields"][0]["name"]
    alice = client_for(people["alice"])
    url = _signed_save_url(alice, exam) if signed else reverse("exams:save", args=[exam.pk])
    _membership(exam.course, people["alice"]).delete()
    response = _post(alice, url, json.dumps({"answers": {item.key: {field: "5"}}}))
    assert response.status_code == 404
    item.refresh_from_db()
    attempt.refresh_from_db()
    assert item.answer == {} and attempt.saves == 0 and not attempt.events.filter(kind="saved").exists()
    # The other students of the exam still save.
    bob_attempt = start_attempt(exam, people["bob"])
    bob_item = bob_attempt.items.filter(kind="question").first()
    bob = client_for(people["bob"])
    bob_url = _signed_save_url(bob, exam) if signed else reverse("exams:save", args=[exam.pk])
    assert _post(bob, bob_url, json.dumps({"answers": {bob_item.key: {field: "5"}}})).status_code == 200


def test_removing_a_student_closes_and_grades_their_exam_in_progress(exam, people):
    """Removal is explicit about an exam in progress: the attempt is closed now, graded with the answers
    saved so far, and its timeline says why; the next save is refused, saying why."""
    from courses.actions import remove_member

    attempt = start_attempt(exam, people["alice"])
    item = attempt.items.filter(kind="question").first()
    field = item.data["question"]["fields"][0]["name"]
    alice = client_for(people["alice"])
    url = _signed_save_url(alice, exam)
    assert _post(alice, url, json.dumps({"answers": {item.key: {field: "5"}}})).status_code == 200
    closed = remove_member(exam.course, people["ivy"], _membership(exam.course, people["alice"]).pk)
    assert [a.pk for a in closed] == [attempt.pk]
    attempt.refresh_from_db()
    assert attempt.state == "closed" and attempt.total is not None and attempt.ended_at is not None
    event = attempt.events.get(kind="closed")
    assert event.data == {"reason": "removed"} and event.by == people["ivy"]
    refused = _post(alice, url, json.dumps({"answers": {item.key: {field: "6"}}}))
    assert refused.status_code == 409 and refused.json()["code"] == "removed"
    item.refresh_from_db()
    assert item.answer == {field: "5"}
    page = client_for(people["ivy"]).get(reverse("exams:attempt_detail", args=[attempt.pk])).content.decode()
    assert "Closed: the student was removed from the course" in page


def test_the_remove_confirmation_says_what_happens_to_an_exam_in_progress(exam, people):
    start_attempt(exam, people["alice"])
    ivy = client_for(people["ivy"])
    alice_m, bob_m = _membership(exam.course, people["alice"]), _membership(exam.course, people["bob"])
    url = reverse("courses:member-remove", args=[exam.course.code, alice_m.pk])
    assert url in ivy.get(reverse("courses:manage", args=[exam.course.code])).content.decode()
    page = ivy.get(url).content.decode()
    assert 'id="exam-in-progress"' in page and "alice is taking an exam of this course now" in page
    assert "Midterm" in page and "graded with the answers saved so far" in page
    assert _membership(exam.course, people["alice"])  # a GET removes nothing
    page = ivy.get(reverse("courses:member-remove", args=[exam.course.code, bob_m.pk])).content.decode()
    assert 'id="exam-in-progress"' not in page and 'id="no-exam-in-progress"' in page
    ko = ivy.get(url, HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "is taking an exam" not in ko and "저장된 답안으로 채점" in ko and "중간고사" in ko
    response = ivy.post(url, follow=True)
    assert "was closed and graded with the answers saved so far" in response.content.decode()
    assert not exam.course.memberships.filter(user=people["alice"]).exists()


def test_only_instructors_see_the_remove_confirmation(exam, people):
    alice_m = _membership(exam.course, people["alice"])
    url = reverse("courses:member-remove", args=[exam.course.code, alice_m.pk])
    for who in ("tom", "bob", "eve"):
        assert client_for(people[who]).get(url).status_code == 404
        assert client_for(people[who]).post(url).status_code == 404
    assert exam.course.memberships.filter(user=people["alice"]).exists()
