"""The instructor dashboard's reads: a course's (or one problem's) students' submissions, counted in
the database. Only STUDENT submissions of the course's students count (validation runs, staff and
outsiders do not), to the course's own problems and the problems its problem sets assign."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, time, timedelta

from django.contrib.auth.models import User
from django.db.models import Count, Min, Q
from django.db.models.functions import TruncDate
from django.db.models.fields.json import KT
from django.utils import timezone

from courses.models import Membership, Role
from grader.core.verdicts import Verdict
from grader.models import Purpose, Status, Submission

from .core.stats import Bar, bars, error_key, median_or_none

STUCK_ATTEMPTS = 5  # this many graded attempts at one problem without an ACCEPTED: stuck
DAYS = 30  # days of the submissions-over-time chart
ERROR_SAMPLE = 3000  # newest failed submissions read for the common errors table


@dataclass
class Dashboard:
    """Every table of the dashboard, as rows of plain values (also what the CSV exports write)."""

    total: int = 0
    students: int = 0
    daily: list[tuple[str, int]] = field(default_factory=list)  # (YYYY-MM-DD, submissions)
    verdicts: list[tuple[str, int]] = field(default_factory=list)  # (verdict, submissions), most first
    errors: list[tuple[str, str, int]] = field(default_factory=list)  # (kind, message or diagnostic, count)
    stuck: list[tuple[str, str, int]] = field(default_factory=list)  # (username, problem slug, attempts)
    first_accepted: list[tuple[str, int, float | None]] = field(default_factory=list)  # (slug, solvers, median s)
    daily_bars: list[Bar] = field(default_factory=list)
    verdict_bars: list[Bar] = field(default_factory=list)
    counted_at: datetime | None = None  # when the database counted these (a cached dashboard is older)


def course_submissions(course, problem=None):
    """The submissions the dashboard counts, for the course or one of its problems."""
    from problems.models import Problem

    students = Membership.objects.filter(course=course, role=Role.STUDENT).values("user_id")
    rows = Submission.objects.filter(purpose=Purpose.STUDENT, status=Status.GRADED, user_id__in=students) \
        .exclude(verdict=Verdict.INTERNAL_ERROR)
    if problem is not None:
        return rows.filter(problem_version__problem=problem)
    assigned = Problem.objects.filter(Q(course=course) | Q(pk__in=course.problem_sets.values("items__problem"))) \
        .values("pk")
    return rows.filter(problem_version__problem_id__in=assigned)


def build(course, problem=None, now=None) -> Dashboard:
    """The dashboard of `course` (or of one `problem` in it) at `now` (default: the current time).

    Everything is counted by the database (GROUP BY), never row by row in Python: the verdicts (one
    row per verdict), the submissions per day of the last DAYS days (one row per day, in the site's
    time zone), and one row per (student, problem) pair with its attempts, first submission and first
    ACCEPTED, from which the stuck students and the times to a first ACCEPTED come; the common errors
    are two more queries over the newest failed submissions. On 50,000 submissions that is about a
    dozen rows per table plus one per pair read, instead of 50,000 (bench/dashboard_bench.py).
    """
    now = now or timezone.now()
    rows = course_submissions(course, problem).order_by()
    d = Dashboard()
    d.students = Membership.objects.filter(course=course, role=Role.STUDENT).count()
    d.verdicts = sorted(((v, n) for v, n in rows.values_list("verdict").annotate(n=Count("id"))),
                        key=lambda kv: (-kv[1], kv[0]))
    d.total = sum(n for _, n in d.verdicts)
    zone = timezone.get_current_timezone()
    start = timezone.localdate(now, zone) - timedelta(days=DAYS - 1)
    since = datetime.combine(start, time.min, tzinfo=zone)
    per_day = dict(rows.filter(created_at__gte=since).annotate(day=TruncDate("created_at", tzinfo=zone))
                   .values_list("day").annotate(n=Count("id")))
    d.daily = [((start + timedelta(days=i)).isoformat(), per_day.get(start + timedelta(days=i), 0)) for i in range(DAYS)]
    d.daily_bars = bars([(day[5:], n, "bar-day") for day, n in d.daily])
    d.verdict_bars = bars([(v, n, "verdict-" + v.lower().replace("_", "-")) for v, n in d.verdicts], width=600)
    d.errors = _errors(rows)
    pairs = rows.values_list("user_id", "problem_version__problem__slug").annotate(
        n=Count("id"), first=Min("created_at"), first_ok=Min("created_at", filter=Q(verdict=Verdict.ACCEPTED)))
    stuck, solve_times = [], {}
    for user_id, slug, n, first, first_ok in pairs:
        if first_ok is None and n >= STUCK_ATTEMPTS:
            stuck.append((user_id, slug, n))
        if first_ok is not None:
            solve_times.setdefault(slug, []).append((first_ok - first).total_seconds())
    names = dict(User.objects.filter(pk__in={u for u, _, _ in stuck}).values_list("pk", "username"))
    d.stuck = sorted(((names.get(u, "?"), slug, n) for u, slug, n in stuck), key=lambda r: (-r[2], r[0], r[1]))
    d.first_accepted = sorted((slug, len(t), median_or_none(t)) for slug, t in solve_times.items())
    d.counted_at = now
    return d


CACHE_SECONDS = 60  # a dashboard (and its CSV tables) is counted at most once a minute per course or problem


def cached(course, problem=None, fresh: bool = False) -> Dashboard:
    """`build(course, problem)`, counted at most once every CACHE_SECONDS seconds (Django's default
    cache: Redis in production, per process under make dev). A course of 500 students and 50,000
    submissions costs a few hundred milliseconds of database work to count; a page that staff reload,
    and the CSV exports of the same tables, read the counted copy, which says when it was counted.
    `fresh=True` counts again now (the page's "count again" link) and replaces the cached copy."""
    from django.core.cache import cache

    key = f"dashboard:{course.pk}:{problem.pk if problem is not None else 0}"
    data = None if fresh else cache.get(key)
    if data is None:
        data = build(course, problem)
        cache.set(key, data, CACHE_SECONDS)
    return data


def _errors(rows) -> list[tuple[str, str, int]]:
    """The most common compile errors and diagnostics among the newest failed submissions: only the
    first compiler message and the first diagnostic of each are read (JSON keys extracted by the
    database, not whole results), then grouped by their wording with identifiers and numbers blanked."""
    counts: Counter = Counter()
    failed = rows.exclude(verdict=Verdict.ACCEPTED).order_by("-created_at")
    compile_rows = failed.filter(verdict=Verdict.COMPILE_ERROR).annotate(
        msg=KT("result__compile__messages__0__message")).values_list("msg", flat=True)[:ERROR_SAMPLE]
    for message in compile_rows:
        if message:
            counts[("compile", error_key(message))] += 1
    diag_rows = failed.exclude(verdict__in=[Verdict.COMPILE_ERROR, Verdict.WRONG_ANSWER]).annotate(
        kind=KT("result__diagnostics__0__kind"), line=KT("result__diagnostics__0__line")) \
        .values_list("kind", "line")[:ERROR_SAMPLE]
    for kind, line in diag_rows:
        if kind:
            counts[("diagnostic", f"{kind} (line {line})" if line not in (None, "", "null") else kind)] += 1
    return [(kind, text, n) for (kind, text), n in counts.most_common(20)]


CSV_TABLES = {
    "daily": (("day", "submissions"), lambda d: d.daily),
    "verdicts": (("verdict", "submissions"), lambda d: d.verdicts),
    "errors": (("kind", "message", "count"), lambda d: d.errors),
    "stuck": (("student", "problem", "attempts"), lambda d: d.stuck),
    "first_accepted": (("problem", "solvers", "median_seconds_to_first_accepted"), lambda d: d.first_accepted),
}
