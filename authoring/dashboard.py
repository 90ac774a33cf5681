"""The instructor dashboard's reads: a course's (or one problem's) students' submissions, counted in
the database. Only STUDENT submissions of the course's students count (validation runs, staff and
outsiders do not), to the course's own problems and the problems its problem sets assign."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta

from django.db.models import Q
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

    One query reads (time, verdict, student, problem) of every counted submission, and the
    verdicts, the days, the stuck students and the times to a first ACCEPTED are counted from it
    here (the per-day grouping in SQL converted every row's time zone in Python on SQLite, and
    each table as its own query read the whole table again); the common errors are one more query.
    """
    now = now or timezone.now()
    rows = course_submissions(course, problem)
    d = Dashboard()
    d.students = Membership.objects.filter(course=course, role=Role.STUDENT).count()
    verdicts: Counter = Counter()
    per_day: Counter = Counter()
    start = timezone.localdate(now) - timedelta(days=DAYS - 1)
    pairs: dict[tuple[int, str], list] = {}  # (user, slug) -> [attempts, first time, first ACCEPTED time]
    names = {}
    for at, verdict, user_id, username, slug in rows.values_list(
            "created_at", "verdict", "user_id", "user__username", "problem_version__problem__slug").iterator(2000):
        verdicts[verdict] += 1
        day = timezone.localdate(at)
        if day >= start:
            per_day[day] += 1
        names[user_id] = username
        pair = pairs.setdefault((user_id, slug), [0, at, None])
        pair[0] += 1
        pair[1] = min(pair[1], at)
        if verdict == Verdict.ACCEPTED and (pair[2] is None or at < pair[2]):
            pair[2] = at
    d.verdicts = sorted(verdicts.items(), key=lambda kv: (-kv[1], kv[0]))
    d.total = sum(verdicts.values())
    d.daily = [((start + timedelta(days=i)).isoformat(), per_day.get(start + timedelta(days=i), 0)) for i in range(DAYS)]
    d.daily_bars = bars([(day[5:], n, "bar-day") for day, n in d.daily])
    d.verdict_bars = bars([(v, n, "verdict-" + v.lower().replace("_", "-")) for v, n in d.verdicts], width=600)
    d.errors = _errors(rows)
    stuck, solve_times = [], {}
    for (user_id, slug), (n, first, first_ok) in pairs.items():
        if first_ok is None and n >= STUCK_ATTEMPTS:
            stuck.append((names[user_id], slug, n))
        if first_ok is not None:
            solve_times.setdefault(slug, []).append((first_ok - first).total_seconds())
    d.stuck = sorted(stuck, key=lambda r: (-r[2], r[0], r[1]))
    d.first_accepted = sorted((slug, len(t), median_or_none(t)) for slug, t in solve_times.items())
    return d


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
