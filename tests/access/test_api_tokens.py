"""Issue #13 (section 5): API tokens had no page, never rotated and survived everything.

The account's token page (/accounts/tokens/) shows the key's creation and last use and revokes or
replaces it; a changed password deletes it, however it changed; DELETE /api/v1/token revokes the key
it is sent with (a token client's log-out). A browser log-out ends the session only (the key belongs
to scripts that hold no session): that is the design, tested here so it changes only on purpose.
"""
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts import tokens
from accounts.models import TokenUse

pytestmark = pytest.mark.django_db
PASSWORD = "Correct-Horse-9"
PROBLEMS = "/api/v1/problems"


@pytest.fixture
def alice():
    return User.objects.create_user("alice", password=PASSWORD)


@pytest.fixture
def alice_key(alice):
    r = APIClient().post("/api/v1/token", {"username": "alice", "password": PASSWORD}, format="json")
    assert r.status_code == 200
    return r.json()["token"]


def api(key: str, scheme: str = "Token") -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"{scheme} {key}")
    return client


def test_token_page_needs_login(client):
    r = client.get(reverse("api_tokens"))
    assert r.status_code == 302 and "/accounts/login/" in r["Location"]


def test_token_page_shows_created_and_last_used_never_the_whole_key(client, alice, alice_key):
    client.force_login(alice)
    html = client.get(reverse("api_tokens")).content.decode()
    assert "never" in html and alice_key not in html and f"{alice_key[:4]}…" in html
    assert api(alice_key).get(PROBLEMS).status_code == 200
    used = TokenUse.objects.get(token__key=alice_key).last_used_at
    assert timezone.now() - used < timedelta(minutes=1)
    r = client.get(reverse("api_tokens"))
    html = r.content.decode()
    assert f'datetime="{used.isoformat()}"'[:30] in html and "never" not in html
    assert "no-store" in r["Cache-Control"] or "max-age=0" in r["Cache-Control"]


def test_bearer_requests_count_as_use_and_a_polling_script_writes_once_a_minute(alice, alice_key, django_assert_max_num_queries):
    assert api(alice_key, "Bearer").get(PROBLEMS).status_code == 200
    first = TokenUse.objects.get(token__key=alice_key).last_used_at
    for _ in range(3):
        api(alice_key).get(PROBLEMS)
    assert TokenUse.objects.get(token__key=alice_key).last_used_at == first
    token = Token.objects.get(key=alice_key)
    tokens.record_use(token, now=first + timedelta(seconds=tokens.USE_GRANULARITY_S + 1))
    assert TokenUse.objects.get(token=token).last_used_at > first


def test_revoking_on_the_page_refuses_the_key_at_once(client, alice, alice_key):
    client.force_login(alice)
    r = client.post(reverse("api_tokens"), {"action": "revoke"})
    assert r.status_code == 302
    assert api(alice_key).get(PROBLEMS).status_code == 401
    html = client.get(reverse("api_tokens")).content.decode()
    assert "You have no API token." in html and "was revoked" in html


def test_the_page_creates_a_key_shown_once_replacing_the_old_one(client, alice, alice_key):
    client.force_login(alice)
    r = client.post(reverse("api_tokens"), {"action": "create"})
    new_key = Token.objects.get(user=alice).key
    assert new_key != alice_key and new_key in r.content.decode()
    assert new_key not in client.get(reverse("api_tokens")).content.decode()
    assert api(alice_key).get(PROBLEMS).status_code == 401
    assert api(new_key).get(PROBLEMS).status_code == 200


def test_the_page_refuses_a_cross_site_post(alice, alice_key):
    from django.test import Client

    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)
    assert browser.post(reverse("api_tokens"), {"action": "revoke"}).status_code == 403
    assert Token.objects.filter(key=alice_key).exists()


def test_unknown_action_is_a_400_and_changes_nothing(client, alice, alice_key):
    client.force_login(alice)
    assert client.post(reverse("api_tokens"), {"action": "steal"}).status_code == 400
    assert Token.objects.filter(key=alice_key).exists()


def test_one_users_page_never_touches_anothers_key(client, alice, alice_key):
    bob = User.objects.create_user("bob", password=PASSWORD)
    bob_key = Token.objects.create(user=bob).key
    client.force_login(alice)
    client.post(reverse("api_tokens"), {"action": "revoke"})
    assert bob_key not in client.get(reverse("api_tokens")).content.decode()
    assert api(bob_key).get(PROBLEMS).status_code == 200


@pytest.mark.parametrize("how", ["set_password", "changepassword", "reset_link"])
def test_a_changed_password_revokes_the_key(client, alice, alice_key, how, monkeypatch):
    if how == "set_password":
        alice.set_password("Another-Horse-7")
        alice.save()
    elif how == "changepassword":
        answers = iter(["Another-Horse-7", "Another-Horse-7"])
        monkeypatch.setattr("getpass.getpass", lambda prompt="": next(answers))
        call_command("changepassword", "alice")
    else:
        from django.contrib.auth.tokens import default_token_generator
        from django.utils.encoding import force_bytes
        from django.utils.http import urlsafe_base64_encode

        uid = urlsafe_base64_encode(force_bytes(alice.pk))
        url = reverse("password_reset_confirm", args=[uid, default_token_generator.make_token(alice)])
        form_url = client.get(url)["Location"]
        r = client.post(form_url, {"new_password1": "Another-Horse-7", "new_password2": "Another-Horse-7"})
        assert r.status_code == 302, r.content
    assert api(alice_key).get(PROBLEMS).status_code == 401
    assert not Token.objects.filter(user=alice).exists()


def test_saving_the_user_without_a_new_password_keeps_the_key(alice, alice_key):
    alice.first_name = "Alice"
    alice.save()
    alice.last_login = timezone.now()
    alice.save(update_fields=["last_login"])
    assert api(alice_key).get(PROBLEMS).status_code == 200


def test_delete_api_token_revokes_the_key_it_is_sent_with(alice, alice_key):
    client = api(alice_key)
    assert client.delete("/api/v1/token").status_code == 204
    assert client.get(PROBLEMS).status_code == 401
    assert not Token.objects.filter(user=alice).exists()
    # Without a key, or with a bad one: 401 in the API's format, nothing revoked.
    fresh = api(Token.objects.create(user=alice).key)
    r = APIClient().delete("/api/v1/token")
    assert r.status_code == 401 and "error" in r.json() and r["WWW-Authenticate"] == "Token"
    assert api("not-a-key").delete("/api/v1/token").status_code == 401
    assert fresh.get(PROBLEMS).status_code == 200


def test_a_browser_log_out_ends_the_session_not_the_scripts_key(client, alice, alice_key):
    client.force_login(alice)
    client.post(reverse("logout"))
    assert client.get(reverse("api_tokens")).status_code == 302  # the session is gone
    assert api(alice_key).get(PROBLEMS).status_code == 200  # the design: see the module docstring


def test_token_page_is_in_korean(client, alice, alice_key):
    client.force_login(alice)
    client.cookies["django_language"] = "ko"
    html = client.get(reverse("api_tokens"), HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "API 토큰" in html and "폐기" in html
