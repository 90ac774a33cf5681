"""An exam's password, checked at Start with a limit on tries: at most PASSWORD_TRIES per student per
exam in a window of PASSWORD_WINDOW_S seconds, then a clear refusal that says how long to wait.

A tester guessed 200 passwords in 17 seconds with nothing in the way. The tries are counted in the
shared "live" cache (grader.live's alias: Redis in production, seen by every web process; a file
cache under var/ on one machine), and a try is counted before the password is compared, so parallel
requests cannot slip more guesses past the limit. The right password clears the count. The
comparison takes the same time whatever the guess (hmac.compare_digest).
"""
from __future__ import annotations

import hmac
import math
from datetime import datetime

from django.core.cache import caches
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from grader.live import CACHE_ALIAS

from ..errors import ExamError

PASSWORD_TRIES = 5  # tries per student per exam in one window
PASSWORD_WINDOW_S = 300  # the window starts at the first try and lasts this many seconds


def _keys(exam_id: int, user_id: int) -> tuple[str, str]:
    return f"exam-pw-since:{int(exam_id)}:{int(user_id)}", f"exam-pw-tries:{int(exam_id)}:{int(user_id)}"


def _left_s(since: float, at: float) -> int:
    """Whole seconds (at least 1) until the window that started at `since` ends."""
    return max(1, math.ceil(since + PASSWORD_WINDOW_S - at))


def count_try(exam_id: int, user_id: int, now: datetime) -> int:
    """Count one password try of the user at the exam; returns the seconds they must wait before it
    may be compared (0: now). A window starts with the first try and ends PASSWORD_WINDOW_S later."""
    cache = caches[CACHE_ALIAS]
    since_key, tries_key = _keys(exam_id, user_id)
    at = now.timestamp()
    since = cache.get(since_key)
    if since is not None and since + PASSWORD_WINDOW_S <= at:
        since = None  # a cache that kept the entry past its window: a new one starts
        cache.delete(since_key)
    # cache.add is atomic on Redis: of two first tries at once, exactly one starts the window.
    if since is None and cache.add(since_key, at, PASSWORD_WINDOW_S):
        cache.set(tries_key, 1, PASSWORD_WINDOW_S)
        return 0
    since = cache.get(since_key, at)
    try:
        tries = cache.incr(tries_key)
    except ValueError:  # the count expired a moment before the window's start
        cache.set(tries_key, 1, PASSWORD_WINDOW_S)
        tries = 1
    return 0 if tries <= PASSWORD_TRIES else _left_s(since, at)


def used_up_s(exam_id: int, user_id: int, now: datetime) -> int:
    """Seconds until the user may try again when they have used every try of their window; else 0."""
    cache = caches[CACHE_ALIAS]
    since_key, tries_key = _keys(exam_id, user_id)
    since = cache.get(since_key)
    if since is None or int(cache.get(tries_key) or 0) < PASSWORD_TRIES:
        return 0
    return _left_s(since, now.timestamp())


def forget_tries(exam_id: int, user_id: int) -> None:
    caches[CACHE_ALIAS].delete_many(list(_keys(exam_id, user_id)))


def wait_text(seconds: int) -> str:
    """'Too many wrong passwords: try again in N minutes' (seconds under a minute), in the reader's language."""
    if seconds < 60:
        return ngettext("Too many wrong passwords for this exam: try again in %(n)d second.",
                        "Too many wrong passwords for this exam: try again in %(n)d seconds.", seconds) % {"n": seconds}
    minutes = math.ceil(seconds / 60)
    return ngettext("Too many wrong passwords for this exam: try again in %(n)d minute.",
                    "Too many wrong passwords for this exam: try again in %(n)d minutes.", minutes) % {"n": minutes}


def check_password(exam, user, given: str, now: datetime) -> None:
    """Raise ExamError unless `given` is the exam's password (nothing to check when it has none):
    code "password" for a wrong one (saying how long to wait when it used the last try),
    "password_tries" (429) while the user's tries are used up: the password is not even compared
    then. The right password forgets the tries."""
    if not exam.password:
        return
    wait = count_try(exam.pk, user.pk, now)
    if wait:
        raise ExamError(wait_text(wait), code="password_tries", status=429)
    if not hmac.compare_digest((given or "").encode("utf-8"), exam.password.encode("utf-8")):
        message = _("The exam password is not right.")
        wait = used_up_s(exam.pk, user.pk, now)
        raise ExamError(f"{message} {wait_text(wait)}" if wait else message, code="password")
    forget_tries(exam.pk, user.pk)
