"""What one exam request costs, in-process: SQL statements and milliseconds of Start, the attempt page
and an autosave, for N students of bench/exam_load.py's exam (7 generated questions and a kernel item).

Usage (from the repository root, PostgreSQL running; the database is migrated, then filled):

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/wd_bench .venv/bin/python bench/exam_requests.py
    ... bench/exam_requests.py --students 60 --saves 5 --no-predraw     # Start draws (the fallback)
    ... bench/exam_requests.py --no-signed      # autosave through the authenticated path (session, user)

Each student, through Django's test client (no HTTP server, no other process): POST Start, GET the
attempt page, then --saves autosaves of one answer to the save URL the page gives (signed for its session: one
statement, exams.fastsave; --no-signed: the plain URL, the authenticated path). With --predraw (the default) the exam's
variants are drawn ahead, as scheduling an exam queues them (exams.actions.scheduling.schedule_exam), so Start
only copies the stored draw; --no-predraw deletes them first, so every Start draws. Every answer
sent is read back at the end (answers lost must be 0). Prints p50/p95/max wall time, queries and the web process's own CPU time per request (what a
loaded machine does not inflate; the database server's work is not in it);
the last line is JSON. On a shared machine run it several times and report the load average (printed).
This measures a request's own cost; bench/exam_load.py measures a room of clients over HTTP.
"""
from __future__ import annotations

import argparse
import html
import json
import os
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def summary(values: list[float]) -> dict:
    values = sorted(values)
    if not values:
        return {"n": 0}
    p95 = values[min(len(values) - 1, int(round(0.95 * (len(values) - 1))))]
    return {"n": len(values), "p50": round(statistics.median(values), 1), "p95": round(p95, 1),
            "max": round(values[-1], 1)}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--students", type=int, default=60)
    p.add_argument("--saves", type=int, default=5)
    p.add_argument("--predraw", action=argparse.BooleanOptionalAction, default=True)
    p.add_argument("--signed", action=argparse.BooleanOptionalAction, default=True,
                   help="autosave to the page's signed URL (one statement); --no-signed: the authenticated path")
    args = p.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from datetime import timedelta

    from django.conf import settings
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse
    from django.utils import timezone

    from courses.models import Course, Membership
    from exams import drawing
    from exams.actions.scheduling import save_template, schedule_exam
    from exams.models import Exam, ExamDraw, ExamItem, ExamTemplate
    from exam_load import KERNEL_SLUG, TEMPLATE

    settings.ALLOWED_HOSTS = ["*"]

    def cleanup():
        Exam.objects.filter(course__code="BENCH-REQ").delete()
        ExamTemplate.objects.filter(course__code="BENCH-REQ").delete()
        Course.objects.filter(code="BENCH-REQ").delete()

    call_command("migrate", verbosity=0)
    from problems.models import Problem
    from problems.services import import_bank

    if not Problem.objects.filter(slug=KERNEL_SLUG).exists():
        import_bank(ROOT / "problems" / "bank")
    cleanup()
    User.objects.filter(username__startswith="req-").delete()
    course = Course.objects.create(name="Requests bench", code="BENCH-REQ")
    ivy = User.objects.create_user("req-ivy")
    Membership.objects.create(course=course, user=ivy, role="instructor")
    users = User.objects.bulk_create([User(username=f"req-s{i:04d}") for i in range(args.students)])
    Membership.objects.bulk_create([Membership(course=course, user=u, role="student") for u in users])
    template = save_template(course, ivy, TEMPLATE)
    drawing.enqueue_predraw = lambda exam: None  # the task's work is timed in-process below instead
    now = timezone.now()
    exam = schedule_exam(course, template, opens_at=now - timedelta(minutes=1),
                         closes_at=now + timedelta(hours=3), duration_minutes=120)
    t = time.perf_counter()
    drawn = drawing.predraw_exam(exam.pk)
    predraw_ms = (time.perf_counter() - t) * 1000
    if not args.predraw:
        ExamDraw.objects.filter(exam=exam).delete()
    print(f"load average {os.getloadavg()[0]:.1f}; {drawn} variants drawn ahead in {predraw_ms:.0f} ms"
          f"{' (then deleted: Start draws)' if not args.predraw else ''}", flush=True)

    ms: dict[str, list[float]] = {"start": [], "attempt page": [], "autosave": []}
    queries: dict[str, list[int]] = {k: [] for k in ms}
    sent: dict = {}

    cpu: dict[str, list[float]] = {k: [] for k in ms}

    def timed(kind, call):
        with CaptureQueriesContext(connection) as ctx:
            t0, c0 = time.perf_counter(), time.process_time()
            response = call()
            ms[kind].append((time.perf_counter() - t0) * 1000)
            cpu[kind].append((time.process_time() - c0) * 1000)  # this process's CPU: what load does not inflate
        queries[kind].append(len(ctx.captured_queries))
        return response

    for n, user in enumerate(users):
        c = Client()
        c.force_login(user)
        c.get("/healthz")  # the session is read once outside the figures, as a browser's earlier page did
        r = timed("start", lambda: c.post(reverse("exams:start", args=[exam.pk])))
        if r.status_code != 302:
            raise SystemExit(f"start gave {r.status_code}")
        page = timed("attempt page", lambda: c.get(reverse("exams:attempt", args=[exam.pk]))).content.decode()
        found = re.search(r'data-save-url="([^"]+)"', page)  # the page's save URL, signed for its session
        save_url = html.unescape(found[1]) if found and args.signed else reverse("exams:save", args=[exam.pk])
        items = [(i.key, [f["name"] for f in i.data["question"]["fields"]])
                 for i in ExamItem.objects.filter(attempt__exam=exam, attempt__user=user, kind="question")]
        for s in range(args.saves):
            key, fields = items[s % len(items)]
            value = f"{n}-{s}"
            body = json.dumps({"answers": {key: {fields[0]: value}}})
            r = timed("autosave", lambda: c.post(save_url, body,
                                                 content_type="application/json"))
            if r.status_code == 200:
                sent[(user.pk, key, fields[0])] = value
    stored = {(i.attempt.user_id, i.key): i.answer for i in ExamItem.objects.filter(attempt__exam=exam)
              .select_related("attempt")}
    lost = sum(1 for (u, k, f), v in sent.items() if stored.get((u, k), {}).get(f) != v)
    result = {"students": args.students, "predraw": args.predraw, "signed_save": args.signed, "load_average": round(os.getloadavg()[0], 1),
              "predraw_ms": round(predraw_ms), "answers_sent": len(sent), "answers_lost": lost}
    print(f"{'request':<14}{'n':>5}{'p50':>9}{'p95':>9}{'max':>9}{'queries':>9}{'CPU p50':>9}")
    for kind, values in ms.items():
        s, c = summary(values), summary(cpu[kind])
        q = max(queries[kind]) if queries[kind] else 0
        result[kind.replace(" ", "_") + "_ms"] = s
        result[kind.replace(" ", "_") + "_cpu_ms"] = c
        result[kind.replace(" ", "_") + "_queries"] = q
        print(f"{kind:<14}{s['n']:>5}{s['p50']:>7.1f}ms{s['p95']:>7.1f}ms{s['max']:>7.1f}ms{q:>9}{c['p50']:>7.1f}ms")
    print(f"answers lost {lost} of {len(sent)}; load average after {os.getloadavg()[0]:.1f}")
    cleanup()
    print(json.dumps(result))
    return 0 if not lost else 1


if __name__ == "__main__":
    raise SystemExit(main())
