"""Keeping the dashboards' summaries equal to a recount of the submissions: ProblemStats (one row
per student and problem), with its ProblemDay (submissions per day) and ProblemError (compile
errors and diagnostics by wording) rows.

The dashboards (authoring.dashboard) read these rows instead of counting a course's submissions:
500 students and 50,000 submissions are at most one row per (student, problem). A row is never
incremented: whenever a submission that is or was counted changes (graded by finish_grading,
cleared by a rejudge, given a rejudge's verdict), its pair is recomputed from that pair's own
submissions in the same transaction (`refresh_pair`: one indexed read of a few rows and one
upsert, in a savepoint); after deletions, which come in bulk, once per pair after the commit. On PostgreSQL a transaction-level advisory lock per pair serialises two
gradings of the same pair: the second reads after the first has committed (READ COMMITTED reads
anew per statement), so neither can leave an older sum. So the table equals a recount by
construction; `rebuild()` (the migration and `manage.py rebuild_problem_stats`) recomputes every
pair, for data written around the signals (bulk loads, raw SQL).

Counted: practice work only (grader.access.counted_practice_q, the rule problem sets count by too):
purpose STUDENT, status GRADED, any verdict but INTERNAL_ERROR (a platform fault is never an
attempt), and no exam work (a submission with `exam` or `exam_item`): an exam's kernels are the
exam's, shown on its results page, never practice progress. Before migration 0006 exam work was
counted too; that migration recounted every pair.
"""
from __future__ import annotations

import logging
import threading
import zlib
from collections import Counter
from itertools import groupby

from django.db import connection, transaction
from django.db.models import Q
from django.db.models.fields.json import KT
from django.utils import timezone
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

log = logging.getLogger(__name__)
LOCK_TAG = 0x50_53 << 40  # "PS": keeps these advisory keys apart from others (a collision only waits)


def counted_q() -> Q:
    """The submissions a dashboard counts: graded practice work (grader.access.counted_practice_q)."""
    from grader.access import counted_practice_q

    return counted_practice_q()


def summarize(user_id: int, problem_id: int, rows, Stats):
    """A ProblemStats (unsaved) from one pair's counted rows [(verdict, created_at, ...)] in time
    order; None when there are none. `Stats` is the model class (the migration passes its historical one)."""
    from .models import COUNTED_VERDICTS, verdict_column

    rows = list(rows)
    if not rows:
        return None
    stats = Stats(user_id=user_id, problem_id=problem_id, attempts=len(rows), first_at=rows[0][1],
                  last_at=rows[-1][1])
    for verdict, at, *_rest in rows:
        if verdict in COUNTED_VERDICTS:
            column = verdict_column(verdict)
            setattr(stats, column, getattr(stats, column) + 1)
        if verdict == "ACCEPTED" and stats.first_accepted_at is None:
            stats.first_accepted_at = at
            stats.seconds_to_accepted = (at - stats.first_at).total_seconds()
    stats.best_verdict = "ACCEPTED" if stats.first_accepted_at is not None else rows[-1][0]
    return stats


def stored_text(message) -> str:
    """The English of a stored message as the database extracts it (KT): its JSON text for a message
    stored as {"code", "params"} (grader.core.messages.Message), the text itself for one stored before."""
    import json

    from grader.core.messages import Message

    if isinstance(message, str) and message.startswith("{"):
        try:
            found = json.loads(message)
            if isinstance(found, dict) and "code" in found:
                return str(Message.from_dict(found))
        except (ValueError, KeyError, TypeError):
            pass
    return message or ""


def error_of(verdict: str, message, kind, line) -> tuple[str, str] | None:
    """The common-errors key of one submission: ("compile", its first compiler message with names
    and numbers blanked) for a compile error, ("diagnostic", "kind (line n)") for a check's finding
    (not for wrong answers, whose first diagnostic is a mismatch, not an error); else None."""
    from .core.stats import error_key

    message = stored_text(message)
    if verdict == "COMPILE_ERROR":
        return ("compile", error_key(message)[:300]) if message else None
    if verdict in ("ACCEPTED", "WRONG_ANSWER") or not kind:
        return None
    return "diagnostic", (f"{kind} (line {line})" if line not in (None, "", "null") else kind)[:300]


def details(user_id: int, problem_id: int, rows, Day, Error) -> tuple[list, list]:
    """(ProblemDay rows, ProblemError rows), unsaved, of one pair's counted rows
    [(verdict, created_at, first compile message, first diagnostic's kind, its line)]."""
    zone = timezone.get_default_timezone()
    days, errors = Counter(), Counter()
    for verdict, at, message, kind, line in rows:
        days[timezone.localdate(at, zone)] += 1
        key = error_of(verdict, message, kind, line)
        if key is not None:
            errors[key] += 1
    return ([Day(user_id=user_id, problem_id=problem_id, day=d, n=n) for d, n in days.items()],
            [Error(user_id=user_id, problem_id=problem_id, kind=k, text=t, n=n) for (k, t), n in errors.items()])


def _values(rows):
    """The columns summarize() and details() read, the JSON keys extracted by the database."""
    return rows.annotate(msg=KT("result__compile__messages__0__message"), dkind=KT("result__diagnostics__0__kind"),
                         dline=KT("result__diagnostics__0__line"))


def _fields(Stats) -> list[str]:
    return [f.name for f in Stats._meta.concrete_fields if f.name not in ("id", "user", "problem")]


def refresh_pair(user_id: int, problem_id: int) -> None:
    """Recompute one (student, problem) pair's rows (ProblemStats, ProblemDay, ProblemError) from
    their counted submissions (deleted when there are none)."""
    from grader.models import Submission

    from .models import ProblemDay, ProblemError, ProblemStats

    with transaction.atomic():
        if connection.vendor == "postgresql":
            key = LOCK_TAG ^ zlib.crc32(f"{user_id}:{problem_id}".encode())
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])
        rows = list(_values(Submission.objects.filter(counted_q(), user_id=user_id,
                                                      problem_version__problem_id=problem_id))
                    .order_by("created_at", "pk").values_list("verdict", "created_at", "msg", "dkind", "dline"))
        stats = summarize(user_id, problem_id, rows, ProblemStats)
        pair = {"user_id": user_id, "problem_id": problem_id}
        ProblemDay.objects.filter(**pair).delete()
        ProblemError.objects.filter(**pair).delete()
        if stats is None:
            ProblemStats.objects.filter(**pair).delete()
            return
        ProblemStats.objects.bulk_create([stats], update_conflicts=True, unique_fields=["user", "problem"],
                                         update_fields=_fields(ProblemStats))
        days, errors = details(user_id, problem_id, rows, ProblemDay, ProblemError)
        ProblemDay.objects.bulk_create(days)
        ProblemError.objects.bulk_create(errors)


def rebuild(Submission=None, Stats=None, Day=None, Error=None, batch: int = 2000, counted: Q | None = None) -> int:
    """Recompute every pair from the submissions (one ordered read, written in batches) and drop
    the rows of pairs with none. Returns how many pairs there are. The models may be historical
    ones (a migration's), which then pass `counted`, the rule as of their migration (default:
    counted_q(), whose fields a historical model may not have yet)."""
    if Submission is None:
        from grader.models import Submission
    if Stats is None:
        from .models import ProblemDay as Day, ProblemError as Error, ProblemStats as Stats
    rows = (_values(Submission.objects.filter(counted if counted is not None else counted_q()))
            .order_by("user_id", "problem_version__problem_id", "created_at", "pk")
            .values_list("user_id", "problem_version__problem_id", "verdict", "created_at", "msg", "dkind", "dline")
            .iterator(chunk_size=5000))
    pairs, stats, days, errors = 0, [], [], []

    def flush():
        Stats.objects.bulk_create(stats)
        Day.objects.bulk_create(days, batch_size=batch)
        Error.objects.bulk_create(errors, batch_size=batch)
        stats.clear(), days.clear(), errors.clear()

    with transaction.atomic():
        for model in (Stats, Day, Error):
            model.objects.all().delete()
        for (user_id, problem_id), group in groupby(rows, key=lambda r: (r[0], r[1])):
            pair = [r[2:] for r in group]
            stats.append(summarize(user_id, problem_id, pair, Stats))
            d, e = details(user_id, problem_id, pair, Day, Error)
            days.extend(d)
            errors.extend(e)
            pairs += 1
            if len(stats) >= batch:
                flush()
        flush()
    return pairs


_VERSION_PROBLEM: dict[int, int] = {}  # a version never moves to another problem
_pending = threading.local()  # pairs whose deletions wait for the commit, per thread


def _pair_of(submission) -> tuple[int, int] | None:
    from problems.models import ProblemVersion

    problem_id = _VERSION_PROBLEM.get(submission.problem_version_id)
    if problem_id is None:
        problem_id = ProblemVersion.objects.filter(pk=submission.problem_version_id).values_list(
            "problem_id", flat=True).first()
        if problem_id is None:
            return None
        _VERSION_PROBLEM[submission.problem_version_id] = problem_id
    return submission.user_id, problem_id


def _refresh_after_commit(pair) -> None:
    """Deletions come in bulk (a user, a course's data): each pair is recomputed once, after the
    commit, and not at all for a user who is gone (their rows went with them)."""
    pairs = getattr(_pending, "pairs", None)
    if pairs is None:
        pairs = _pending.pairs = set()
    pairs.add(pair)
    transaction.on_commit(_flush)


def _flush() -> None:
    from django.contrib.auth import get_user_model

    pairs, _pending.pairs = getattr(_pending, "pairs", set()), set()
    if not pairs:
        return  # an earlier callback of the same commit took them
    alive = set(get_user_model().objects.filter(pk__in={u for u, _ in pairs}).values_list("pk", flat=True))
    for pair in sorted(pairs):
        if pair[0] in alive:
            _refresh(pair)


def _refresh(pair) -> None:
    """Recompute the pair inside the caller's transaction (its savepoint): the change is visible to
    it, and a refresh that fails rolls back alone, never the verdict that was being stored."""
    try:
        refresh_pair(*pair)
    except Exception:  # the verdict is stored; a stale row is fixed by the pair's next change or a rebuild
        log.exception("problem stats of user %s, problem %s not refreshed", *pair)


@receiver(post_save, sender="grader.Submission", dispatch_uid="authoring.problem_stats_saved")
def submission_saved(sender, instance, created=False, update_fields=None, **kwargs):
    """A STUDENT submission graded, rejudged (its verdict cleared) or given a rejudge's verdict.
    Exam work is never counted (`exam` is set when it is made and kept), so an exam's verdicts and
    regrades cost its rush no recount."""
    from grader.models import Purpose, Status

    if instance.purpose != Purpose.STUDENT or instance.is_exam_work:
        return
    if instance.status != Status.GRADED and (created or (update_fields is not None and "verdict" not in update_fields)):
        return  # not counted before or after this save (a new or advancing submission)
    pair = _pair_of(instance)
    if pair is not None:
        _refresh(pair)


@receiver(post_delete, sender="grader.Submission", dispatch_uid="authoring.problem_stats_deleted")
def submission_deleted(sender, instance, **kwargs):
    from grader.models import Purpose, Status

    if instance.purpose == Purpose.STUDENT and instance.status == Status.GRADED and not instance.is_exam_work:
        pair = _pair_of(instance)
        if pair is not None:
            _refresh_after_commit(pair)
