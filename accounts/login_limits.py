"""Brute-force limits on logging in: django-axes, wired for WarpDrill.

django-axes counts failed logins in the database (shared by every web process) and refuses a
username from an address once it has failed AXES_FAILURE_LIMIT times, until the cool-off has
passed. It applies to everything that authenticates with a request: the log-in form, the admin's
and the API's token endpoint. The views render the refusal themselves (`is_locked_out`,
`lockout_message`): the form with its message and status 429, the API as {"error": ...}.
"""
from __future__ import annotations

from axes.backends import AxesStandaloneBackend
from axes.helpers import get_cool_off
from django.conf import settings
from django.utils.translation import ngettext


class LoginLimitBackend(AxesStandaloneBackend):
    """Refuses credentials while axes has them locked out; authenticates nobody itself.

    `authenticate()` without a request (the shell, management commands, tests calling it
    directly) is not a login attempt from anywhere, so it is let through to the next backend
    instead of failing as axes's own backend does.
    """

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)


def is_locked_out(request) -> bool:
    """True when axes refused (or just locked) the credentials of this request's login attempt.

    `request` is the one given to `authenticate()`: Django's HttpRequest, or DRF's Request.
    """
    return bool(getattr(request, "axes_locked_out", False))


def lockout_message() -> str:
    """What a locked-out user reads, in their language, with the cool-off in minutes."""
    cool_off = get_cool_off()
    minutes = max(1, round(cool_off.total_seconds() / 60)) if cool_off else 0
    if not minutes:
        return str(settings.AXES_PERMALOCK_MESSAGE)
    return ngettext(
        "Too many failed log-in attempts for this account from your network. Try again in %(minutes)d minute.",
        "Too many failed log-in attempts for this account from your network. Try again in %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}


def client_ip(request) -> str | None:
    """The client's address as axes records it: REMOTE_ADDR, or behind WARPDRILL_TRUSTED_PROXIES
    reverse proxies (nginx appends the address it saw to X-Forwarded-For), the entry that many
    places from the right of that header; entries further left were written by the client and
    are never trusted."""
    hops = settings.WARPDRILL_TRUSTED_PROXIES
    if hops:
        forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
        if len(forwarded) >= hops:
            return forwarded[-hops]
    return request.META.get("REMOTE_ADDR")
