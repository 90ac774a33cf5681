"""The dashboard of one problem set, for the course's staff: every student's standing on every item
(a students x items matrix), the counts per item, work after the due date and stuck students, each
table exportable as CSV.

Counted as the students' own set page counts (homework.core.standing's window, and
grader.access.counted_practice_q): kernel problems from their graded practice submissions (platform
faults, validation runs and exam work excluded: an exam that drew a set's problem is the exam's),
question families from the answers to their practice questions (a right answer after the key was
shown never solves), both from the set's opening time to its close. Two GROUP BY queries, one over the submissions and one over the
answers, each one row per (student, item) that has any work: a course of 500 students and a set of
twelve items is at most 6,000 rows whatever the number of submissions (bench/dashboard_bench.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone as dt_timezone

from django.db import connections
from django.db.models import Count, Min, Q
from django.utils import timezone

from authoring.core.stats import StackedBar, stacked_bars
from courses.models import Membership, Role

from .core.standing import EMPTY, Cell, ItemCounts, ItemStatus, cell, is_stuck, item_counts


@dataclass(frozen=True)
class Item:
    """One column of the matrix: a kernel problem (its slug) or a question family (its id)."""

    pk: int
    key: str  # the problem's slug or the family's id: the column's name in the CSV exports
    kind: str  # "problem" or "family"


@dataclass
class SetDashboard:
    """Every table of a set's dashboard, as plain values (also what the CSV exports write)."""

    items: list[Item] = field(default_factory=list)
    students: list[str] = field(default_factory=list)  # usernames, in the matrix's order
    student_ids: dict[str, str] = field(default_factory=dict)  # username -> the student ID (학번) they gave
    matrix: list[list[Cell]] = field(default_factory=list)  # [student][item], as `students` and `items`
    counts: list[ItemCounts] = field(default_factory=list)  # per item, as `items`
    late: list[tuple[str, str, int, int, datetime | None, str]] = field(default_factory=list)
    # (username, item key, submissions after the due date, of them before the late deadline, the first,
    # status), most work after the due date first
    stuck: list[tuple[str, str, int]] = field(default_factory=list)  # (username, item key, attempts)
    bars: list[StackedBar] = field(default_factory=list)  # a stacked bar per item: the four statuses
    chart_height: float = 0
    counted_at: datetime | None = None

    @property
    def rows(self):
        """(username, cells) per student, for the matrix."""
        return zip(self.students, self.matrix)


def _aggregates(problem_set, solved: Q) -> dict:
    """The aggregates of one (student, item) group over its work since the set opened; `solved`
    says which rows are right answers (an ACCEPTED submission, a right answer before the key)."""
    window = problem_set.window()
    due, closes = window.due_at, window.closes_at
    # The rows were read from the opening time on (window.counts: opens_at <= at <= closes_at).
    return {
        "attempts": Count("pk", filter=Q(created_at__lte=closes)),
        "first_solved": Min("created_at", filter=solved & Q(created_at__lte=closes)),
        "after_due": Count("pk", filter=Q(created_at__gt=due)),
        "late_counted": Count("pk", filter=Q(created_at__gt=due, created_at__lte=closes)),
        "first_after_due": Min("created_at", filter=Q(created_at__gt=due)),
    }


def _aware(value) -> datetime | None:
    """A timestamp as the database cursor gives it: PostgreSQL's driver an aware datetime, SQLite's a
    string in UTC ("2026-12-05 18:14:12.158709"), or None."""
    if value is None or isinstance(value, datetime):
        return value
    return datetime.fromisoformat(value).replace(tzinfo=dt_timezone.utc)


def _grouped(queryset) -> dict[tuple, tuple]:
    """The rows of a values_list(key, key).annotate(**_aggregates(...)) query, {(key, key): (attempts,
    first solved, after due, late counted, first after due)}, read from the cursor with the two
    timestamps parsed here: Django's per-row converters cost more than the query itself on SQLite
    (18,000 groups of a 500 x 40 set: about 130 ms of 260 for the counted page, bench/dashboard_bench.py)."""
    sql, params = queryset.query.sql_with_params()
    with connections[queryset.db].cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    return {(a, b): (attempts, _aware(first), after, late, _aware(first_after))
            for a, b, attempts, first, after, late, first_after in rows}


def _problem_cells(problem_set, students, problem_ids) -> dict[tuple[int, int], tuple]:
    """{(user id, problem id): (attempts, first solved, after due, late counted, first after due)}."""
    from grader.access import counted_practice_q
    from grader.core.verdicts import Verdict
    from grader.models import Submission

    if not problem_ids:
        return {}
    aggregates = _aggregates(problem_set, Q(verdict=Verdict.ACCEPTED))
    rows = (Submission.objects.filter(counted_practice_q(), user_id__in=students,
                                      problem_version__problem_id__in=problem_ids,
                                      created_at__gte=problem_set.opens_at).order_by()
            .values_list("user_id", "problem_version__problem_id").annotate(**aggregates))
    return _grouped(rows)


def _family_cells(problem_set, students, families) -> dict[tuple[int, str], tuple]:
    """{(user id, family id): (attempts, first solved, after due, late counted, first after due)}."""
    from practice.models import QuestionAttempt

    if not families:
        return {}
    aggregates = _aggregates(problem_set, Q(correct=True, after_reveal=False))
    rows = (QuestionAttempt.objects.filter(variant__user_id__in=students, variant__family__in=families,
                                           created_at__gte=problem_set.opens_at).order_by()
            .values_list("variant__user_id", "variant__family").annotate(**aggregates))
    return _grouped(rows)


def build(problem_set, now=None) -> SetDashboard:
    """The dashboard of `problem_set` for every student of its course (the course's STUDENT
    memberships now, by username), counted at `now` (default: the current time)."""
    d = SetDashboard(counted_at=now or timezone.now())
    items = list(problem_set.items.select_related("problem").order_by("position", "pk"))
    d.items = [Item(i.pk, i.problem.slug, "problem") if i.problem_id else Item(i.pk, i.family, "family") for i in items]
    problem_of = {i.pk: i.problem_id for i in items if i.problem_id}
    members = Membership.objects.filter(course=problem_set.course_id, role=Role.STUDENT)
    student_ids = members.values("user_id")
    by_problem = _problem_cells(problem_set, student_ids, set(problem_of.values()))
    by_family = _family_cells(problem_set, student_ids, {i.key for i in d.items if i.kind == "family"})
    due = problem_set.due_at
    for user_id, username, student_id in members.order_by("user__username").values_list(
            "user_id", "user__username", "user__profile__student_id"):
        row = []
        for item in d.items:
            found = (by_problem.get((user_id, problem_of[item.pk])) if item.kind == "problem"
                     else by_family.get((user_id, item.key)))
            row.append(cell(*found, due) if found else EMPTY)
        d.students.append(username)
        if student_id:
            d.student_ids[username] = student_id
        d.matrix.append(row)
    columns = list(zip(*d.matrix)) if d.matrix else [() for _ in d.items]
    d.counts = [item_counts(list(column)) for column in columns]
    for username, row in d.rows:
        for item, c in zip(d.items, row):
            if c.after_due:
                d.late.append((username, item.key, c.after_due, c.late_counted, c.first_after_due, c.status.value))
            if is_stuck(c):
                d.stuck.append((username, item.key, c.attempts))
    d.stuck.sort(key=lambda r: (-r[2], r[0], r[1]))
    d.late.sort(key=lambda r: (-r[2], r[0], r[1]))
    d.bars, d.chart_height = stacked_bars(
        [(item.key, [(ItemStatus.SOLVED, n.solved, "seg-solved"), (ItemStatus.SOLVED_LATE, n.solved_late, "seg-late"),
                     (ItemStatus.TRIED, n.tried, "seg-tried"), (ItemStatus.NOT_STARTED, n.not_started, "seg-none")])
         for item, n in zip(d.items, d.counts)], len(d.students))
    return d


SHOWN_ROWS = 50  # rows of the late-work and stuck tables on the page (the CSV exports have them all)

CACHE_SECONDS = 60  # as the course dashboard: counted at most once a minute, unless counted again


def cached(problem_set, fresh: bool = False) -> SetDashboard:
    """`build(problem_set)`, counted at most once every CACHE_SECONDS seconds (Django's cache); the key
    names the set's items and times, so that a changed set is counted again at once. `fresh=True`
    counts again now (the page's "count again" link) and replaces the cached copy."""
    from django.core.cache import cache

    items = ",".join(str(pk) for pk in problem_set.items.order_by("position", "pk").values_list("pk", flat=True))
    stamp = f"{problem_set.opens_at.timestamp()}:{problem_set.due_at.timestamp()}:{problem_set.closes_at().timestamp()}"
    key = f"set-dashboard:2:{problem_set.pk}:{stamp}:{items}"  # 2: SetDashboard has student_ids
    data = None if fresh else cache.get(key)
    if data is None:
        data = build(problem_set)
        cache.set(key, data, CACHE_SECONDS)
    return data


def _iso(at: datetime | None) -> str:
    return timezone.localtime(at).isoformat(timespec="seconds") if at else ""


def _matrix_csv(d: SetDashboard):
    """One row per student (username, student ID): per item its status, attempts and first ACCEPTED (or
    right answer) time."""
    header = ["student", "student_id"] + [f"{i.key} {what}" for i in d.items
                                          for what in ("status", "attempts", "first_solved_at")]
    return [header] + [[username, d.student_ids.get(username, "")]
                       + [v for c in row for v in (c.status.value, c.attempts, _iso(c.first_solved_at))]
                       for username, row in d.rows]


CSV_TABLES = {
    "matrix": lambda d: _matrix_csv(d),
    "items": lambda d: [("item", "kind", "solved", "solved_late", "tried", "not_started", "submissions_after_due",
                         "median_attempts_of_solvers")] +
                       [(i.key, i.kind, n.solved, n.solved_late, n.tried, n.not_started, n.after_due, n.median_attempts)
                        for i, n in zip(d.items, d.counts)],
    "late": lambda d: [("student", "item", "after_due", "before_late_deadline", "first_after_due", "status")] +
                      [(u, k, n, counted, _iso(at), status) for u, k, n, counted, at, status in d.late],
    "stuck": lambda d: [("student", "item", "attempts")] + d.stuck,
}
