"""The write path of accounts: creating users."""
import time

from django.conf import settings
from django.contrib.auth.forms import UserCreationForm
from django.core.cache import caches
from django.contrib.auth.models import Group

from .roles import STUDENT_GROUP


def create_student(form: UserCreationForm, invite_code: str = ""):
    """Save the (valid) sign-up form's user with the name, email and student ID it gives
    (accounts.profiles) and put it in the Student group; with an invite code (the
    form's, where the site requires one, else `invite_code`: the invite the sign-up came with), enrol
    it in that course, which counts a use of the invite. Call inside a transaction: an InviteError
    (the invite stopped working meanwhile) must roll the sign-up back."""
    from .profiles import set_identity

    user = form.save()
    set_identity(user, **form.identity())
    group, _ = Group.objects.get_or_create(name=STUDENT_GROUP)
    user.groups.add(group)
    code = form.cleaned_data.get("invite_code") or invite_code
    if code:
        from courses.actions import join_with_code

        join_with_code(user, code)
    return user


SIGNUP_WINDOW_S = 3600


def _signup_key(request, invite_id: int | None = None) -> str:
    from axes.helpers import get_client_ip_address

    address = get_client_ip_address(request)
    return f"accounts:signups:{address}" if invite_id is None else f"accounts:signups:{address}:invite:{invite_id}"


def signup_limit(invite_id: int | None = None) -> int:
    """Accounts one address may create in an hour (0: no limit): WARPDRILL_SIGNUPS_PER_HOUR, or with a
    usable course invite WARPDRILL_INVITE_SIGNUPS_PER_HOUR for that invite (a lab behind one router)."""
    if invite_id is None:
        return settings.WARPDRILL_SIGNUPS_PER_HOUR
    return settings.WARPDRILL_INVITE_SIGNUPS_PER_HOUR


def signup_wait_s(request, now: float | None = None, invite_id: int | None = None) -> int:
    """Seconds until the request's address may create another account (0: now): at most signup_limit()
    in any hour, counted per address, and per (address, invite) for sign-ups carrying a usable invite
    `invite_id` (their own count, apart from the address's). Counted in the "live" cache, which every web
    process shares (Redis in production; a per-process cache would let each process allow the limit
    again), the address as django-axes resolves it (behind the proxy it is configured for)."""
    limit = signup_limit(invite_id)
    if not limit:
        return 0
    now = time.time() if now is None else now
    recent = [t for t in _counts().get(_signup_key(request, invite_id), []) if t > now - SIGNUP_WINDOW_S]
    if len(recent) < limit:
        return 0
    return max(1, int(min(recent) + SIGNUP_WINDOW_S - now) + 1)


def note_signup(request, now: float | None = None, invite_id: int | None = None) -> None:
    """Count an account created from the request's address (with invite `invite_id`: in that invite's
    count; see signup_wait_s)."""
    now = time.time() if now is None else now
    key = _signup_key(request, invite_id)
    counts = _counts()
    recent = [t for t in counts.get(key, []) if t > now - SIGNUP_WINDOW_S]
    counts.set(key, [*recent, now], SIGNUP_WINDOW_S)


def _counts():
    """The cache that holds sign-up counts: the one every web process shares (settings.CACHES["live"])."""
    return caches["live"]
