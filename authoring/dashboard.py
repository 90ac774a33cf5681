"""The instructor dashboard's reads: a course's (or one problem's) students' submissions, counted in
the database. Only practice submissions of the course's students count (validation runs, exam work,
staff and outsiders do not: grader.access.counted_practice_q), to the course's own problems and the
problems its problem sets assign. An exam's kernels are counted on the exam's results page."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, time, timedelta

from django.db import connection
from django.db.models import Aggregate, Count, F, FloatField, Q, Sum
from django.db.models.functions import TruncDate
from django.utils import timezone

from courses.models import Membership, Role
from grader.access import counted_practice_q
from grader.models import Submission

from .core.stats import Bar, StackedBar, Tick, axis_ticks, bars, median_or_none, stacked_bars
from .models import COUNTED_VERDICTS, ProblemDay, ProblemError, ProblemStats, verdict_column

STUCK_ATTEMPTS = 5  # this many graded attempts at one problem without an ACCEPTED: stuck
DAYS = 30  # days of the submissions-over-time chart


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
    daily_ticks: list[Tick] = field(default_factory=list)  # the day labels under daily_bars
    verdict_bars: list[Bar] = field(default_factory=list)
    # The course's students' practice (question families) per topic: practice.progress.TopicReach rows,
    # each topic's every-difficulty row first; with a stacked bar per topic (solved, tried, not yet).
    topics: list = field(default_factory=list)
    topic_bars: list[StackedBar] = field(default_factory=list)
    topic_chart_height: float = 0
    counted_at: datetime | None = None  # when the database counted these (a cached dashboard is older)


def course_submissions(course, problem=None):
    """The submissions the dashboard counts, for the course or one of its problems."""
    from problems.models import Problem

    students = Membership.objects.filter(course=course, role=Role.STUDENT).values("user_id")
    rows = Submission.objects.filter(counted_practice_q(), user_id__in=students)
    if problem is not None:
        return rows.filter(problem_version__problem=problem)
    assigned = Problem.objects.filter(Q(course=course) | Q(pk__in=course.problem_sets.values("items__problem"))) \
        .values("pk")
    return rows.filter(problem_version__problem_id__in=assigned)


def course_stats(course, problem=None, model=None):
    """The summary rows the dashboard reads (ProblemStats, or `model`: ProblemDay, ProblemError;
    authoring.progress keeps them equal to a recount of course_submissions): the course's students'
    pairs, for its problems or for one `problem`."""
    from problems.models import Problem

    students = Membership.objects.filter(course=course, role=Role.STUDENT).values("user_id")
    rows = (model or ProblemStats).objects.filter(user_id__in=students)
    if problem is not None:
        return rows.filter(problem=problem)
    assigned = Problem.objects.filter(Q(course=course) | Q(pk__in=course.problem_sets.values("items__problem"))) \
        .values("pk")
    return rows.filter(problem_id__in=assigned)


def build(course, problem=None, now=None) -> Dashboard:
    """The dashboard of `course` (or of one `problem` in it) at `now` (default: the current time).

    Every table comes from the summary rows authoring.progress keeps at every verdict (one per
    student and problem: ProblemStats; per day: ProblemDay; per compile error or diagnostic:
    ProblemError), never from the submissions: one aggregate or small read per table, whatever the
    number of submissions (bench/dashboard_bench.py). The days are the site's time zone's; under
    another active time zone the per-day chart is counted from the submissions (GROUP BY day). The
    common errors are counted over all the course's failed submissions, by wording. A course's
    dashboard also counts its students' practice per topic (practice.progress.group_progress, from
    the TopicStats summary); a problem's does not.
    """
    now = now or timezone.now()
    rows = course_submissions(course, problem).order_by()
    d = Dashboard()
    d.students = Membership.objects.filter(course=course, role=Role.STUDENT).count()
    zone = timezone.get_current_timezone()
    start = timezone.localdate(now, zone) - timedelta(days=DAYS - 1)
    since = datetime.combine(start, time.min, tzinfo=zone)
    if zone == timezone.get_default_timezone():  # ProblemDay's days are in the site's time zone
        per_day = dict(course_stats(course, problem, ProblemDay).filter(day__gte=start).order_by()
                       .values_list("day").annotate(n=Sum("n")))
    else:
        per_day = dict(rows.filter(created_at__gte=since).annotate(day=TruncDate("created_at", tzinfo=zone))
                       .values_list("day").annotate(n=Count("id")))
    d.daily = [((start + timedelta(days=i)).isoformat(), per_day.get(start + timedelta(days=i), 0)) for i in range(DAYS)]
    d.daily_bars = bars([(day[5:], n, "bar-day") for day, n in d.daily])
    d.daily_ticks = axis_ticks(d.daily_bars)
    d.errors = [(kind, text, n) for kind, text, n in course_stats(course, problem, ProblemError).order_by()
                .values_list("kind", "text").annotate(n=Sum("n")).order_by("-n", "kind", "text")[:20]]
    stats = course_stats(course, problem)
    sums = stats.aggregate(**{v: Sum(verdict_column(v)) for v in COUNTED_VERDICTS})
    d.verdicts = sorted(((v, n) for v, n in sums.items() if n), key=lambda kv: (-kv[1], kv[0]))
    d.total = sum(n for _, n in d.verdicts)
    d.verdict_bars = bars([(v, n, "verdict-" + v.lower().replace("_", "-")) for v, n in d.verdicts], width=600)
    d.stuck = sorted(stats.filter(n_accepted=0, attempts__gte=STUCK_ATTEMPTS)
                     .values_list("user__username", "problem__slug", "attempts"), key=lambda r: (-r[2], r[0], r[1]))
    d.first_accepted = _first_accepted(stats.filter(seconds_to_accepted__isnull=False))
    if problem is None:
        _practice(d, course)
    d.counted_at = now
    return d


def _practice(d: Dashboard, course) -> None:
    """The course's students' practice per topic (practice.progress.group_progress) and its chart:
    per topic, the students who solved a question of it, who answered but solved none, and who have
    not answered any, out of the course's students."""
    from practice.progress import group_progress

    d.topics = group_progress(Membership.objects.filter(course=course, role=Role.STUDENT).values("user_id"))
    rows = [(t.topic, [("solved", t.solved, "seg-solved"), ("tried", t.attempted - t.solved, "seg-tried"),
                       ("not_started", d.students - t.attempted, "seg-none")])
            for t in d.topics if t.difficulty is None]
    d.topic_bars, d.topic_chart_height = stacked_bars(rows, d.students)


class _Median(Aggregate):
    """PostgreSQL's median of a number column (percentile_cont(0.5): the mean of the two middle
    values of an even count, as statistics.median)."""

    function = "percentile_cont"
    template = "%(function)s(0.5) WITHIN GROUP (ORDER BY %(expressions)s)"
    output_field = FloatField()


def _first_accepted(solved) -> list[tuple[str, int, float | None]]:
    """(slug, solvers, median seconds from a first submission to a first ACCEPTED) per problem, from
    the summary rows of the pairs that were accepted (their stored seconds_to_accepted): counted by
    the database on PostgreSQL, in Python elsewhere (SQLite has no median), from plain numbers."""
    if connection.vendor == "postgresql":
        return sorted(solved.order_by().values_list("problem__slug").annotate(
            n=Count("pk"), median=_Median(F("seconds_to_accepted"))))
    times: dict[int, list[float]] = {}
    for problem_id, seconds in solved.order_by().values_list("problem_id", "seconds_to_accepted"):
        times.setdefault(problem_id, []).append(seconds)
    from problems.models import Problem

    slugs = dict(Problem.objects.filter(pk__in=times).values_list("pk", "slug"))
    return sorted((slugs[pk], len(t), median_or_none(t)) for pk, t in times.items())


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


CSV_TABLES = {
    "daily": (("day", "submissions"), lambda d: d.daily),
    "verdicts": (("verdict", "submissions"), lambda d: d.verdicts),
    "errors": (("kind", "message", "count"), lambda d: d.errors),
    "stuck": (("student", "problem", "attempts"), lambda d: d.stuck),
    "first_accepted": (("problem", "solvers", "median_seconds_to_first_accepted"), lambda d: d.first_accepted),
    "practice": (("topic", "difficulty", "students_attempted", "students_solved", "attempts"),
                 lambda d: [(t.topic, t.difficulty or "all", t.attempted, t.solved, t.attempts) for t in d.topics]),
}
