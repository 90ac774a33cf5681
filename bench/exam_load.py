"""Exam load: a room of students start the same exam, autosave, some submit a kernel, then all submit.

Usage (from the repository root; PostgreSQL and Redis running, as .ci/run starts them):

    .venv/bin/python bench/exam_load.py                    # 300 students, start within 60 s, 10 minutes of saves
    .venv/bin/python bench/exam_load.py --minutes 2        # the same with 2 minutes of saves
    .venv/bin/python bench/exam_load.py --students 30 --minutes 1 --start-s 10   # a quick check
    .venv/bin/python bench/exam_load.py --short            # 50 students, start within 15 s, 1 minute of saves

Not part of the test suite (it is not under tests/ and takes minutes). What it starts, all on this
machine (bench/load_test.py's stack, whose helpers it uses): a fresh PostgreSQL database
(--database-url), the bank imported, gunicorn (--web-workers) with production settings, and one Celery
worker on the `exam` queue only (--grading-concurrency processes, with beat for the exam sweeps), on
the emulator and its own Redis database (--broker, flushed first). One warm-up student starts the
exam and has a kernel graded before the clock starts (it builds the emulator runtime).

Scheduling the exam queues the drawing of every student's variant ahead of Start (exams.drawing);
the clock starts once the worker has stored them. Each student behaves as the exam page makes a browser
behave (static/js/exam.js, templates/exams/_kernel_submission.html):

- starts within the first --start-s seconds (POST Start, then GET the attempt page);
- every --save-every-s seconds changes one answer and autosaves it (the page's JSON POST to its signed
  save URL) for --minutes;
- from the attempt page on, polls the exam's state URL (the page's signed clock resync) every
  --state-poll-s seconds until they submit;
- exactly --kernel-share of the students (drawn with rng.sample) submit the exam's kernel item once at
  a random moment (the right solution), follow the redirect to the kernel page and poll their
  submission's live row as htmx does (at the interval the row names: the practice page's schedule,
  grader.views.live_poll_interval, a quarter second while young; revalidating with the last ETag, so
  an unchanged row is a 304) until it shows the verdict;
- then every student submits.

Measured: latency of Start, of the attempt page, of every autosave, of the state and live-row polls
(and how many of the latter were 304s); kernel submit-to-verdict on the exam queue (from the database)
and submit-to-verdict as the page shows it (the poll that first saw GRADED); errors; and answers lost:
for every (student, question, field), the value of the last autosave the server acknowledged, compared
with the value stored after the exam closed (must be 0). A table is printed; the last line is JSON.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load_test as lt  # noqa: E402  (the stack: database, broker, gunicorn, worker, HTTP client)
from exam_clients import Client, page_url, poll_state, watch_kernel  # noqa: E402

ROOT = lt.ROOT
PY = lt.PY
KERNEL_SLUG = "vector-add-tail"


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--students", type=int, default=300)
    p.add_argument("--start-s", type=float, default=60.0, help="students press Start uniformly within this many seconds")
    p.add_argument("--minutes", type=float, default=10.0, help="how long students keep autosaving")
    p.add_argument("--save-every-s", type=float, default=15.0)
    p.add_argument("--kernel-share", type=float, default=0.2,
                   help="share of students who submit the kernel item (exactly round(share * students) of them)")
    p.add_argument("--state-poll-s", type=float, default=30.0,
                   help="the attempt page's clock resync period (exam.js: data-sync-ms, 30 s)")
    p.add_argument("--web-workers", type=int, default=4)
    p.add_argument("--grading-concurrency", type=int, default=2)
    p.add_argument("--worker-nice", type=int, default=10)
    p.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/wd_exams_load")
    p.add_argument("--broker", default="redis://127.0.0.1:6379/11")
    p.add_argument("--drain-timeout-s", type=float, default=900.0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--short", action="store_true",
                   help="a check on a shared machine: 50 students starting within 15 s, 1 minute of saves")
    args = p.parse_args()
    if args.short:
        args.students, args.start_s, args.minutes = 50, 15.0, 1.0
    return args


TEMPLATE = {
    "title": {"en": "Load midterm"},
    "zones": [
        {"title": "Occupancy", "choose": 2, "points": 5,
         "pool": ["occupancy.blocks_per_sm", "occupancy.limiter", "occupancy.register_budget"]},
        {"title": "Indexing", "choose": 3, "points": 3,
         "pool": ["indexing.global_index", "indexing.warp_lane", "indexing.grid_dims", "indexing.inverse"]},
        {"title": "Synchronization", "choose": 1, "points": 5,
         "pool": ["synchronization.classify", "synchronization.syncwarp_mask"]},
        {"title": "Kernel", "pool": [{"kernel": KERNEL_SLUG, "attempt_points": [10, 7, 5]}]},
    ],
}


def setup_exam(n: int):
    """The course, its instructor, n + 1 students (the last one warms up), the exam open now."""
    from django.utils import timezone

    from courses.models import Course, Membership
    from django.contrib.auth.models import User
    from exams.actions.scheduling import save_template, schedule_exam

    students = lt.create_students(n + 1, prefix="exam")
    course = Course.objects.create(name="Load course", code="LOAD-1")
    ivy = User.objects.create_user("load-ivy", password="load-test-pass")
    Membership.objects.create(course=course, user=ivy, role="instructor")
    users = {u.username: u for u in User.objects.filter(username__startswith="exam-")}
    Membership.objects.bulk_create([Membership(course=course, user=users[s.username], role="student")
                                    for s in students])
    template = save_template(course, ivy, TEMPLATE)
    now = timezone.now()
    exam = schedule_exam(course, template, opens_at=now - timedelta(minutes=1),
                         closes_at=now + timedelta(hours=3), duration_minutes=120)
    return exam, students[:n], students[n]


def attempt_items(username: str, exam_id: int) -> list[dict]:
    """The student's drawn items as the page shows them (read from the database: what the page has)."""
    from exams.models import ExamItem

    return [{"key": i.key, "number": i.number, "kind": i.kind,
             "fields": [f["name"] for f in i.data["question"]["fields"]] if i.kind == "question" else []}
            for i in ExamItem.objects.filter(attempt__exam_id=exam_id, attempt__user__username=username)]


def random_answer(rng: random.Random) -> str:
    return str(rng.randint(0, 100000))


async def run_student(student: lt.Student, exam_id: int, args, http: lt.Http, rng: random.Random,
                      acked: dict, sent: dict, kernel_source: str, t0: float, items_for, takes_kernel: bool,
                      verdicts_seen: list[float]):
    c = Client(http, student)
    await asyncio.sleep(rng.uniform(0, args.start_s))
    status, _, head = await c.post_form("start", f"/exams/{exam_id}/start/", {})
    if status != 302 or f"/exams/{exam_id}/attempt/".encode() not in head:
        http.rec.failures.append(f"{student.username}: start gave {status}")
        return
    _, page, _ = await c.get("attempt page", f"/exams/{exam_id}/attempt/")
    # Autosave and resync where the page does: its URLs are signed for this session (exams.clock).
    save_url = page_url(page, "save-url", f"/exams/{exam_id}/attempt/save/")
    state_url = page_url(page, "state-url", f"/exams/{exam_id}/attempt/state/")
    submitted = asyncio.Event()
    state_poller = asyncio.create_task(poll_state(c, state_url, args.state_poll_s, submitted))
    items = await asyncio.to_thread(items_for, student.username, exam_id)
    questions = [i for i in items if i["kind"] == "question"]
    kernel = next((i for i in items if i["kind"] == "kernel"), None)
    saves_until = t0 + args.start_s + args.minutes * 60
    kernel_at = rng.uniform(time.monotonic(), saves_until) if takes_kernel else None
    watcher = None
    while time.monotonic() < saves_until:
        await asyncio.sleep(args.save_every_s * rng.uniform(0.8, 1.2))
        item = rng.choice(questions)
        field = rng.choice(item["fields"])
        value = random_answer(rng)
        key = (student.username, item["key"], field)
        sent[key] = value
        status, payload, _ = await c.post_json("autosave", save_url,
                                               {"answers": {item["key"]: {
                                                   **{f: acked.get((student.username, item["key"], f), "")
                                                      for f in item["fields"]}, field: value}}})
        if status == 200:
            acked[key] = value
        if kernel_at is not None and kernel and time.monotonic() >= kernel_at:
            # A unique comment: every submission is compiled (no compile-cache hits), as in load_test.py.
            source = f"// {student.username} {secrets.token_hex(4)}\n{kernel_source}"
            kernel_url = f"/exams/{exam_id}/attempt/kernel/{kernel['number']}/"
            submitted_at = time.monotonic()
            status, _, _ = await c.post_form("kernel submit", kernel_url, {"source": source})
            if status != 302:
                http.rec.failures.append(f"{student.username}: kernel submit gave {status}")
            else:  # the browser follows the redirect to the kernel page, whose row then polls
                _, kernel_page, _ = await c.get("kernel page", kernel_url)
                watcher = asyncio.create_task(watch_kernel(c, kernel_page, submitted_at,
                                                           submitted_at + args.drain_timeout_s, verdicts_seen))
            kernel_at = None
    await c.post_form("submit", f"/exams/{exam_id}/attempt/submit/", {})
    submitted.set()
    await state_poller
    if watcher is not None:
        await watcher


def lost_answers(exam_id: int, acked: dict) -> list[str]:
    from exams.models import ExamItem

    stored = {(i.attempt.user.username, i.key): i.answer
              for i in ExamItem.objects.filter(attempt__exam_id=exam_id).select_related("attempt__user")}
    return [f"{u} {k} {f}: sent {v!r}, stored {stored.get((u, k), {}).get(f)!r}"
            for (u, k, f), v in acked.items() if stored.get((u, k), {}).get(f) != v]


def kernel_figures(exam_id: int) -> list[dict]:
    from grader.models import Submission

    return [{"pk": r["pk"], "status": r["status"], "verdict": r["verdict"],
             "to_verdict_s": (r["finished_at"] - r["created_at"]).total_seconds() if r["finished_at"] else None,
             "queue_wait_s": (r["started_at"] - r["queued_at"]).total_seconds()
             if r["started_at"] and r["queued_at"] else None,
             # One grader process's time on it (claim to verdict): what sizes the exam's workers.
             "grading_s": (r["finished_at"] - r["started_at"]).total_seconds()
             if r["finished_at"] and r["started_at"] else None}
            for r in Submission.objects.filter(exam_item__attempt__exam_id=exam_id).values(
                "pk", "status", "verdict", "created_at", "queued_at", "started_at", "finished_at")]


def main() -> int:
    args = parse_args()
    rng = random.Random(args.seed)
    background_load = os.getloadavg()
    logdir = Path(tempfile.mkdtemp(prefix="warpdrill-exam-load-"))
    # The emulator's runtime build is reused from an earlier run's cache when there is one (minutes on a
    # busy machine); submissions still compile afresh (each source is unique).
    shared = ROOT / "var" / "cache-tests"
    env = lt.stack_env(args, shared if (shared / "emulator").is_dir() else logdir / "cache")
    print(f"logs in {logdir}", flush=True)
    lt.reset_database(args.database_url)
    lt.flush_broker(args.broker)
    lt.prepare_stack(env)
    from grader.models import Submission

    exam, students, warm = setup_exam(args.students)
    kernel_source = (lt.BANK / KERNEL_SLUG / "solution.cu").read_text()
    port = lt.free_port()
    web, web_kind = lt.start_web(args, env, port, logdir)
    worker = lt.Service("worker", [PY, "-m", "celery", "-A", "config", "worker", "-Q", "exam", "-c",
                                   str(args.grading_concurrency), "-B", "-s", str(logdir / "beat-schedule"),
                                   "--loglevel", "INFO", "-n", "exam-load@%h", "--without-gossip", "--without-mingle",
                                   "--without-heartbeat"], env, logdir, nice=args.worker_nice)
    services = [web, worker]
    try:
        lt.wait_for(lambda: " ready." in worker.output(), 300, "the Celery worker")
        rec = lt.Recorder()
        http = lt.Http(port, rec)

        async def warm_up():
            c = Client(http, warm)
            for _ in range(100):
                status, _, _ = await c.get("warm-up", "/")
                if status == 200:
                    break
                await asyncio.sleep(0.5)
            await c.post_form("warm-up", f"/exams/{exam.pk}/start/", {})
            items = await asyncio.to_thread(attempt_items, warm.username, exam.pk)
            k = next(i for i in items if i["kind"] == "kernel")
            await c.post_form("warm-up", f"/exams/{exam.pk}/attempt/kernel/{k['number']}/", {"source": kernel_source})

        # Scheduling queued the variants' drawing ahead of Start (exams.drawing) for the exam worker.
        from exams.models import ExamDraw

        t_draw = time.monotonic()
        lt.wait_for(lambda: ExamDraw.objects.filter(exam=exam).count() >= args.students + 1, 600,
                    "the variants drawn ahead")
        print(f"variants drawn ahead by the exam worker within {time.monotonic() - t_draw:.1f} s", flush=True)
        asyncio.run(warm_up())
        lt.wait_for(lambda: Submission.objects.filter(user__username=warm.username, status="GRADED").exists(), 600,
                    "the warm-up kernel's verdict")
        Submission.objects.filter(user__username=warm.username).update(exam_item=None)
        print(f"web: {web_kind}; warm-up graded; {args.students} students start within {args.start_s:g} s",
              flush=True)

        rec = lt.Recorder()
        http = lt.Http(port, rec)
        acked: dict = {}
        sent: dict = {}
        verdicts_seen: list[float] = []
        # Exactly the share asked for take the kernel item, drawn without replacement.
        takers = set(rng.sample(range(len(students)), round(args.kernel_share * len(students))))
        t0 = time.monotonic()

        async def room():
            await asyncio.gather(*(run_student(s, exam.pk, args, http, random.Random(rng.random()), acked, sent,
                                               kernel_source, t0, attempt_items, i in takers, verdicts_seen)
                                   for i, s in enumerate(students)))

        asyncio.run(room())
        wall = time.monotonic() - t0
        lt.wait_for(lambda: not Submission.objects.filter(exam_item__attempt__exam=exam).exclude(
            status="GRADED").exists(), args.drain_timeout_s, "every kernel verdict")
        kernels = kernel_figures(exam.pk)
        lost = lost_answers(exam.pk, acked)
        unacked = sum(1 for k, v in sent.items() if acked.get(k) != v)
    finally:
        for s in services:
            s.stop()

    by_kind: dict[str, list[float]] = {}
    errors = [s for s in rec.samples if s.status == 0 or s.status >= 400]
    for s in rec.samples:
        by_kind.setdefault(s.kind, []).append(s.seconds)
    ms = {k: lt.summary(v, 1000, 0) for k, v in by_kind.items()}
    verdicts = [k["to_verdict_s"] for k in kernels if k["to_verdict_s"] is not None]
    kernel_polls = [x for x in rec.samples if x.kind == "kernel poll"]
    grading = [k["grading_s"] for k in kernels if k["grading_s"] is not None]
    mean_grading = sum(grading) / len(grading) if grading else None
    result = {
        "students": args.students, "start_window_s": args.start_s, "minutes": args.minutes, "web": web_kind,
        "grading_concurrency": args.grading_concurrency, "background_load": [round(x, 1) for x in background_load],
        "wall_s": round(wall, 1),
        "start_ms": ms.get("start", {}), "attempt_page_ms": ms.get("attempt page", {}),
        "autosave_ms": ms.get("autosave", {}), "submit_ms": ms.get("submit", {}),
        "kernel_submit_ms": ms.get("kernel submit", {}), "kernel_page_ms": ms.get("kernel page", {}),
        "state_poll_ms": ms.get("state poll", {}), "kernel_poll_ms": ms.get("kernel poll", {}),
        "kernel_polls_304": sum(1 for x in kernel_polls if x.status == 304),
        "kernel_students": len(takers),
        "kernel_verdict_s": lt.summary(verdicts, 1, 1),
        # From the submit POST to the poll that showed GRADED on the kernel page: what the student waits.
        "kernel_verdict_seen_s": lt.summary(verdicts_seen, 1, 1),
        "kernel_grading_s": lt.summary(grading, 1, 1),
        # Verdicts per minute one grading process delivers (60 / its mean time per submission).
        "verdicts_per_worker_per_min": round(60 / mean_grading, 1) if mean_grading else None,
        "kernel_verdicts": sorted({k["verdict"] for k in kernels}),
        "requests": len(rec.samples), "errors": len(errors), "answers_acked": len(acked),
        "answers_lost": len(lost), "saves_not_acknowledged": unacked,
    }
    print()
    print(f"{'what':<16}{'n':>6}{'p50':>9}{'p95':>9}{'max':>9}")
    for name in ("start", "attempt page", "autosave", "state poll", "kernel submit", "kernel page", "kernel poll",
                 "submit"):
        s = ms.get(name)
        if s and s.get("n"):
            print(f"{name:<16}{s['n']:>6}{s['p50']:>7.0f}ms{s['p95']:>7.0f}ms{s['max']:>7.0f}ms")
    for name, key in (("kernel verdict", "kernel_verdict_s"), ("verdict on page", "kernel_verdict_seen_s")):
        kv = result[key]
        if kv.get("n"):
            print(f"{name:<16}{kv['n']:>6}{kv['p50']:>8.1f}s{kv['p95']:>8.1f}s{kv['max']:>8.1f}s")
    print(f"kernel polls answered 304: {result['kernel_polls_304']} of {len(kernel_polls)}; "
          f"{len(takers)} of {args.students} students submitted the kernel")
    print(f"errors {len(errors)}; answers lost {len(lost)} of {len(acked)}; {rec.failures[:5]}")
    for line in lost[:10]:
        print("LOST", line)
    print(json.dumps(result))
    return 0 if not lost else 1


if __name__ == "__main__":
    raise SystemExit(main())
