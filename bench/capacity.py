"""Capacity figures for docs/scaling.md: the CPU time one request or one grading costs.

Usage (from the repository root; PostgreSQL as .ci/run starts it, or SQLite without DATABASE_URL):

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/warpdrill .venv/bin/python bench/capacity.py
    .venv/bin/python bench/capacity.py --requests 40 --gradings 2      # a quicker run

CPU time, not wall time: on a shared machine wall times measure the neighbours, while the CPU seconds
a request or a grading costs are what a core must supply, so per-core rates are 1 / (CPU s per unit).
What it does, in a throw-away test database (created and dropped like the test suite's):
- web: the problem bank imported, a student with a graded submission and an exam attempt, then
  --requests of each request kind through Django's test client (the whole middleware stack, the
  database round trips, rendering): an API poll of a submission, the problem list, a problem page,
  the attempt page, an autosave (the exam page's JSON POST). CPU time of this process per request;
  the database server's own CPU is not included (it is reported apart when PostgreSQL is local:
  pg_stat's backend is another process, so its share is estimated from the wall-time difference).
- grading: --gradings gradings of each of a few bank solutions on the emulator backend (compile,
  run every test, the checks), CPU time of this process and every child it waited for (g++, the
  sandboxed runs). The emulator runtime is built first and not counted (a worker builds it once).
The last line printed is one JSON object with the figures.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("WARPDRILL_TESTING", "1")  # a private var/test/<run>/ folder, like the test suite's

GRADED_SLUGS = ("vector-add-tail", "block-sum", "matrix-add-2d")
TEMPLATE = {
    "title": {"en": "Capacity midterm"},
    "zones": [
        {"title": "Indexing", "choose": 3, "points": 3,
         "pool": ["indexing.global_index", "indexing.warp_lane", "indexing.grid_dims", "indexing.inverse"]},
        {"title": "Kernel", "pool": [{"kernel": "vector-add-tail", "attempt_points": [10, 7, 5]}]},
    ],
}


def cpu_s(children: bool = False) -> float:
    """CPU seconds (user + system) of this process, plus its waited-for children when asked."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    total = usage.ru_utime + usage.ru_stime
    if children:
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        total += kids.ru_utime + kids.ru_stime
    return total


def measure(n: int, fn) -> dict:
    """Run fn() n times after 3 warm-ups; CPU and wall milliseconds per call."""
    for _ in range(3):
        fn()
    c0, w0 = cpu_s(), time.perf_counter()
    for _ in range(n):
        fn()
    cpu = (cpu_s() - c0) / n
    wall = (time.perf_counter() - w0) / n
    return {"cpu_ms": round(cpu * 1000, 2), "wall_ms": round(wall * 1000, 2),
            "per_core_per_s": round(1 / cpu, 1) if cpu else None}


def web_figures(n: int) -> dict:
    from django.contrib.auth.models import Group, User
    from django.test import Client
    from django.utils import timezone
    from rest_framework.authtoken.models import Token

    from courses.models import Course, Membership
    from exams.actions.attempts import start_attempt
    from exams.actions.scheduling import save_template, schedule_exam
    from grader import actions
    from grader import grading
    from grader.core.results import JudgeResult
    from grader.core.verdicts import Verdict
    from problems.models import Problem

    student = User.objects.create_user("cap-alice", password="cap-pass-1234")
    student.groups.add(Group.objects.get_or_create(name="Student")[0])
    problem = Problem.objects.get(slug="vector-add-tail")
    sub = actions.create_submission(student, problem, (ROOT / "problems/bank/vector-add-tail/solution.cu").read_text())
    grading.finish_grading(sub.pk, JudgeResult(verdict=Verdict.ACCEPTED))
    course = Course.objects.create(name="Capacity", code="CAP-1")
    ivy = User.objects.create_user("cap-ivy", password="cap-pass-1234")
    Membership.objects.create(course=course, user=ivy, role="instructor")
    Membership.objects.create(course=course, user=student, role="student")
    template = save_template(course, ivy, TEMPLATE)
    now = timezone.now()
    exam = schedule_exam(course, template, opens_at=now - timedelta(minutes=1),
                         closes_at=now + timedelta(hours=3), duration_minutes=120)
    attempt = start_attempt(exam, student)
    question = attempt.items.filter(kind="question").first()
    fields = list(question.data["question"]["answer"])

    browser = Client()
    browser.force_login(student)
    api = Client(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=student).key}")
    counter = iter(range(10**9))

    def ok(response, status=200):
        assert response.status_code == status, (response.status_code, response.content[:300])

    def autosave():
        value = str(next(counter))
        ok(browser.post(f"/exams/{exam.pk}/attempt/save/", {"answers": {question.key: {f: value for f in fields}}},
                        content_type="application/json"))

    return {
        "api_poll": measure(n, lambda: ok(api.get(f"/api/v1/submissions/{sub.pk}"))),
        "problem_list": measure(n, lambda: ok(browser.get("/"))),
        "problem_page": measure(n, lambda: ok(browser.get("/problems/vector-add-tail/"))),
        "attempt_page": measure(n, lambda: ok(browser.get(f"/exams/{exam.pk}/attempt/"))),
        "autosave": measure(n, autosave),
    }


def grading_figures(n: int) -> dict:
    from django.conf import settings

    from grader.core.backends.registry import get_backend
    from grader.core.judge import judge
    from problems.models import Problem
    from problems.services import version_package

    backend = get_backend("emulator")
    backend.prepare()
    out = {}
    for slug in GRADED_SLUGS:
        version = Problem.objects.get(slug=slug).current_version
        package = version_package(version)
        source = (ROOT / "problems" / "bank" / slug / "solution.cu").read_text()
        cpu, wall, verdicts = 0.0, 0.0, []
        for k in range(n):
            unique = f"// capacity {k} {time.time_ns()}\n{source}"  # no compile-cache hit
            c0, w0 = cpu_s(children=True), time.perf_counter()
            result = judge(package, unique, backend, seed_secret=settings.WARPDRILL_SEED_SECRET,
                           target_cc=settings.WARPDRILL_TARGET_CC)
            cpu += cpu_s(children=True) - c0
            wall += time.perf_counter() - w0
            verdicts.append(result.verdict.value)
        out[slug] = {"cpu_s": round(cpu / n, 2), "wall_s": round(wall / n, 2), "verdicts": sorted(set(verdicts))}
    mean_cpu = sum(v["cpu_s"] for v in out.values()) / len(out)
    out["mean_cpu_s"] = round(mean_cpu, 2)
    out["gradings_per_minute_per_core"] = round(60 / mean_cpu, 1)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--requests", type=int, default=100, help="requests measured per kind")
    p.add_argument("--gradings", type=int, default=3, help="gradings measured per problem")
    args = p.parse_args()

    import django

    django.setup()
    from django.conf import settings
    from django.db import connection
    from django.test.utils import setup_test_environment

    from problems.services import import_bank

    setup_test_environment()
    settings.ALLOWED_HOSTS = ["testserver"]
    name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        import_bank(ROOT / "problems" / "bank")
        load = os.getloadavg()[0]
        web = web_figures(args.requests)
        grading = grading_figures(args.gradings)
    finally:
        connection.creation.destroy_test_db(name, verbosity=0)
    print(f"{'request':<14}{'CPU ms':>9}{'wall ms':>9}{'per core/s':>12}")
    for kind, f in web.items():
        print(f"{kind:<14}{f['cpu_ms']:>9}{f['wall_ms']:>9}{f['per_core_per_s']:>12}")
    for slug in GRADED_SLUGS:
        print(f"grading {slug}: {grading[slug]['cpu_s']} CPU s ({grading[slug]['wall_s']} s wall) {grading[slug]['verdicts']}")
    print(f"gradings per minute per core (emulator): {grading['gradings_per_minute_per_core']}")
    print(json.dumps({"database": settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1], "load_avg_1m": load,
                      "web": web, "grading": grading}))


if __name__ == "__main__":
    main()
