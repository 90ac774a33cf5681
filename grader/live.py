"""Verdict polling that costs no database work: a 304 answered from a shared cache of each
submission's state.

Every page that polls a submission (the live partial of the submission page, the JSON API, the
exam's kernel question) sends an ETag made by `etag()`:

    "<kind><pk>.<token>.<lang>.<full>.<until>.<mac>"

`token` is a hash of the submission's state columns (LIVE_FIELDS), kept in the "live" cache under
the submission's id; the grader replaces it whenever the state changes (`changed()`, called by
grader.actions and by a post_save signal). `mac` is an HMAC of everything else in the ETag and of
the caller's credential (the session cookie, or the API's Authorization header), so only a caller
that received the ETag in a full, authorised answer can present it again. `until` is when the
answer changes with time alone (the partial's poll interval: see grader.views.poll_interval_changes_at),
0 for never: from then on the ETag earns no 304, so the page's poll slows down as it should.

A poll with such an ETag in If-None-Match is answered by `not_modified()` before authentication:
one cache read, no session, no user, no SQL. Anything else (no ETag, another credential, a new
state, a cache miss) runs the view as before, which authenticates, checks ownership and renders.
A 304 tells a caller only "what you were shown is still current", which a caller who was shown it
may know; it never confirms that someone else's submission exists.

The cache is shared by every web process and every worker (settings.CACHES["live"]: Redis when
one is configured, else files under var/). A writer's entry lives LIVE_TTL_S (a writer that forgot
to call changed(), none is known, would show a stale state for that long at most). An entry a poll
filled from the database lives only FILL_TTL_S: a poll that read the old state just before a
writer stored the new one could otherwise keep it (cache.add is atomic on Redis, not on files), and
a submission nobody writes any more (graded) costs one small query per FILL_TTL_S of polling.
"""
from __future__ import annotations

import hashlib
import hmac
import math
import time

from django.conf import settings
from django.core.cache import caches
from django.db import transaction
from django.http import HttpResponseNotModified
from django.utils.crypto import salted_hmac
from django.utils.http import parse_etags
from django.utils.translation import get_language

CACHE_ALIAS = "live"
LIVE_TTL_S = 600
FILL_TTL_S = 5
# What a poll's answer changes with (the source and launch never change; the result is written
# once, with finished_at; a rejudge moves queued_at and started_at; an exam reset unlinks the item).
LIVE_FIELDS = ("user_id", "status", "verdict", "progress_done", "progress_total", "tries", "queued_at",
               "started_at", "finished_at", "problem_version_id", "exam_item_id")
CACHE_CONTROL = "private, no-cache"


def _cache():
    return caches[CACHE_ALIAS]


SETTING_UP_KEY = "judge-setting-up"


def mark_setting_up(for_s: float) -> None:
    """Say, for `for_s` seconds, that a worker is still setting up the judge (building the emulator
    runtime): queued submissions then read "the grader is still setting up" (grader.tasks._setup_pending)."""
    _cache().set(SETTING_UP_KEY, 1, timeout=for_s)


def setting_up() -> bool:
    """Whether a worker said in the last few seconds that it is still setting up the judge."""
    try:
        return bool(_cache().get(SETTING_UP_KEY))
    except Exception:  # the live cache down: say nothing rather than fail the page
        return False


def _key(pk: int) -> str:
    return f"sub:{int(pk)}"


def token_of(row: dict) -> str:
    """The state token of a submission row (a dict with LIVE_FIELDS): 16 hex digits."""
    return hashlib.sha256(repr([row.get(f) for f in LIVE_FIELDS]).encode()).hexdigest()[:16]


def _read(pk: int) -> dict | None:
    from .models import Submission

    return Submission.objects.filter(pk=pk).values(*LIVE_FIELDS).first()


def publish(pk: int) -> None:
    """Store the submission's current state token (two small queries). Called after a change commits.

    Two publishers can interleave, each reading the row and then setting the cache: the progress
    write of one grading step and the verdict of the next, in other processes or threads. A slower
    one that read an older state would otherwise set its token after the newer one, and a poller
    holding that older state's answer would get 304 for LIVE_TTL_S while the verdict waits in the
    database. So the row is read again after the set: if it moved on, the entry is dropped and the
    next poll reads the database. (Whichever order the commits and sets take, the last publisher to
    read the final state sets its token after every earlier publisher's re-read.)
    """
    row = _read(pk)
    if row is None:
        _cache().delete(_key(pk))
        return
    token = token_of(row)
    _cache().set(_key(pk), token, LIVE_TTL_S)
    again = _read(pk)
    if again is None or token_of(again) != token:
        _cache().delete(_key(pk))


def changed(*pks: int) -> None:
    """A submission's state changed: drop its token now and store the new one after commit.

    Dropping it at once means a poll before the commit reads the database (and sees the old
    state, which is still current); storing it after the commit (cache.set) wins over a poll
    that filled the entry with the old state meanwhile (cache.add never replaces an entry).
    """
    for pk in pks:
        _cache().delete(_key(pk))
        transaction.on_commit(lambda pk=pk: publish(pk))


def renew_on_save(sender, instance, **kwargs) -> None:
    """post_save / post_delete receiver for Submission (grader.apps): `changed(instance.pk)`."""
    changed(instance.pk)


def current_token(pk: int) -> str | None:
    """The submission's state token: from the cache, else from the database (then cached). None
    when the submission does not exist."""
    token = _cache().get(_key(pk))
    if token is not None:
        return token
    row = _read(pk)
    if row is None:
        return None
    token = token_of(row)
    _cache().add(_key(pk), token, FILL_TTL_S)
    return token


def _credential(request) -> str:
    """What the caller authenticates with, without touching the database: the session cookie for
    pages, the Authorization header for the API; and the Accept header (the API answers JSON or
    its browsable HTML by it)."""
    who = request.META.get("HTTP_AUTHORIZATION") or request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")
    return f"{who}|{request.META.get('HTTP_ACCEPT', '')}"


def _mac(kind: str, pk: int, token: str, lang: str, full: int, until: int, credential: str) -> str:
    value = f"{kind}|{pk}|{token}|{lang}|{full}|{until}|{credential}"
    return salted_hmac("warpdrill.live-poll", value, algorithm="sha256").hexdigest()[:24]


def etag(request, kind: str, pk: int, token: str, full: bool, until: float | None = None) -> str:
    """The ETag of a poll's full answer. `kind` names the page ("p" partial, "a" API, "e" exam);
    `full` whether the reader sees more than the owner (an instructor), since that changes the body;
    `until` (Unix time, seconds) when the body changes without a change of state (the page's poll
    interval slows down as the submission ages): from then on the ETag earns no 304. None: never."""
    lang = get_language() or ""
    f = int(bool(full))
    u = int(math.ceil(until)) if until is not None else 0
    mac = _mac(kind, pk, token, lang, f, u, _credential(request))
    return f'"{kind}{int(pk)}.{token}.{lang}.{f}.{u}.{mac}"'


def not_modified(request, kind: str, pk: int):
    """A 304 if the request's If-None-Match holds a valid ETag of `kind` for the submission's
    current state and the request's language and credential; else None (run the view).
    GET and HEAD only. Costs one cache read and no SQL."""
    if request.method not in ("GET", "HEAD"):
        return None
    header = request.META.get("HTTP_IF_NONE_MATCH")
    if not header:
        return None
    prefix = f"{kind}{int(pk)}."
    tags = [t[2:] if t.startswith("W/") else t for t in parse_etags(header)]
    candidates = [t.strip('"') for t in tags if t.strip('"').startswith(prefix)]
    if not candidates:
        return None
    token = _cache().get(_key(pk))
    if token is None:
        return None
    lang, credential = get_language() or "", _credential(request)
    now = time.time()
    for candidate in candidates:
        parts = candidate[len(prefix):].split(".")
        if len(parts) != 5 or parts[0] != token or parts[1] != lang or parts[2] not in ("0", "1"):
            continue
        if not parts[3].isdigit() or (parts[3] != "0" and now >= int(parts[3])):
            continue  # the body this ETag names has changed with time (its poll interval)
        if hmac.compare_digest(parts[4], _mac(kind, pk, token, lang, int(parts[2]), int(parts[3]), credential)):
            response = HttpResponseNotModified()
            response["ETag"] = f'"{candidate}"'
            response["Cache-Control"] = CACHE_CONTROL
            return response
    return None


def with_etag(response, request, kind: str, pk: int, token: str | None, full: bool, until: float | None = None):
    """Set the ETag (and Cache-Control) on a poll's full 200 answer; other answers are left alone.
    `until`: as for etag()."""
    if token is not None and response.status_code == 200:
        response["ETag"] = etag(request, kind, pk, token, full, until)
        response["Cache-Control"] = CACHE_CONTROL
    return response
