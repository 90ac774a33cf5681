"""The attempt page's clock resync (every 30 s per student) answered with no database work.

The page polls exams:state to follow the server's deadline (a staff extension shows) and to notice
a close. Its URL carries `a` (the attempt's id) and `t`, an HMAC of the exam, the attempt and the
session cookie, issued when the page was rendered for the attempt's owner. A poll whose `t` is valid
for its own session cookie is answered from the shared "live" cache (grader.live's), where the
attempt's state and deadline are kept: no session, no user, no SQL. The writers (close, submit,
extension) call `changed()`; an entry a poll filled from the database lives FILL_TTL_S, a writer's
LIVE_TTL_S, as for submissions. Anything else runs the view, which authenticates and reads the row.
"""
from __future__ import annotations

import hmac

from django.conf import settings
from django.core.cache import caches
from django.db import transaction
from django.utils.crypto import salted_hmac

from grader.live import CACHE_ALIAS, FILL_TTL_S, LIVE_TTL_S


def _key(attempt_id: int) -> str:
    return f"att:{int(attempt_id)}"


def _mac(exam_id: int, attempt_id: int, request) -> str:
    cookie = request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")
    return salted_hmac("warpdrill.exam-clock", f"{int(exam_id)}|{int(attempt_id)}|{cookie}",
                       algorithm="sha256").hexdigest()[:24]


def poll_query(request, exam_id: int, attempt_id: int) -> str:
    """The query string ("a=..&t=..") of the page's clock poll, for the request's session."""
    return f"a={int(attempt_id)}&t={_mac(exam_id, attempt_id, request)}"


def _row(attempt) -> dict:
    """The cached answer: state and deadline, and "close_reason" where the attempt was closed early for
    one (exams.views answers a removal from the course with its own refusal)."""
    row = {"state": attempt.state, "deadline": attempt.deadline.isoformat()}
    if attempt.close_reason:
        row["close_reason"] = attempt.close_reason
    return row


def publish(attempt_id: int) -> None:
    """Store the attempt's state and deadline (one small query)."""
    from .models import ExamAttempt

    attempt = ExamAttempt.objects.filter(pk=attempt_id).only("state", "deadline", "close_reason").first()
    if attempt is None:
        caches[CACHE_ALIAS].delete(_key(attempt_id))
    else:
        caches[CACHE_ALIAS].set(_key(attempt_id), _row(attempt), LIVE_TTL_S)


def changed(attempt_id: int) -> None:
    """The attempt's state or deadline changed: drop the entry now, store the new one after commit."""
    caches[CACHE_ALIAS].delete(_key(attempt_id))
    transaction.on_commit(lambda: publish(attempt_id))


def fill(attempt) -> None:
    """Remember what a full answer read (short-lived: a writer's entry replaces it)."""
    caches[CACHE_ALIAS].add(_key(attempt.pk), _row(attempt), FILL_TTL_S)


def signed_attempt(request, exam_id: int) -> int | None:
    """The attempt id of a request whose `a`/`t` are valid for its own session cookie; else None.
    The page's clock poll and its autosave (exams.fastsave) carry them."""
    raw_id, token = request.GET.get("a", ""), request.GET.get("t", "")
    if not raw_id.isdigit() or not token:
        return None
    if not hmac.compare_digest(token, _mac(exam_id, int(raw_id), request)):
        return None
    return int(raw_id)


def cached_clock(request, exam_id: int) -> dict | None:
    """{"state", "deadline"} (and "close_reason", where set) for a poll with a valid `a`/`t` for its session, from the cache; else None."""
    attempt_id = signed_attempt(request, exam_id)
    return None if attempt_id is None else caches[CACHE_ALIAS].get(_key(attempt_id))
