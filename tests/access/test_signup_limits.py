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


@override_settings(WARPDRILL_SIGNUPS_PER_HOUR=2)
def test_the_count_is_shared_by_every_web_process():
    """The count lives in the cache all web processes share: a process with an empty cache of its own
    (the default cache is per process) still refuses the address's third account in the hour."""
    from django.core.cache import cache

    for k in range(2):
        assert _signup(Client(), f"shared{k}x").status_code == 302
    cache.clear()  # another gunicorn worker: nothing in its own cache
    assert _signup(Client(), "shared9x").status_code == 429
    assert not User.objects.filter(username="shared9x").exists()


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


def _invite_signup(username: str, code: str):
    return _signup(Client(), username, next=f"/courses/join/{code}/")


@override_settings(WARPDRILL_SIGNUPS_PER_HOUR=3, WARPDRILL_INVITE_SIGNUPS_PER_HOUR=4)
def test_a_labs_students_behind_one_address_sign_up_with_the_course_invite():
    """The tester's 6th student of a lab behind one router was refused ("Too many accounts") although
    they came by the course's invite link. Sign-ups carrying a usable invite have their own count per
    (address, invite), enrol at once (using the invite) and land on the course; the address's own
    limit still holds for sign-ups without one."""
    from courses.models import Course, Invite, Membership

    course = Course.objects.create(name="CUDA 101", code="CUDA101")
    invite = Invite.objects.create(course=course, code="LAB2027A", role="student")
    other = Invite.objects.create(course=course, code="LAB2027B", role="student")
    for k in range(3):
        assert _signup(Client(), f"plain{k}x").status_code == 302
    assert _signup(Client(), "plain9x").status_code == 429  # the address is spent
    for k in range(4):
        response = _invite_signup(f"lab{k}x", invite.code)
        assert response.status_code == 302 and response["Location"] == "/courses/CUDA101/", response.content[:300]
    assert set(Membership.objects.filter(course=course).values_list("user__username", flat=True)) == {
        "lab0x", "lab1x", "lab2x", "lab3x"}
    invite.refresh_from_db()
    assert invite.uses == 4
    refused = _invite_signup("lab4x", invite.code)
    assert refused.status_code == 429 and "Too many accounts" in refused.content.decode()
    assert _invite_signup("lab5x", other.code).status_code == 302  # another invite counts apart
    assert _signup(Client(), "plain10x").status_code == 429
    assert not User.objects.filter(username__in=["lab4x", "plain9x", "plain10x"]).exists()


@override_settings(WARPDRILL_SIGNUPS_PER_HOUR=1, WARPDRILL_INVITE_SIGNUPS_PER_HOUR=50)
@pytest.mark.parametrize("state", ["used_up", "expired", "revoked", "unknown"])
def test_an_unusable_invite_gives_no_way_past_the_address_limit(state):
    """A leaked invite is bounded by its own maximum uses and expiry, and a revoked one by nothing:
    past them, the address's limit applies again."""
    from datetime import timedelta

    from django.utils import timezone

    from courses.models import Course, Invite

    course = Course.objects.create(name="CUDA 101", code="CUDA101")
    invite = Invite.objects.create(course=course, code="LEAKED77", role="student", max_uses=2)
    assert _signup(Client(), "plainx").status_code == 302  # the address's one
    if state == "used_up":
        for k in range(2):
            assert _invite_signup(f"lab{k}x", invite.code).status_code == 302
    elif state == "expired":
        Invite.objects.filter(pk=invite.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    elif state == "revoked":
        Invite.objects.filter(pk=invite.pk).update(revoked_at=timezone.now())
    code = "NOSUCH99" if state == "unknown" else invite.code
    assert _invite_signup("latex", code).status_code == 429
    assert not User.objects.filter(username="latex").exists()


@override_settings(WARPDRILL_SIGNUPS_PER_HOUR=1, WARPDRILL_INVITE_SIGNUPS_PER_HOUR=50)
def test_only_a_join_link_or_the_code_field_carries_an_invite():
    """A `next` that is not the invite's join page (the code in a query string, another page) is no invite."""
    from courses.models import Course, Invite

    course = Course.objects.create(name="CUDA 101", code="CUDA101")
    Invite.objects.create(course=course, code="LAB2027A", role="student")
    assert _signup(Client(), "plainx").status_code == 302
    assert _signup(Client(), "sneaky1x", next="/courses/CUDA101/?code=LAB2027A").status_code == 429
    assert _signup(Client(), "sneaky2x", next="https://evil.example/courses/join/LAB2027A/").status_code == 429


@override_settings(WARPDRILL_SIGNUP_REQUIRES_INVITE=True, WARPDRILL_SIGNUPS_PER_HOUR=1,
                   WARPDRILL_INVITE_SIGNUPS_PER_HOUR=3)
def test_a_closed_deployments_invite_code_field_counts_per_invite():
    from courses.models import Course, Invite, Membership

    course = Course.objects.create(name="CUDA 101", code="CUDA101")
    Invite.objects.create(course=course, code="JOINME42", role="student")
    for k in range(3):
        assert _signup(Client(), f"lab{k}x", invite_code="join-me-42").status_code == 302
    assert _signup(Client(), "lab3x", invite_code="JOINME42").status_code == 429
    assert Membership.objects.filter(course=course).count() == 3
