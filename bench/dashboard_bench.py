"""Dashboard benchmark: a course of 500 students and 50,000 graded submissions; times its pages.

Usage (from the repository root):

    .venv/bin/python bench/dashboard_bench.py                         # a throw-away SQLite database
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/wd_dash .venv/bin/python bench/dashboard_bench.py
    .venv/bin/python bench/dashboard_bench.py --students 50 --submissions 5000 --runs 10   # a quick check
    DATABASE_URL=... .venv/bin/python bench/dashboard_bench.py --reuse    # time again what a run filled

It fills a fresh database (its own WARPDRILL_VAR_DIR under /tmp; with DATABASE_URL that database,
migrated and then filled) with the problem bank, one course with --students students and its
instructor, a problem set assigning every bank problem, and --submissions graded STUDENT
submissions spread over 30 days (verdicts in realistic proportions, compile errors and diagnostics
in their results) and --answers answers to practice questions (question families of every topic and
difficulty, one to three answers per question), rebuilds the per-student summary the dashboards read
(bulk inserts bypass its upkeep, as `manage.py rebuild_problem_stats` and `rebuild_practice_stats`
would after a bulk load), adds
a weekly problem set of 8 kernel problems and 4 question families (opened 14 days ago, due 7 days
ago, late work until 4 days ago), then requests the course dashboard (with its practice per topic),
one problem's dashboard, the weekly set's dashboard (500 x 12 matrix), the dashboard of the set
that assigns every bank problem (500 x 40, the worst case) and CSV exports --runs times each through
Django's test client, logged in as the instructor. It prints p50/p95 per page; the last line is JSON.
The goal (issue 16): p95 <= 300 ms. Not part of the test suite.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=500)
    parser.add_argument("--submissions", type=int, default=50_000)
    parser.add_argument("--answers", type=int, default=30_000, help="answers to practice questions")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reuse", action="store_true",
                        help="time the pages of the course an earlier run filled (DATABASE_URL), without filling again")
    args = parser.parse_args()

    if "DATABASE_URL" not in os.environ:
        os.environ["WARPDRILL_VAR_DIR"] = tempfile.mkdtemp(prefix="wd-dashboard-bench-")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.ALLOWED_HOSTS = ["*"]
    call_command("migrate", verbosity=0)
    if not args.reuse:
        fill(args)
    report(args)


def fill(args) -> None:
    from datetime import timedelta

    from django.contrib.auth.models import User
    from django.utils import timezone

    from courses.models import Course, Membership, Role
    from grader.core.results import CompileMessage, CompileResult, Diagnostic, JudgeResult
    from grader.core.verdicts import DiagnosticKind, Verdict
    from grader.models import Purpose, Status, Submission
    from homework.models import LatePolicy, ProblemSet, ProblemSetItem
    from problems.models import Problem
    from problems.services import import_bank

    rng = random.Random(args.seed)
    started = time.monotonic()
    import_bank(ROOT / "problems" / "bank")
    Course.objects.filter(code="BENCH").delete()
    course = Course.objects.create(name="Bench", code="BENCH")
    prof = User.objects.filter(username="bench-prof").first() or User.objects.create_user("bench-prof")
    Membership.objects.create(course=course, user=prof, role=Role.INSTRUCTOR)
    User.objects.filter(username__startswith="bench-s").delete()
    students = User.objects.bulk_create([User(username=f"bench-s{i:04d}") for i in range(args.students)])
    students = list(User.objects.filter(username__startswith="bench-s"))
    Membership.objects.bulk_create([Membership(course=course, user=u, role=Role.STUDENT) for u in students])
    now = timezone.now()
    problem_set = ProblemSet.objects.create(course=course, title_en="All", opens_at=now - timedelta(days=40),
                                            due_at=now + timedelta(days=1))
    versions = [p.current_version for p in Problem.objects.filter(course__isnull=True).select_related("current_version")]
    ProblemSetItem.objects.bulk_create([ProblemSetItem(problem_set=problem_set, problem_id=v.problem_id, position=i)
                                        for i, v in enumerate(versions)])
    verdicts = [(Verdict.ACCEPTED, 40), (Verdict.WRONG_ANSWER, 25), (Verdict.COMPILE_ERROR, 15),
                (Verdict.MEMORY_ERROR, 8), (Verdict.SYNC_ERROR, 6), (Verdict.RUNTIME_ERROR, 3),
                (Verdict.TIME_LIMIT, 2), (Verdict.DEADLOCK, 1)]
    population, weights = zip(*verdicts)
    compile_messages = ["'idx' was not declared in this scope", "expected ';' before 'if'",
                        "invalid conversion from 'int*' to 'float*'"]
    rows = []
    for _ in range(args.submissions):
        verdict = rng.choices(population, weights)[0]
        result = JudgeResult(verdict=verdict)
        if verdict is Verdict.COMPILE_ERROR:
            result.compile = CompileResult(ok=False, messages=[CompileMessage(line=rng.randint(1, 20), column=1,
                                           severity="error", message=rng.choice(compile_messages))])
        elif verdict in (Verdict.SYNC_ERROR, Verdict.MEMORY_ERROR, Verdict.DEADLOCK):
            kind = {Verdict.SYNC_ERROR: DiagnosticKind.DIVERGENT_BARRIER, Verdict.MEMORY_ERROR: DiagnosticKind.OUT_OF_BOUNDS,
                    Verdict.DEADLOCK: DiagnosticKind.DEADLOCK}[verdict]
            result.diagnostics = [Diagnostic(kind=kind, line=rng.randint(5, 15))]
        at = now - timedelta(seconds=rng.uniform(0, 30 * 86400))
        rows.append(Submission(user=rng.choice(students), problem_version=rng.choice(versions), source="// bench",
                               status=Status.GRADED, verdict=verdict.value, result=result.to_dict(),
                               purpose=Purpose.STUDENT, created_at=at, finished_at=at))
    created_at = Submission._meta.get_field("created_at")
    created_at.auto_now_add = False  # keep the spread-out times (auto_now_add would stamp every row now)
    try:
        Submission.objects.bulk_create(rows, batch_size=2000)
    finally:
        created_at.auto_now_add = True
    practice(args, rng, students, now)
    week = ProblemSet.objects.create(course=course, title_en="Week", opens_at=now - timedelta(days=14),
                                     due_at=now - timedelta(days=7), late_policy=LatePolicy.MARKED,
                                     late_until=now - timedelta(days=4))
    ProblemSetItem.objects.bulk_create(
        [ProblemSetItem(problem_set=week, problem_id=v.problem_id, position=i) for i, v in enumerate(versions[:8])]
        + [ProblemSetItem(problem_set=week, family=f, position=8 + i) for i, f in enumerate(WEEK_FAMILIES)])
    from django.db import connection

    from authoring.progress import rebuild

    print(f"filled {args.students} students, {args.submissions} submissions and {args.answers} answers in {time.monotonic() - started:.1f} s")
    started = time.monotonic()
    pairs = rebuild()  # bulk_create writes around the summary's signals: what rebuild_problem_stats does
    print(f"summary (ProblemStats) rebuilt: {pairs} (student, problem) rows in {time.monotonic() - started:.1f} s")
    from practice.topic_stats import rebuild as rebuild_practice

    started = time.monotonic()
    rows = rebuild_practice()  # as manage.py rebuild_practice_stats after a bulk load
    print(f"summary (TopicStats) rebuilt: {rows} (student, topic) rows in {time.monotonic() - started:.1f} s")
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:  # what autovacuum does soon after a bulk load
            cursor.execute("ANALYZE")


WEEK_FAMILIES = ["occupancy.blocks_per_sm", "indexing.global_index", "synchronization.classify", "memory.coalescing"]


def practice(args, rng, students, now) -> None:
    """--answers answers to practice questions, one to three per question, spread over 30 days; a
    third of the questions answered right (before the key), a few right after it."""
    from datetime import timedelta

    from practice.core.questions import FAMILIES
    from practice.models import QuestionAttempt, QuestionVariant

    families = sorted(FAMILIES)
    for name in WEEK_FAMILIES:
        if name not in FAMILIES:
            raise SystemExit(f"bench: no question family {name!r}")
    QuestionVariant.objects.filter(user__in=students).delete()
    variants, tries, left = [], [], args.answers
    while left > 0:
        n = min(left, rng.choice((1, 1, 2, 3)))
        left -= n
        at = now - timedelta(seconds=rng.uniform(0, 30 * 86400))
        variants.append(QuestionVariant(user=rng.choice(students), family=rng.choice(families), generator_version=1,
                                        difficulty=rng.choice((1, 1, 2, 2, 3)), seed=len(variants),
                                        slot=f"bench-{len(variants)}", params={}, answer={}, created_at=at))
        right = rng.random() < 0.6
        tries.append([(at + timedelta(minutes=k), right and k == n - 1, False) for k in range(n)])
    fields = [QuestionVariant._meta.get_field("created_at"), QuestionAttempt._meta.get_field("created_at")]
    for f in fields:
        f.auto_now_add = False  # keep the spread-out times
    try:
        QuestionVariant.objects.bulk_create(variants, batch_size=2000)
        QuestionAttempt.objects.bulk_create([QuestionAttempt(variant=v, response={}, correct=ok, after_reveal=shown,
                                                             created_at=at)
                                             for v, answers in zip(variants, tries) for at, ok, shown in answers],
                                            batch_size=2000)
    finally:
        for f in fields:
            f.auto_now_add = True


def report(args) -> None:
    from django.contrib.auth.models import User
    from django.test import Client
    from django.urls import reverse

    client = Client()
    client.force_login(User.objects.get(username="bench-prof"))
    slug = "vector-add-tail"
    course_url = reverse("authoring:dashboard", args=["BENCH"])
    from homework.models import ProblemSet

    week = reverse("homework:dashboard", args=["BENCH", ProblemSet.objects.get(course__code="BENCH", title_en="Week").pk])
    every = reverse("homework:dashboard", args=["BENCH", ProblemSet.objects.get(course__code="BENCH", title_en="All").pk])
    pages = {  # ?fresh=1 counts in the database on every request; without it a page reads the counted copy
        "course dashboard, counted": course_url + "?fresh=1",
        "problem dashboard, counted": reverse("authoring:problem-dashboard", args=["BENCH", slug]) + "?fresh=1",
        "course dashboard, cached": course_url,
        "CSV export (stuck), cached": course_url + "?csv=stuck",
        "CSV export (practice), cached": course_url + "?csv=practice",
        "set dashboard (12 items), counted": week + "?fresh=1",
        "set dashboard (12 items), cached": week,
        "set CSV (matrix), cached": week + "?csv=matrix",
        "set dashboard (40 items), counted": every + "?fresh=1",
    }
    figures = {}
    for name, url in pages.items():
        client.get(url)  # warm: templates, connections
        times = []
        for _ in range(args.runs):
            t = time.perf_counter()
            response = client.get(url)
            times.append((time.perf_counter() - t) * 1000)
            assert response.status_code == 200, (url, response.status_code)
        times.sort()
        p95 = times[min(len(times) - 1, int(round(0.95 * (len(times) - 1))))]
        figures[name] = {"p50_ms": round(statistics.median(times), 1), "p95_ms": round(p95, 1)}
        print(f"{name:36s} p50 {figures[name]['p50_ms']:7.1f} ms   p95 {figures[name]['p95_ms']:7.1f} ms")
    from django.db import connection

    load = [round(x, 1) for x in os.getloadavg()]
    print(f"load average (1, 5, 15 min) after the runs: {load}")
    print(json.dumps({"students": args.students, "submissions": args.submissions, "answers": args.answers,
                      "runs": args.runs, "load_average": load,
                      "database": connection.vendor, "pages": figures, "goal_p95_ms": 300}))


if __name__ == "__main__":
    main()
