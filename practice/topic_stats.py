"""Keeping TopicStats (one row per student and topic: answers and questions solved per difficulty)
equal to a recount of the students' answers to practice questions.

The course dashboard's practice per topic (practice.progress.group_progress) reads these rows, at
most one per student and topic, instead of grouping every answer of 500 students. As
authoring.progress does for kernel submissions, a row is never incremented: whenever an answer is
stored, changed or deleted, the student's row for that family's topic is recomputed from their
answers to that topic (one indexed read grouped by difficulty, and one upsert, in the caller's
transaction; on PostgreSQL under a transaction-level advisory lock per (student, topic), so two
answers at once cannot leave an older count). Deletions come in bulk (a question, a user) and are
recomputed once per row after the commit. `rebuild()` (the migration, `manage.py
rebuild_practice_stats`) recomputes every row, for data written around the signals and after a
family moved to another topic.

Counted as the student's own progress page counts: every stored answer (an unparseable one is not
stored); a question is solved by a right answer given before its key was shown.
"""
from __future__ import annotations

import logging
import threading
import zlib
from collections import defaultdict

from django.db import connection, transaction
from django.db.models import Count, Q
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from .core.questions import DIFFICULTIES, FAMILIES, families_for

log = logging.getLogger(__name__)
LOCK_TAG = 0x54_53 << 40  # "TS": keeps these advisory keys apart from authoring.progress's
COLUMNS = [f"{what}_{d}" for what in ("answers", "solved") for d in DIFFICULTIES]


def topic_of(family: str) -> str | None:
    """The topic of a family id (None for a family that no longer exists)."""
    found = FAMILIES.get(family)
    return str(found.topic) if found is not None else None


def _counts(answers) -> dict[tuple, dict[str, int]]:
    """{(user id, topic): {column: n}} from (user id, family, difficulty, answers, solved) rows."""
    out: dict[tuple, dict[str, int]] = defaultdict(lambda: dict.fromkeys(COLUMNS, 0))
    for user_id, family, difficulty, n, solved in answers:
        topic = topic_of(family)
        if topic is None or difficulty not in DIFFICULTIES:
            continue
        row = out[(user_id, topic)]
        row[f"answers_{difficulty}"] += n
        row[f"solved_{difficulty}"] += solved
    return out


def _grouped(attempts):
    """(user id, family, difficulty, answers, questions solved) per group of `attempts`."""
    return (attempts.order_by().values_list("variant__user_id", "variant__family", "variant__difficulty")
            .annotate(n=Count("pk"), solved=Count("variant", distinct=True, filter=Q(correct=True, after_reveal=False))))


def refresh(user_id: int, topic: str) -> None:
    """Recompute one student's row for `topic` from their answers (deleted when there are none)."""
    from .models import QuestionAttempt, TopicStats

    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", [LOCK_TAG ^ zlib.crc32(f"{user_id}:{topic}".encode())])
        families = [f.id for f in families_for(topic)]
        rows = _counts(_grouped(QuestionAttempt.objects.filter(variant__user_id=user_id, variant__family__in=families)))
        counts = rows.get((user_id, topic))
        if counts is None:
            TopicStats.objects.filter(user_id=user_id, topic=topic).delete()
            return
        TopicStats.objects.bulk_create([TopicStats(user_id=user_id, topic=topic, **counts)], update_conflicts=True,
                                       unique_fields=["user", "topic"], update_fields=COLUMNS)


def rebuild(Attempt=None, Stats=None, batch: int = 2000) -> int:
    """Recompute every row from the answers (one GROUP BY; the families' topics from the code).
    Returns how many rows there are. The models may be historical ones (a migration's)."""
    if Attempt is None:
        from .models import QuestionAttempt as Attempt, TopicStats as Stats
    counts = _counts(_grouped(Attempt.objects.all()))
    with transaction.atomic():
        Stats.objects.all().delete()
        Stats.objects.bulk_create([Stats(user_id=u, topic=t, **c) for (u, t), c in counts.items()], batch_size=batch)
    return len(counts)


_pending = threading.local()  # rows whose deletions wait for the commit, per thread


def _key(attempt) -> tuple[int, str] | None:
    """(user id, topic) of an answer, from its variant (None when the variant or its family is gone)."""
    from .models import QuestionAttempt, QuestionVariant

    if QuestionAttempt.variant.is_cached(attempt):  # practice.actions.submit_answer passes the variant
        found = (attempt.variant.user_id, attempt.variant.family)
    else:
        found = QuestionVariant.objects.filter(pk=attempt.variant_id).values_list("user_id", "family").first()
    if found is None:
        return None
    topic = topic_of(found[1])
    return (found[0], topic) if topic is not None else None


def _refresh(key) -> None:
    """Recompute inside the caller's transaction (a savepoint): a refresh that fails rolls back
    alone, never the answer being stored."""
    try:
        refresh(*key)
    except Exception:  # the answer is stored; a stale row is fixed by the next answer or a rebuild
        log.exception("practice topic stats of user %s, topic %s not refreshed", *key)


def _flush() -> None:
    from django.contrib.auth import get_user_model

    keys, _pending.keys, _pending.variants = getattr(_pending, "keys", set()), set(), {}
    if not keys:
        return
    alive = set(get_user_model().objects.filter(pk__in={u for u, _ in keys}).values_list("pk", flat=True))
    for key in sorted(keys):
        if key[0] in alive:
            _refresh(key)


@receiver(post_save, sender="practice.QuestionAttempt", dispatch_uid="practice.topic_stats_saved")
def attempt_saved(sender, instance, **kwargs):
    """An answer stored (or changed)."""
    key = _key(instance)
    if key is not None:
        _refresh(key)


@receiver(post_delete, sender="practice.QuestionAttempt", dispatch_uid="practice.topic_stats_deleted")
def attempt_deleted(sender, instance, **kwargs):
    """An answer deleted, alone or with its question or its student: recomputed after the commit
    (the variant may be gone by then, so its key is read now, while it is still there)."""
    seen = getattr(_pending, "variants", None)
    if seen is None:
        seen = _pending.variants = {}
    if instance.variant_id not in seen:  # a question's answers go together: one read for all of them
        seen[instance.variant_id] = _key(instance)
    key = seen[instance.variant_id]
    if key is None:
        return
    keys = getattr(_pending, "keys", None)
    if keys is None:
        keys = _pending.keys = set()
    keys.add(key)
    transaction.on_commit(_flush)
