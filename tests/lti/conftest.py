"""Fixtures of the LTI tests: the test platform (tests/lti/platform.py), its registration, a course with
an exam and a problem set, and the browser's part of a launch."""
from __future__ import annotations

from datetime import timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from django.utils import timezone

from .platform import CLIENT_ID, ISSUER, TestPlatform

LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
TA = "http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant"


@pytest.fixture(autouse=True)
def fast_password_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def lms():
    platform = TestPlatform()
    yield platform
    platform.stop()


@pytest.fixture
def course(db):
    from courses.models import Course

    return Course.objects.create(name="GPU Programming", code="GPU101")


@pytest.fixture
def registration(lms, course):
    """The test LMS registered with WarpDrill (the admin's form), allowed to launch into GPU101; the
    platform learns the tool's public keys from /lti/jwks.json."""
    from lti.models import Platform

    platform = Platform.objects.create(**lms.registration())
    platform.courses.add(course)
    lms.tool_jwks = Client().get("/lti/jwks.json").json()
    return platform


@pytest.fixture
def exam(course):
    from django.contrib.auth.models import User

    from exams.actions.scheduling import save_template, schedule_exam

    from tests.exams.conftest import TEMPLATE

    ivy = User.objects.create_user("ivy-lti", password="pass-1234-word")
    template = save_template(course, ivy, {**TEMPLATE, "zones": TEMPLATE["zones"][:1]})
    now = timezone.now()
    return schedule_exam(course, template, opens_at=now - timedelta(hours=2),
                         closes_at=now - timedelta(hours=1), duration_minutes=30, title="Midterm")


def start_login(client: Client, **params) -> dict:
    """The LMS's login initiation, as the browser sends it; returns the authorisation request's parameters."""
    form = {"iss": ISSUER, "login_hint": "hint-1", "target_link_uri": "http://testserver/lti/launch/",
            "client_id": CLIENT_ID, "lti_message_hint": "msg-1", **params}
    response = client.post("/lti/login/", form)
    assert response.status_code == 302, response.content[:500]
    return {k: v[0] for k, v in parse_qs(urlsplit(response["Location"]).query).items()}


def launch(client: Client, lms: TestPlatform, *, state: str | None = None, nonce: str | None = None, **claims):
    """Login initiation, then the platform's form post of a signed id_token; returns the launch's response."""
    auth = start_login(client)
    token = lms.id_token(nonce or auth["nonce"], **claims)
    return client.post("/lti/launch/", {"id_token": token, "state": state or auth["state"]})
