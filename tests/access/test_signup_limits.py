"""Sign-up: confusable usernames are refused, sign-ups are throttled per address, and a deployment
can require an invite code (issue 13, finding 5)."""
from __future__ import annotations

import gc

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings

from accounts.core.usernames import UsernameProblem, skeleton, username_problem

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-battery-9"


def _signup(client: Client, username: str, **extra):
    return client.post("/accounts/signup/", {"username": username, "password1": PASSWORD, "password2": PASSWORD,
                                             **extra})


@pytest.mark.parametrize("name, existing, problem", [
    ("іnstructor", ["instructor"], UsernameProblem.MIXED_SCRIPTS),  # Cyrillic і among Latin letters
    ("аce", [], UsernameProblem.MIXED_SCRIPTS),
    ("асе", ["ace"], UsernameProblem.LOOKS_LIKE_EXISTING),  # all Cyrillic, looks like "ace"
    ("Instructor", ["instructor"], UsernameProblem.LOOKS_LIKE_EXISTING),
    ("admin1", ["adminl"], UsernameProblem.LOOKS_LIKE_EXISTING),
    ("ｉｎｓｔｒｕｃｔｏｒ", ["instructor"], UsernameProblem.LOOKS_LIKE_EXISTING),  # full-width, NFKC folds it
    ("alice\u200b", [], UsernameProblem.INVISIBLE),
    ("alice", ["bob"], None),
    ("김철수", ["alice"], None),
    ("müller", ["bob"], None),
])
def test_username_problems(name, existing, problem):
    assert username_problem(name, existing) is problem


def test_skeletons():
    assert skeleton("Раураl") == skeleton("paypal")
    assert skeleton("o_b") == skeleton("0b")


def test_signup_refuses_a_look_alike_of_an_existing_user(client):
    """'іnstructor' with a Cyrillic 'і', and 'instruct0r', are refused beside 'instructor'; nothing is created."""
    User.objects.create_user("instructor", password=PASSWORD)
    response = _signup(client, "іnstructor")
    assert response.status_code == 200 and "alphabet" in response.content.decode()
    response = _signup(client, "instruct0r")  # a zero for the o
    assert "looks the same" in response.content.decode()
    assert User.objects.count() == 1


def test_the_look_alike_check_leaves_no_cursor_open(client):
    """The existing usernames are read through a server-side cursor on PostgreSQL and only as far as the
    first look-alike. The refusal's traceback keeps the reading frame alive, so a cursor left to the
    garbage collector stayed open and was closed in the middle of a later query on the same connection,
    which then waited for its own lock (the suite hung once). It is closed before the form answers."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("server-side cursors are PostgreSQL's")
    for name in ("instructor", "zeta", "omega"):
        User.objects.create_user(name, password=PASSWORD)
    gc.disable()  # the cycle (form -> its errors -> the refusal -> its traceback -> the frame) is the GC's
    try:
        response = _signup(client, "instruct0r")  # a zero for the o: the usernames are read
        assert "looks the same" in response.content.decode()
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_cursors")
            assert cursor.fetchone()[0] == 0
    finally:
        gc.enable()


@override_settings(WARPDRILL_SIGNUPS_PER_HOUR=3)
def test_signup_is_throttled_per_address():
    """Three accounts from one address in an hour; the fourth attempt is a 429 and creates nothing."""
    for k in range(3):
        assert _signup(Client(), f"student{k}x").status_code == 302
    refused = _signup(Client(), "student9x")
    assert refused.status_code == 429 and "Too many accounts" in refused.content.decode()
    assert not User.objects.filter(username="student9x").exists()


@override_settings(WARPDRILL_SIGNUP_REQUIRES_INVITE=True)
def test_a_deployment_can_require_an_invite_code(client):
    """With the setting, sign-up needs a valid invite code and enrols the new account in its course."""
    from courses.models import Course, Invite, Membership

    course = Course.objects.create(name="CUDA 101", code="CUDA101")
    Invite.objects.create(course=course, code="JOINME42", role="student")
    assert "invite_code" in client.get("/accounts/signup/").content.decode()
    assert "This field is required" in _signup(client, "nocode").content.decode()
    assert "not valid" in _signup(client, "badcode", invite_code="WRONG").content.decode()
    assert not User.objects.filter(username__in=["nocode", "badcode"]).exists()
    assert _signup(client, "withcode", invite_code="join-me-42").status_code == 302
    assert Membership.objects.filter(course=course, user__username="withcode").exists()
