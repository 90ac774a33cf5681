"""API tokens: the one write path for seeing, using, revoking and rotating them (issue #13).

A user has at most one key (DRF's Token; POST /api/v1/token gets or creates it). What changed:
- `TrackedTokenAuthentication` (and its `Bearer` twin) records when the key was last used, at most
  once a minute (USE_GRANULARITY_S) so that a polling script costs no write per request;
- `revoke(user)` deletes the key; the account's token page (accounts.views.tokens) and
  DELETE /api/v1/token (a token client's log-out) call it;
- the key is deleted whenever the user's password changes (a pre_save hook on the user model,
  connected in AccountsConfig.ready): a leaked key dies with the password it was taken with,
  whichever way the password changed (set-password link, admin, `changepassword`).
Logging out of the browser ends the browser session only: the key belongs to the user's scripts,
which hold no session, and is revoked on its own page or by DELETE /api/v1/token.
"""
from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token

USE_GRANULARITY_S = 60  # "last used" is exact to a minute; a request within it writes nothing


def record_use(token: Token, now=None) -> None:
    """Note that `token` authenticated a request now (no write if it was noted less than a minute ago)."""
    from .models import TokenUse

    now = now or timezone.now()
    fresh = now - timedelta(seconds=USE_GRANULARITY_S)
    if TokenUse.objects.filter(token=token, last_used_at__gte=fresh).exists():
        return
    TokenUse.objects.update_or_create(token=token, defaults={"last_used_at": now})


def token_info(user) -> dict | None:
    """What the token page shows: {"prefix": first 4 characters, "created": datetime, "last_used": datetime | None},
    or None when the user has no key. The whole key is never shown again after it was created."""
    token = Token.objects.filter(user=user).select_related("use").first()
    if token is None:
        return None
    use = getattr(token, "use", None)  # no TokenUse row: never used
    return {"prefix": token.key[:4], "created": token.created, "last_used": use.last_used_at if use else None}


def create(user) -> str:
    """A new key for `user`, replacing any old one. Returns the key (shown once)."""
    with transaction.atomic():
        Token.objects.filter(user=user).delete()
        return Token.objects.create(user=user).key


def revoke(user) -> bool:
    """Delete `user`'s key; True if there was one. A client using it gets 401 from its next request."""
    deleted, _ = Token.objects.filter(user=user).delete()
    return bool(deleted)


def rotate_on_password_change(sender, instance, raw=False, **kwargs) -> None:
    """pre_save hook on the user model: a changed password hash deletes the user's API key."""
    if raw or instance.pk is None:
        return
    old = sender.objects.filter(pk=instance.pk).values_list("password", flat=True).first()
    if old is not None and old != instance.password:
        Token.objects.filter(user_id=instance.pk).delete()


class TrackedTokenAuthentication(TokenAuthentication):
    """`Authorization: Token <key>`, recording the key's last use."""

    def authenticate_credentials(self, key):
        user, token = super().authenticate_credentials(key)
        record_use(token)
        return user, token


class TrackedBearerAuthentication(TrackedTokenAuthentication):
    """`Authorization: Bearer <key>`: the same keys under the scheme most clients use."""

    keyword = "Bearer"
