"""The attempt page's autosave in one SQL statement (PostgreSQL): an exam's hottest write, every
student every few seconds.

The page posts to a save URL signed for its session (exams.clock's `a`/`t`: an HMAC of the exam,
the attempt and the session cookie, issued when the page was rendered for the attempt's owner). A
save with a valid signature skips loading the session and the user (two queries) and runs one
statement of data-modifying CTEs:

- `a`: UPDATE the attempt (saves + 1, last_saved_at) only if it is this exam's, open, before its
  deadline, its session still exists and has not expired (a logged-out session saves nothing), its
  student is still a member of the exam's course (two primary-key/unique-index probes: a student
  removed from the course saves nothing; the authenticated path then answers 404) and
  every listed key is one of its items (an unknown key stores nothing; the authenticated path then
  answers "bad_item"); the UPDATE also locks the row, so a close or submit waits for it, as
  save_answers' FOR UPDATE does;
- `u`: UPDATE each listed item of that attempt: a question keeps only its own field names (read from
  its stored variant inside the database, never sent to Python), a kernel item only "source";
- `e`: INSERT the "saved" event of the timeline.

It answers (saved at, deadline), or None when the attempt did not take the save (closed, late,
submitted, another exam, the session gone, not a member any more, an unknown key): the caller then runs the authenticated
path (exams.actions.attempts.autosave), which stores nothing late and says why. Values are checked in Python
first, as exams.actions.attempts._clean_answers does; anything unusual (a value that is not text, too long)
also goes the authenticated path, with its messages. In autocommit mode the one statement is its own
transaction (no BEGIN/COMMIT round trips); inside a caller's transaction it joins it.
"""
from __future__ import annotations

import json
from datetime import datetime
from typing import Mapping

from django.conf import settings
from django.db import connection
from django.utils import timezone

from .actions.attempts import MAX_ANSWER_CHARS, MAX_SOURCE_DRAFT_CHARS
from .models import AttemptState, EventKind

DB_SESSIONS = {"django.contrib.sessions.backends.db", "django.contrib.sessions.backends.cached_db"}

SQL = """
WITH a AS (
    UPDATE exams_examattempt SET saves = saves + 1, last_saved_at = %(now)s
    WHERE id = %(attempt)s AND exam_id = %(exam)s AND state = %(open)s AND deadline > %(now)s
      AND EXISTS (SELECT 1 FROM django_session s WHERE s.session_key = %(session)s AND s.expire_date > %(now)s)
      AND EXISTS (SELECT 1 FROM courses_membership m JOIN exams_exam x ON x.course_id = m.course_id
                  WHERE x.id = %(exam)s AND m.user_id = exams_examattempt.user_id)
      AND (SELECT count(*) FROM exams_examitem k WHERE k.attempt_id = %(attempt)s AND k.key = ANY(%(keys)s)) = %(n)s
    RETURNING id, user_id, deadline
), v AS (
    SELECT key, value FROM jsonb_each(%(answers)s::jsonb)
), u AS (
    UPDATE exams_examitem i SET saved_at = %(now)s, answer = CASE
        WHEN i.kind = 'kernel' THEN jsonb_build_object('source', coalesce(v.value -> 'source', '""'::jsonb))
        ELSE coalesce((SELECT jsonb_object_agg(f.key, f.value) FROM jsonb_each(v.value) f
                       WHERE f.key IN (SELECT d ->> 'name' FROM jsonb_array_elements(
                           coalesce(i.data -> 'question' -> 'fields', '[]'::jsonb)) d)), '{}'::jsonb)
        END
    FROM a, v WHERE i.attempt_id = a.id AND i.key = v.key
    RETURNING i.key
), e AS (
    INSERT INTO exams_attemptevent (attempt_id, kind, at, by_id, data)
    SELECT a.id, %(saved)s, %(now)s, a.user_id, %(event)s::jsonb FROM a
    RETURNING id
)
SELECT (SELECT deadline FROM a), (SELECT count(*) FROM u), (SELECT count(*) FROM e)
"""


def usable() -> bool:
    """This path works here: PostgreSQL, and sessions stored in the database table it checks."""
    return connection.vendor == "postgresql" and settings.SESSION_ENGINE in DB_SESSIONS


def _plain(answers: Mapping) -> dict | None:
    """The answers as {key: {field: text}} when every value is text (or null, stored as ""), within
    the lengths the authenticated path accepts; None for anything else (that path says what is wrong)."""
    out = {}
    for key, raw in answers.items():
        if not isinstance(key, str) or not isinstance(raw, Mapping):
            return None
        fields = {}
        for name, value in raw.items():
            value = "" if value is None else value
            limit = MAX_SOURCE_DRAFT_CHARS if name == "source" else MAX_ANSWER_CHARS
            if not isinstance(value, str) or len(value) > limit:
                return None
            fields[name] = value
        out[key] = fields
    return out


def autosave_signed(exam_id: int, attempt_id: int, session_key: str, answers: Mapping,
                    now: datetime | None = None) -> tuple[datetime, datetime] | None:
    """Store the listed items' answers of attempt `attempt_id` (whose owner's page signed the URL for
    `session_key`) in one statement. Returns (saved at, deadline), or None when the attempt did not
    take it (see the module docstring) or the answers are not plain text: the caller then runs the
    authenticated path. Precondition: usable(), and the caller checked the URL's signature for
    `session_key`."""
    plain = _plain(answers)
    if not plain or not session_key:  # an empty save too: the authenticated path answers it
        return None
    now = now or timezone.now()
    params = {"now": now, "attempt": attempt_id, "exam": exam_id, "open": AttemptState.OPEN.value,
              "session": session_key, "answers": json.dumps(plain), "saved": EventKind.SAVED.value,
              "event": json.dumps({"slots": sorted(plain)}), "keys": sorted(plain), "n": len(plain)}
    # One statement in autocommit mode is its own transaction: no BEGIN and COMMIT round trips.
    with connection.cursor() as cursor:
        cursor.execute(SQL, params)
        deadline, _updated, _events = cursor.fetchone()
    return None if deadline is None else (now, deadline)
