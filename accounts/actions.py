"""The write path of accounts: creating users."""
import time

from django.conf import settings
from django.contrib.auth.forms import UserCreationForm
from django.core.cache import cache
from django.contrib.auth.models import Group

from .roles import STUDENT_GROUP


def create_student(form: UserCreationForm):
    """Save the (valid) sign-up form's user and put it in the Student group; with an invite code in the
    form (where the site requires one), enrol it in that course. Call inside a transaction."""
    user = form.save()
    group, _ = Group.objects.get_or_create(name=STUDENT_GROUP)
    user.groups.add(group)
    code = form.cleaned_data.get("invite_code")
    if code:
        from courses.actions import join_with_code

        join_with_code(user, code)  # checked by the form; InviteError (a race) rolls the sign-up back
    return user


SIGNUP_WINDOW_S = 3600


def _signup_key(request) -> str:
    from axes.helpers import get_client_ip_address

    return f"accounts:signups:{get_client_ip_address(request)}"


def signup_wait_s(request, now: float | None = None) -> int:
    """Seconds until the request's address may create another account (0: now), at most
    WARPDRILL_SIGNUPS_PER_HOUR per address in any hour. Counted in the default cache, as django-axes
    resolves the address (behind the proxy it is configured for)."""
    limit = settings.WARPDRILL_SIGNUPS_PER_HOUR
    if not limit:
        return 0
    now = time.time() if now is None else now
    recent = [t for t in cache.get(_signup_key(request), []) if t > now - SIGNUP_WINDOW_S]
    if len(recent) < limit:
        return 0
    return max(1, int(min(recent) + SIGNUP_WINDOW_S - now) + 1)


def note_signup(request, now: float | None = None) -> None:
    """Count an account created from the request's address (see signup_wait_s)."""
    now = time.time() if now is None else now
    key = _signup_key(request)
    recent = [t for t in cache.get(key, []) if t > now - SIGNUP_WINDOW_S]
    cache.set(key, [*recent, now], SIGNUP_WINDOW_S)
