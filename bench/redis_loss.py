"""Redis loss and recovery: submissions queued, Redis restarted with nothing on disk, time until all are graded.

Usage (from the repository root; PostgreSQL as .ci/run starts it; redis-server installed):

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/warpdrill .venv/bin/python bench/redis_loss.py
    ... bench/redis_loss.py --submissions 20 --stuck-after-s 30 --sweep-every-s 5

What it does: a private redis-server without persistence (`--save "" --appendonly no`, the worst
case) on a free port, a throw-away test database with the bank imported, --submissions practice
submissions sent while no worker runs (their messages wait in Redis), then Redis is shut down
without saving and started again, empty. A worker with beat (the dummy backend: the figure is the
recovery, not the grading) starts at once. Beat's sweeper re-queues submissions that have waited
longer than WARPDRILL_STUCK_AFTER_S (checked every WARPDRILL_SWEEP_EVERY_S), so the expected
recovery is at most stuck_after - (time since they were queued) + sweep_every + the gradings.
The last line printed is one JSON object: seconds from the restart to the first and the last verdict.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


class PrivateRedis:
    """A redis-server of our own on a free port with nothing on disk (tests/faults/conftest.py's, here
    without importing the tests before the settings are read)."""

    def __init__(self, workdir: Path):
        import socket

        self.workdir = workdir
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = sock.getsockname()[1]
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc = None

    def start(self) -> None:
        from redis import Redis

        self.proc = subprocess.Popen(["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", "",
                                      "--appendonly", "no", "--dir", str(self.workdir)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        for _ in range(200):
            try:
                if Redis(port=self.port, socket_connect_timeout=0.5).ping():
                    return
            except Exception:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def shutdown_nosave(self) -> None:
        subprocess.run(["redis-cli", "-p", str(self.port), "shutdown", "nosave"], capture_output=True, timeout=20)
        self.proc.wait(20)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(20)


def exam_submissions(n: int, source: str) -> list[int]:
    """n students of one course start an open exam and submit its kernel item once; their submission ids."""
    from datetime import timedelta

    from django.contrib.auth.models import User
    from django.utils import timezone

    from courses.models import Course, Membership
    from exams.actions.attempts import start_attempt, submit_kernel
    from exams.actions.scheduling import save_template, schedule_exam

    course = Course.objects.create(name="Redis loss", code="RL-1")
    ivy = User.objects.create_user("rl-ivy")
    Membership.objects.create(course=course, user=ivy, role="instructor")
    template = save_template(course, ivy, {
        "title": {"en": "Redis loss"},
        "zones": [{"title": "Kernel", "pool": [{"kernel": "vector-add-tail", "attempt_points": [10]}]}]})
    now = timezone.now()
    exam = schedule_exam(course, template, opens_at=now - timedelta(minutes=1),
                         closes_at=now + timedelta(hours=2), duration_minutes=60)
    pks = []
    for k in range(n):
        student = User.objects.create_user(f"rl-student-{k}")
        Membership.objects.create(course=course, user=student, role="student")
        attempt = start_attempt(exam, student)
        pks.append(submit_kernel(attempt.items.get(kind="kernel"), student, f"// {k}\n{source}").pk)
    return pks


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--submissions", type=int, default=20)
    p.add_argument("--stuck-after-s", type=int, default=30, help="WARPDRILL_STUCK_AFTER_S (production: 600)")
    p.add_argument("--sweep-every-s", type=float, default=5.0, help="WARPDRILL_SWEEP_EVERY_S (production: 30)")
    p.add_argument("--timeout-s", type=float, default=600.0)
    p.add_argument("--exam", action="store_true",
                   help="exam kernel submissions on the exam queue (its sweep re-sends them once the exam queue "
                        "has been quiet for EXAM_QUEUED_STALE_S) instead of practice ones")
    args = p.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="wd-redis-loss-"))
    redis = PrivateRedis(workdir)
    redis.start()
    os.environ.update({"CELERY_BROKER_URL": redis.url, "DJANGO_SETTINGS_MODULE": "config.settings",
                       "WARPDRILL_TESTING": "1", "WARPDRILL_BACKEND": "dummy", "WARPDRILL_SUBMISSIONS_PER_MINUTE": "100000"})
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.db import connection
    from django.test.utils import setup_test_environment

    from grader import actions
    from grader.models import Submission
    from problems.models import Problem
    from problems.services import import_bank
    from tests.conftest import database_url_for_worker, worker_env

    setup_test_environment()
    name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    worker = None
    try:
        import_bank(ROOT / "problems" / "bank")
        source = (ROOT / "problems/bank/vector-add-tail/solution.cu").read_text()
        if args.exam:
            pks = exam_submissions(args.submissions, source)
        else:
            user = User.objects.create_user("redis-loss")
            problem = Problem.objects.get(slug="vector-add-tail")
            pks = [actions.create_submission(user, problem, f"// {k}\n{source}").pk for k in range(args.submissions)]
        queue = "exam" if args.exam else "cpu"
        from redis import Redis

        waiting = Redis.from_url(redis.url).llen(queue)
        redis.shutdown_nosave()
        redis.start()
        restarted = time.monotonic()
        lost = args.submissions - Redis.from_url(redis.url).llen(queue)
        env = worker_env(DATABASE_URL=database_url_for_worker(), CELERY_BROKER_URL=redis.url, WARPDRILL_BACKEND="dummy",
                         WARPDRILL_STUCK_AFTER_S=str(args.stuck_after_s),
                         WARPDRILL_SWEEP_EVERY_S=str(args.sweep_every_s))
        cmd = [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", queue, "-c", "2", "--loglevel", "INFO",
               "-n", "redis-loss@%h", "-B", "-s", str(workdir / "beat")]
        worker = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  start_new_session=True)
        first = last = None
        while time.monotonic() - restarted < args.timeout_s:
            graded = Submission.objects.filter(pk__in=pks, status="GRADED").count()
            if graded and first is None:
                first = time.monotonic() - restarted
            if graded == len(pks):
                last = time.monotonic() - restarted
                break
            time.sleep(0.5)
        figures = {"queue": queue, "submissions": args.submissions, "messages_waiting_before": waiting, "messages_lost": lost,
                   "stuck_after_s": args.stuck_after_s, "sweep_every_s": args.sweep_every_s,
                   "first_verdict_s": round(first, 1) if first else None,
                   "all_graded_s": round(last, 1) if last else None,
                   "graded": Submission.objects.filter(pk__in=pks, status="GRADED").count()}
    finally:
        if worker is not None:
            os.killpg(worker.pid, signal.SIGTERM)
            worker.wait(30)
        connection.creation.destroy_test_db(name, verbosity=0)
        redis.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"{queue}: {figures['messages_lost']} of {figures['submissions']} messages lost with Redis; first verdict after "
          f"{figures['first_verdict_s']} s, all graded after {figures['all_graded_s']} s "
          f"(stuck after {args.stuck_after_s} s, sweep every {args.sweep_every_s} s)")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
