"""LTI 1.3 launches from a test platform that signs its id_tokens with its own key: login initiation,
id_token verification (signature, nonce, state, deployment), the account and course role, the target page."""
from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from django.contrib.auth.models import User
from django.test import Client

from courses.models import Membership
from lti.launch import course_role
from lti.models import LtiUser, ResourceLink

from .conftest import INSTRUCTOR, LEARNER, TA, launch, start_login
from .platform import CLIENT_ID, ISSUER, rsa_pair

pytestmark = pytest.mark.django_db


def test_login_initiation_redirects_to_the_platform_with_state_and_nonce(lms, registration):
    """The OIDC authorisation request names our client id and launch URL; the state is also a cookie."""
    client = Client()
    auth = start_login(client)
    response_location = lms.url + "/auth"
    assert auth["client_id"] == CLIENT_ID and auth["redirect_uri"] == "http://testserver/lti/launch/"
    assert auth["response_type"] == "id_token" and auth["scope"] == "openid" and auth["prompt"] == "none"
    assert auth["login_hint"] == "hint-1" and auth["lti_message_hint"] == "msg-1" and auth["nonce"]
    assert client.cookies.get(f"lti1p3-{auth['state']}").value == auth["state"]
    assert registration.auth_login_url == response_location


def test_an_unregistered_issuer_is_refused_at_login(lms, registration):
    response = Client().post("/lti/login/", {"iss": "https://other.example", "login_hint": "h"})
    assert response.status_code == 400 and b"not registered" in response.content


def test_a_learner_launch_makes_an_account_a_student_and_opens_the_exam(lms, registration, course, exam):
    client = Client()
    response = launch(client, lms, sub="lms-user-7", roles=[LEARNER], custom={"course": "GPU101", "exam": str(exam.pk)},
                      ags=lms.ags_claim())
    assert response.status_code == 302, response.content[:800]
    assert response["Location"] == f"/exams/{exam.pk}/"
    identity = LtiUser.objects.get(platform=registration, sub="lms-user-7")
    user = identity.user
    assert user.email == "lms-user-7@lms.test.example" and user.first_name == "Alice" and not user.has_usable_password()
    assert Membership.objects.get(course=course, user=user).role == "student"
    assert client.get(f"/exams/{exam.pk}/").status_code == 200  # logged in, and a member
    link = ResourceLink.objects.get()
    assert (link.course, link.exam, link.context_id, link.resource_link_id) == (course, exam, "lms-course-1", "link-1")
    assert link.ags["lineitems"] == lms.url + "/lineitems" and link.graded


def test_an_instructor_launch_gives_the_instructor_role_and_a_relaunch_reuses_the_account(lms, registration, course):
    launch(Client(), lms, sub="teacher-1", roles=[INSTRUCTOR], custom={"course": "GPU101"})
    response = launch(Client(), lms, sub="teacher-1", roles=[INSTRUCTOR], resource_link_id="link-2")
    assert response.status_code == 302 and response["Location"] == "/courses/GPU101/"  # the context's course
    assert LtiUser.objects.filter(sub="teacher-1").count() == 1
    user = LtiUser.objects.get(sub="teacher-1").user
    assert Membership.objects.get(course=course, user=user).role == "instructor"
    # A later launch as a learner (the LMS's student view) does not lower the role.
    launch(Client(), lms, sub="teacher-1", roles=[LEARNER])
    assert Membership.objects.get(course=course, user=user).role == "instructor"


@pytest.mark.parametrize("roles, role", [([LEARNER], "student"), ([TA, INSTRUCTOR], "ta"), (["Instructor"], "instructor"),
                                         (["http://purl.imsglobal.org/vocab/lis/v2/membership#Mentor"], None), ([], None)])
def test_lti_roles_map_to_course_roles(roles, role):
    assert course_role(roles) == role


def test_an_observer_is_refused(lms, registration):
    response = launch(Client(), lms, sub="obs", roles=["http://purl.imsglobal.org/vocab/lis/v2/membership#Mentor"],
                      custom={"course": "GPU101"})
    assert response.status_code == 403 and not User.objects.filter(lti_identities__sub="obs").exists()


def _refused(response) -> bool:
    return response.status_code == 403 and not LtiUser.objects.exists() and not Membership.objects.exists()


def test_a_token_signed_with_another_key_is_refused(lms, registration):
    other, _public = rsa_pair()
    assert _refused(launch(Client(), lms, sub="mallory", roles=[INSTRUCTOR], custom={"course": "GPU101"}, key=other))


def test_login_initiation_by_get_works_too(lms, registration):
    """Moodle initiates with a GET; the same parameters in the query string give the same redirect."""
    response = Client().get("/lti/login/", {"iss": ISSUER, "login_hint": "h", "client_id": CLIENT_ID,
                                            "target_link_uri": "http://testserver/lti/launch/"})
    assert response.status_code == 302 and response["Location"].startswith(lms.url + "/auth?")


def test_a_replayed_or_foreign_nonce_is_refused(lms, registration):
    assert _refused(launch(Client(), lms, sub="mallory", roles=[LEARNER], custom={"course": "GPU101"}, nonce="made-up"))


def test_a_launch_without_its_state_cookie_is_refused(lms, registration):
    auth = start_login(Client())  # another browser started the login
    token = lms.id_token(auth["nonce"], sub="mallory", roles=[LEARNER], custom={"course": "GPU101"})
    assert _refused(Client().post("/lti/launch/", {"id_token": token, "state": auth["state"]}))


def test_a_token_cannot_be_used_twice(lms, registration):
    client = Client()
    auth = start_login(client)
    token = lms.id_token(auth["nonce"], sub="alice", roles=[LEARNER], custom={"course": "GPU101"})
    assert client.post("/lti/launch/", {"id_token": token, "state": auth["state"]}).status_code == 302
    assert client.post("/lti/launch/", {"id_token": token, "state": auth["state"]}).status_code == 403


def test_an_unknown_deployment_is_refused(lms, registration):
    assert _refused(launch(Client(), lms, sub="x", roles=[LEARNER], custom={"course": "GPU101"}, deployment_id="other"))


def test_a_course_the_platform_may_not_launch_into_is_refused(lms, registration):
    from courses.models import Course

    Course.objects.create(name="Someone else's", code="OTHER")
    response = launch(Client(), lms, sub="teacher-2", roles=[INSTRUCTOR], custom={"course": "OTHER"})
    assert _refused(response) and b"OTHER" in response.content


def test_a_link_without_a_course_is_refused_with_the_custom_parameter_to_set(lms, registration):
    response = launch(Client(), lms, sub="x", roles=[LEARNER])
    assert _refused(response) and b"course=CODE" in response.content


def test_a_problem_set_link_opens_the_set(lms, registration, course):
    from datetime import timedelta

    from django.utils import timezone

    from homework.models import ProblemSet

    now = timezone.now()
    pset = ProblemSet.objects.create(course=course, title_en="Week 1", opens_at=now - timedelta(days=1),
                                     due_at=now + timedelta(days=1))
    response = launch(Client(), lms, sub="s", roles=[LEARNER], custom={"course": "GPU101", "problem_set": str(pset.pk)})
    assert response.status_code == 302 and response["Location"] == f"/courses/GPU101/sets/{pset.pk}/"


def test_the_jwks_serves_each_registrations_public_key(lms, registration):
    keys = Client().get("/lti/jwks.json").json()["keys"]
    assert len(keys) == 1 and keys[0]["kty"] == "RSA" and keys[0]["alg"] == "RS256" and keys[0]["kid"]
    assert "d" not in keys[0]  # the public half only
    assert urlsplit(registration.key_set_url).path == "/jwks" and parse_qs("") == {}
