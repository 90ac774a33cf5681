"""The exam page's saves when the session changes under it: logged out or logged in again in another tab.

Neither ends the exam: the save endpoint answers JSON the page can tell apart from the time-up (409),
and the page keeps the answers and retries (static/js/exam.js)."""
import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from exams.actions.attempts import start_attempt

from .conftest import client_for

pytestmark = pytest.mark.django_db


def _answer(attempt):
    item = attempt.items.filter(kind="question").first()
    return item, {item.key: {item.data["question"]["fields"][0]["name"]: "42"}}


def test_a_save_after_logging_out_is_a_401_in_json_not_a_redirect(exam, people):
    """Logged out in another tab: the save (signed URL or not) gets 401 {"code": "logged_out"}."""
    attempt = start_attempt(exam, people["alice"])
    item, answers = _answer(attempt)
    c = client_for(people["alice"])
    page = c.get(reverse("exams:attempt", args=[exam.pk])).content.decode()
    signed = re.search(r'data-save-url="([^"]+)"', page).group(1).replace("&amp;", "&")
    c.logout()
    for url in (signed, reverse("exams:save", args=[exam.pk])):
        r = c.post(url, json.dumps({"answers": answers}), content_type="application/json")
        assert r.status_code == 401 and r["Content-Type"] == "application/json"
        assert r.json()["code"] == "logged_out" and "log in again" in r.json()["error"]
    item.refresh_from_db()
    assert item.saved_at is None


def test_the_clock_poll_after_logging_out_is_a_401_in_json(exam, people):
    start_attempt(exam, people["alice"])
    r = Client().get(reverse("exams:state", args=[exam.pk]))
    assert r.status_code == 401 and r.json()["code"] == "logged_out"


def test_a_save_with_a_renewed_csrf_token_is_a_csrf_403_in_json(exam, people):
    """A save sending the token of before a log-in elsewhere gets 403 {"code": "csrf"}, not the 409
    of time-up; with the cookie's current token it is saved."""
    attempt = start_attempt(exam, people["alice"])
    item, answers = _answer(attempt)
    c = Client(enforce_csrf_checks=True)
    c.force_login(people["alice"])
    c.get(reverse("exams:attempt", args=[exam.pk]))
    url = reverse("exams:save", args=[exam.pk])
    r = c.post(url, json.dumps({"answers": answers}), content_type="application/json", HTTP_X_CSRFTOKEN="x" * 32)
    assert r.status_code == 403 and r.json()["code"] == "csrf" and "Reload" in r.json()["error"]
    r = c.post(url, json.dumps({"answers": answers}), content_type="application/json",
               HTTP_X_CSRFTOKEN=c.cookies["csrftoken"].value)
    assert r.status_code == 200 and r.json()["ok"]


def test_a_form_without_its_csrf_token_gets_the_translated_page(exam, people):
    """A form post refused by the CSRF check gets the site's page, in Korean for a Korean browser,
    with a link back to the page it came from."""
    c = Client(enforce_csrf_checks=True)
    c.force_login(people["alice"])
    back = reverse("exams:exam", args=[exam.pk])
    r = c.post(reverse("exams:start", args=[exam.pk]), HTTP_REFERER=f"http://testserver{back}")
    html = r.content.decode()
    assert r.status_code == 403 and 'id="csrf-failure"' in html and "nothing was saved" in html
    assert f'href="http://testserver{back}"' in html
    assert "<!-- CSRF cookie not set. -->" in html  # Django's reason, in the source only
    r = c.post(reverse("exams:start", args=[exam.pk]), HTTP_ACCEPT_LANGUAGE="ko", HTTP_REFERER="https://evil.example/")
    html = r.content.decode()
    assert r.status_code == 403 and "새로 고" in html and "evil.example" not in html


@pytest.mark.parametrize("bob_started", [False, True])
def test_a_save_from_a_page_of_another_student_is_a_403_other_user(exam, people, bob_started):
    """Alice's page, after bob logged in in the same browser: the save (signed or not) gets 403
    {"code": "other_user"}, not a 404, and stores nothing in either attempt (bob's too, had he one);
    the page names alice in its message."""
    attempt = start_attempt(exam, people["alice"])
    item, answers = _answer(attempt)
    bobs = start_attempt(exam, people["bob"]) if bob_started else None
    c = client_for(people["alice"])
    page = c.get(reverse("exams:attempt", args=[exam.pk])).content.decode()
    assert f'data-owner="{people["alice"].pk}"' in page and "log in again as alice" in page
    signed = re.search(r'data-save-url="([^"]+)"', page).group(1).replace("&amp;", "&")
    c.force_login(people["bob"])
    body = {"answers": answers, "owner": people["alice"].pk}
    for url in (signed, reverse("exams:save", args=[exam.pk])):
        r = c.post(url, json.dumps(body), content_type="application/json")
        assert r.status_code == 403 and r.json()["code"] == "other_user"
        assert "another user" in r.json()["error"] and "alice" not in r.json()["error"]
    item.refresh_from_db()
    assert item.saved_at is None
    if bobs is not None:
        assert not bobs.items.filter(saved_at__isnull=False).exists()
    # Without an owner (an old page), nothing about the other attempt is said: a 404, or with an attempt of
    # bob's own his save (200, or 400 bad_item where his draw has no such key): never other_user.
    r = c.post(reverse("exams:save", args=[exam.pk]), json.dumps({"answers": answers}), content_type="application/json")
    assert r.status_code in ((200, 400) if bob_started else (404,))


def test_the_other_user_message_is_korean_on_a_korean_page(exam, people):
    """The page's "signed in as another user" text is translated, with the student's name in it."""
    start_attempt(exam, people["alice"])
    c = client_for(people["alice"])
    c.cookies["django_language"] = "ko"
    page = c.get(reverse("exams:attempt", args=[exam.pk]), HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "다른 탭에서 alice 계정으로 다시 로그인하세요" in page
