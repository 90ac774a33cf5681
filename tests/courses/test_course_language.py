"""A course's default language is used where a language must be chosen without the reader's: the invite
page, and the sign-up and log-in pages it leads to, for a logged-out visitor whose browser asks for none
of the site's languages (the setting was read nowhere: a Korean course's invite opened in English).
A visitor who asks (the language switch's cookie, Accept-Language) is served as they ask; a logged-in
user as before. The printed forms and the exports: tests/exams/test_print_views.py, test_export_files.py."""
from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from courses import actions
from courses.language import names_a_language

pytestmark = pytest.mark.django_db


@pytest.fixture
def korean_invite(people, courses):
    return actions.create_invite(courses["B"], people["bea"])  # GA-B's default language is Korean


def _lang(response) -> str:
    html = response.content.decode()
    return html[html.index('<html lang="') + 12:].split('"', 1)[0]


def test_a_logged_out_visitor_who_names_no_language_reads_the_invite_in_the_courses(korean_invite):
    link = f"/courses/join/{korean_invite.code}/"
    response = Client().get(link)
    assert response.status_code == 200 and _lang(response) == "ko" and response["Content-Language"] == "ko"
    html = response.content.decode()
    assert "강좌 참여" in html or "가입하고 참여" in html
    # The sign-up and log-in pages the invite leads to speak it too.
    signup = Client().get(f"/accounts/signup/?next={link}")
    assert _lang(signup) == "ko" and "계정 만들기" in signup.content.decode()
    assert _lang(Client().get(f"/accounts/login/?next={link}")) == "ko"


def test_an_english_course_stays_english(people, courses):
    invite = actions.create_invite(courses["A"], people["prof"])
    assert _lang(Client().get(f"/courses/join/{invite.code}/")) == "en"


@pytest.mark.parametrize("accept, expected", [("en", "en"), ("en-US,en;q=0.9", "en"), ("ko", "ko"),
                                              ("fr", "ko"), ("*", "ko"), ("", "ko")])
def test_a_language_the_browser_asks_for_wins(korean_invite, accept, expected):
    """Only a language the site has counts as asked for: French, or "*", leaves the course's."""
    response = Client(HTTP_ACCEPT_LANGUAGE=accept).get(f"/courses/join/{korean_invite.code}/")
    assert _lang(response) == expected


def test_the_language_switch_wins(korean_invite):
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert _lang(client.get(f"/courses/join/{korean_invite.code}/")) == "en"


def test_a_logged_in_user_reads_the_site_as_before(korean_invite, people):
    client = Client()
    client.force_login(people["nobody"])
    assert _lang(client.get(f"/courses/join/{korean_invite.code}/")) == "en"


def test_no_invite_no_course_language(db):
    assert _lang(Client().get("/courses/join/NOSUCHCODE/")) == "en"
    assert _lang(Client().get("/accounts/signup/")) == "en"


def test_names_a_language_reads_cookie_and_accept_language(rf):
    assert not names_a_language(rf.get("/"))
    assert not names_a_language(rf.get("/", HTTP_ACCEPT_LANGUAGE="fr-FR,de;q=0.5,*;q=0.1"))
    assert names_a_language(rf.get("/", HTTP_ACCEPT_LANGUAGE="fr-FR,ko;q=0.5"))
    request = rf.get("/")
    request.COOKIES[settings.LANGUAGE_COOKIE_NAME] = "ko"
    assert names_a_language(request)
