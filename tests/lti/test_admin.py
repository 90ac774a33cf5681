"""The platform registration in the admin: added from the form (a key pair is made on save, the private
key never shown), a JWKS source required, and the key rotation action."""
from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from lti.models import Platform

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(db):
    client = Client()
    client.force_login(User.objects.create_superuser("root", "root@example.org", "pass-1234-word"))
    return client


FORM = {"name": "Canvas", "issuer": "https://canvas.instructure.com", "client_id": "10000000000001",
        "deployment_ids": '["1:abc"]', "auth_login_url": "https://sso.canvaslms.com/api/lti/authorize_redirect",
        "auth_token_url": "https://canvas.example.edu/login/oauth2/token",
        "key_set_url": "https://sso.canvaslms.com/api/lti/security/jwks", "auth_audience": "", "key_set": "",
        "is_active": "on"}


def test_adding_a_platform_in_the_admin_makes_its_key_pair(admin_client, course):
    page = admin_client.get("/admin/lti/platform/add/")
    assert page.status_code == 200 and b"tool_private_key" not in page.content
    response = admin_client.post("/admin/lti/platform/add/", {**FORM, "courses": [course.pk]})
    assert response.status_code == 302, response.content[:2000]
    platform = Platform.objects.get()
    assert platform.deployment_ids == ["1:abc"] and list(platform.courses.all()) == [course]
    assert platform.tool_private_key.startswith("-----BEGIN PRIVATE KEY-----")
    change = admin_client.get(f"/admin/lti/platform/{platform.pk}/change/").content.decode()
    assert "BEGIN PUBLIC KEY" in change and "BEGIN PRIVATE KEY" not in change
    assert Client().get("/lti/jwks.json").json()["keys"][0]["kty"] == "RSA"


def test_a_platform_needs_a_jwks_and_a_list_of_deployments(admin_client):
    response = admin_client.post("/admin/lti/platform/add/", {**FORM, "key_set_url": "", "deployment_ids": '"1"'})
    assert response.status_code == 200 and not Platform.objects.exists()
    text = response.content.decode()
    assert "JWKS URL" in text and "JSON list of deployment ids" in text


def test_the_rotation_action_replaces_the_key_pair(admin_client, lms, registration):
    old_public = registration.tool_public_key
    old_kid = Client().get("/lti/jwks.json").json()["keys"][0]["kid"]
    response = admin_client.post("/admin/lti/platform/", {"action": "new_tool_key", "_selected_action": [registration.pk]})
    assert response.status_code == 302
    registration.refresh_from_db()
    assert registration.tool_public_key != old_public
    assert Client().get("/lti/jwks.json").json()["keys"][0]["kid"] != old_kid
