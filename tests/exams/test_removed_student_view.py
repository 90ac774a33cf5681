"""A student removed from the course during their exam is told why, in English and Korean: the open
attempt page's autosave and clock poll answer 409 with code "removed" and the sentence to show (the
page stopped nothing and said "NOT SAVED ... check your connection (HTTP 404)"), and the exam's page
stays readable to them, read-only, with the attempt's state and why it ended; its attempt, kernel and
result pages lead there. Anyone else outside the course still gets the 403 "not in this course" page."""
from __future__ import annotations

import json
import re
from html import unescape

import pytest
from django.urls import reverse

from courses.actions import remove_member
from courses.models import Membership
from exams.actions.attempts import start_attempt

from .conftest import client_for, enrol

pytestmark = pytest.mark.django_db

SENTENCE = {"en": "Your attempt was closed when you were removed from the course; everything you saved before then counts.",
            "ko": "과목에서 제외되어 응시가 종료되었습니다. 그 전에 저장한 답은 모두 인정됩니다."}
LABEL = {"en": "Closed: removed from the course", "ko": "종료됨: 과목에서 제외됨"}
NOTE = {"en": "You are no longer a member of this course", "ko": "이제 이 과목의 구성원이 아닙니다"}


def _page_urls(client, exam) -> tuple[str, str]:
    """The save and clock URLs the attempt page gives its own session (signed, exams.clock)."""
    page = client.get(reverse("exams:attempt", args=[exam.pk])).content.decode()
    return (unescape(re.search(r'data-save-url="([^"]+)"', page).group(1)),
            unescape(re.search(r'data-state-url="([^"]+)"', page).group(1)))


def _remove(exam, people, name="alice"):
    membership = Membership.objects.get(course=exam.course, user=people[name])
    return remove_member(exam.course, people["ivy"], membership.pk)


@pytest.fixture
def removed(exam, people, django_capture_on_commit_callbacks):
    """alice's attempt is open, her page loaded (its signed URLs kept) and one answer saved; then ivy
    removes her from the course (the clock's cache entry is written after commit, as in production)."""
    attempt = start_attempt(exam, people["alice"])
    item = attempt.items.filter(kind="question").first()
    field = item.data["question"]["fields"][0]["name"]
    alice = client_for(people["alice"])
    save_url, state_url = _page_urls(alice, exam)
    assert alice.post(save_url, json.dumps({"answers": {item.key: {field: "5"}}}),
                      content_type="application/json").status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        assert [a.pk for a in _remove(exam, people)] == [attempt.pk]
    return {"attempt": attempt, "item": item, "field": field, "client": alice, "save": save_url, "state": state_url}


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("signed", [True, False])
def test_a_save_after_the_removal_says_so_and_stores_nothing(exam, removed, lang, signed):
    url = removed["save"] if signed else reverse("exams:save", args=[exam.pk])
    body = json.dumps({"answers": {removed["item"].key: {removed["field"]: "6"}}})
    r = removed["client"].post(url, body, content_type="application/json", HTTP_ACCEPT_LANGUAGE=lang)
    assert r.status_code == 409 and r["Content-Type"] == "application/json"
    assert r.json() == {"ok": False, "code": "removed", "error": SENTENCE[lang]}
    removed["item"].refresh_from_db()
    assert removed["item"].answer == {removed["field"]: "5"}


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("signed", [True, False])
def test_the_clock_poll_after_the_removal_says_so(exam, removed, lang, signed):
    """The page's own poll is answered from the cache (no SQL), a plain one from the row: the same answer."""
    url = removed["state"] if signed else reverse("exams:state", args=[exam.pk])
    r = removed["client"].get(url, HTTP_ACCEPT_LANGUAGE=lang)
    assert r.status_code == 409
    body = r.json()
    assert (body["ok"], body["code"], body["state"], body["close_reason"], body["error"]) == (
        False, "removed", "closed", "removed", SENTENCE[lang])
    assert body["deadline"] == removed["attempt"].deadline.isoformat() and body["server_now"]


def test_the_cached_poll_answers_without_sql(exam, removed, django_assert_num_queries):
    with django_assert_num_queries(0):
        assert removed["client"].get(removed["state"]).json()["code"] == "removed"


def test_a_re_enrolled_student_saving_on_the_old_page_is_told_why_it_ended(exam, people, removed):
    enrol(people["alice"], exam.course, "student")
    r = removed["client"].post(reverse("exams:save", args=[exam.pk]),
                               json.dumps({"answers": {removed["item"].key: {removed["field"]: "6"}}}),
                               content_type="application/json")
    assert r.status_code == 409 and r.json()["code"] == "removed"
    assert r.json()["error"] == SENTENCE["en"]


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_removed_student_reads_the_exam_page_and_nothing_more(exam, people, removed, lang):
    alice = removed["client"]
    r = alice.get(reverse("exams:exam", args=[exam.pk]), HTTP_ACCEPT_LANGUAGE=lang)
    html = r.content.decode()
    assert r.status_code == 200 and 'id="not-in-course"' not in html
    assert re.search(r'<strong id="attempt-state">([^<]*)</strong>', html).group(1) == LABEL[lang]
    assert SENTENCE[lang] in re.search(r'<div[^>]*id="attempt-ended">(.*?)</div>', html, re.S).group(1)
    assert NOTE[lang] in html
    # Read-only: no Start, no Continue, no result, no link into the course or to the staff pages.
    for absent in ('id="start-form"', 'id="continue"', 'id="see-result"', reverse("exams:result", args=[exam.pk]),
                   reverse("exams:course", args=[exam.course_id]), reverse("exams:results", args=[exam.pk]),
                   reverse("courses:course", args=[exam.course.code])):
        assert absent not in html, absent
    # Its other pages lead there rather than to the 403 page.
    for url in (reverse("exams:attempt", args=[exam.pk]), reverse("exams:result", args=[exam.pk]),
                reverse("exams:submit", args=[exam.pk]),
                reverse("exams:kernel", args=[exam.pk, removed["attempt"].items.get(kind="kernel").number])):
        r = alice.get(url)
        assert (r.status_code, r["Location"]) == (302, reverse("exams:exam", args=[exam.pk])), url


def test_the_result_stays_closed_to_the_removed_student_once_released(exam, removed):
    from datetime import timedelta

    from django.utils import timezone

    exam.results_release_at = timezone.now() - timedelta(minutes=1)
    exam.save(update_fields=["results_release_at"])
    alice = removed["client"]
    assert alice.get(reverse("exams:result", args=[exam.pk])).status_code == 302
    html = alice.get(reverse("exams:exam", args=[exam.pk])).content.decode()
    assert 'id="see-result"' not in html and NOTE["en"] in html


def test_everyone_else_outside_the_course_keeps_the_403(exam, people, removed):
    """eve never was in the course; bob's membership was deleted (in the admin) with no attempt closed
    for it: both get the 'not in this course' page and refusals that say nothing of a removal."""
    start_attempt(exam, people["bob"])
    Membership.objects.get(course=exam.course, user=people["bob"]).delete()
    for name in ("eve", "bob"):
        client = client_for(people[name])
        for url in (reverse("exams:exam", args=[exam.pk]), reverse("exams:attempt", args=[exam.pk]),
                    reverse("exams:result", args=[exam.pk])):
            r = client.get(url)
            assert r.status_code == 403 and 'id="not-in-course"' in r.content.decode(), (name, url)
        assert client.get(reverse("exams:state", args=[exam.pk])).status_code == 404
        r = client.post(reverse("exams:save", args=[exam.pk]), json.dumps({"answers": {}}),
                        content_type="application/json")
        assert r.status_code == 404, name
