"""Throughput breaking point: raise an exam room's students step by step until a limit breaks, and name it.

Usage (from the repository root; PostgreSQL and Redis running, as .ci/run starts them):

    .venv/bin/python bench/breaking_point.py                       # 50, 100, 200 ... 1,600 students, 60 s a step
    .venv/bin/python bench/breaking_point.py --kernels-per-min 0   # autosaves and clock polls only: the web's limit
    .venv/bin/python bench/breaking_point.py --start 20 --max-students 40 --step-s 20   # a quick check

Not part of the test suite (it takes minutes); its step logic is bench/breaking_steps.py, tested in
tests/bench. What it starts, all on this machine (bench/load_test.py's stack): a fresh PostgreSQL
database (--database-url), the bank imported, gunicorn (--web-workers sync workers, with compose's web
settings: DB_POOL=true, DB_POOL_MAX_SIZE --db-pool-max-size), one Celery worker on the `exam` queue
(--grading-concurrency processes at niceness --worker-nice, with beat) on Redis database --broker
(flushed first; refused when another client uses it), and one exam (bench/exam_load.py's template)
scheduled for --max-students students, whose variants the worker draws ahead.

Each step holds `students` simulated students for --step-s seconds; the students of a step stay in
the next. A student joins before the step's clock starts (POST Start, GET the attempt page; not
measured), then does what the attempt page does: autosaves one answer every --save-every-s seconds
(±20 %), polls the clock every --state-every-s, and submits the exam's kernel item at random
moments, --kernels-per-min per student on average (the model's rush: 2 kernels in 30 minutes × 3),
at most twice. Per step: web p50/p95 (every request), 5xx, 4xx, unanswered and refused requests, the
grading backlog (exam submissions not yet graded, sampled every 3 s) and its growth, the broker's
queue depth, grading latency (created to verdict; for a kernel still waiting at the step's end, its
age so far, a lower bound), the causes named in the web's and worker's logs, the load average and
this script's own CPU. The run stops at the first step where a limit breaks (bench/breaking_steps.py:
p95 over --p95-ms, errors over 1 %, a backlog growing without bound, a refused connection) and names
it. A table is printed; the last line is JSON.
"""
from __future__ import annotations

import argparse
import asyncio
import html
import json
import os
import random
import re
import secrets
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import exam_load  # noqa: E402  (the exam, its template, the students' browser)
import load_test as lt  # noqa: E402  (the stack: database, broker, gunicorn, worker, HTTP client)
from procs import children_of, cpu_seconds  # noqa: E402
from breaking_steps import Limit, StepFigures, Thresholds, judge_step, log_causes, next_load, slope_per_min  # noqa: E402

PY = lt.PY
MAX_KERNELS = 2  # per student: the model's k, under the exam item's three attempts


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--start", type=int, default=50, help="students in the first step")
    p.add_argument("--factor", type=float, default=2.0, help="each step has this many times the last one's students")
    p.add_argument("--max-students", type=int, default=1600)
    p.add_argument("--step-s", type=float, default=60.0, help="how long each step is held, seconds")
    p.add_argument("--save-every-s", type=float, default=15.0)
    p.add_argument("--state-every-s", type=float, default=30.0)
    p.add_argument("--kernels-per-min", type=float, default=0.2, help="kernel submissions per student per minute")
    p.add_argument("--p95-ms", type=float, default=1000.0)
    p.add_argument("--timeout-s", type=float, default=30.0, help="a request unanswered this long counts as failed")
    p.add_argument("--web-workers", type=int, default=4)
    p.add_argument("--db-pool-max-size", type=int, default=2)
    p.add_argument("--grading-concurrency", type=int, default=2)
    p.add_argument("--worker-nice", type=int, default=10)
    p.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/wd_breaking")
    p.add_argument("--broker", default="redis://127.0.0.1:6379/6")
    p.add_argument("--seed", type=int, default=1)
    return p.parse_args()


class Room:
    """The exam's students in the stack: their browsers, their step of the run, what they measured."""

    def __init__(self, args, http: lt.Http, exam_id: int, kernel_source: str):
        self.args, self.http, self.exam_id, self.kernel_source = args, http, exam_id, kernel_source
        self.rng = random.Random(args.seed)
        self.tasks: list[asyncio.Task] = []

    async def join(self, student: lt.Student) -> dict | None:
        """Start the attempt and open its page; the URLs and items the page's script would use."""
        c = exam_load.Client(self.http, student)
        status, _, head = await c.post_form("start", f"/exams/{self.exam_id}/start/", {})
        if status != 302:
            return None
        _, page, _ = await c.get("attempt page", f"/exams/{self.exam_id}/attempt/")
        urls = dict(re.findall(rb'data-(save|state)-url="([^"]+)"', page or b""))
        items = await asyncio.to_thread(exam_load.attempt_items, student.username, self.exam_id)
        if not urls.get(b"save") or not items:
            return None
        return {"client": c, "save": html.unescape(urls[b"save"].decode()),
                "state": html.unescape(urls.get(b"state", b"").decode()),
                "questions": [i for i in items if i["kind"] == "question"],
                "kernel": next((i for i in items if i["kind"] == "kernel"), None)}

    async def add(self, students: list[lt.Student], concurrency: int = 8) -> int:
        """Join `students` (at most `concurrency` at once) and start their loops; how many joined."""
        gate = asyncio.Semaphore(concurrency)

        async def one(s):
            async with gate:
                return await self.join(s)

        joined = [j for j in await asyncio.gather(*(one(s) for s in students)) if j]
        for j in joined:
            self.tasks.append(asyncio.create_task(self.live(j, random.Random(self.rng.random()))))
        return len(joined)

    async def live(self, j: dict, rng: random.Random) -> None:
        """One student's page until cancelled: autosaves, clock polls and (at most MAX_KERNELS) kernels."""
        a, c = self.args, j["client"]
        now = time.monotonic()
        due = {"save": now + rng.uniform(0, a.save_every_s), "state": now + rng.uniform(0, a.state_every_s),
               "kernel": now + rng.expovariate(a.kernels_per_min / 60) if a.kernels_per_min > 0 and j["kernel"]
               else float("inf")}
        kernels = 0
        while True:
            what = min(due, key=due.get)
            await asyncio.sleep(max(0.0, due[what] - time.monotonic()))
            if what == "save" and j["questions"]:
                item = rng.choice(j["questions"])
                answers = {f: str(rng.randint(0, 100000)) for f in item["fields"]}
                await c.post_json("autosave", j["save"], {"answers": {item["key"]: answers}})
                due["save"] = time.monotonic() + a.save_every_s * rng.uniform(0.8, 1.2)
            elif what == "state" and j["state"]:
                await c.get("clock poll", j["state"])
                due["state"] = time.monotonic() + a.state_every_s * rng.uniform(0.9, 1.1)
            elif what == "kernel":
                source = f"// {c.student.username} {secrets.token_hex(4)}\n{self.kernel_source}"
                await c.post_form("kernel submit", f"/exams/{self.exam_id}/attempt/kernel/{j['kernel']['number']}/",
                                  {"source": source})
                kernels += 1
                due["kernel"] = (time.monotonic() + rng.expovariate(a.kernels_per_min / 60)
                                 if kernels < MAX_KERNELS else float("inf"))
            else:
                due[what] = float("inf")

    async def stop(self) -> None:
        for t in self.tasks:
            t.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


def backlog(exam_id: int) -> int:
    """Exam kernel submissions not yet graded (queued, retrying or being graded)."""
    from django.db import connection

    from grader.models import Submission

    try:
        return Submission.objects.filter(exam_item__attempt__exam_id=exam_id).exclude(status="GRADED").count()
    finally:
        connection.close()


def broker_depth(client) -> int:
    """Messages waiting in the broker's `exam` lists (Celery's priority lists included)."""
    return sum(client.llen(k) for k in client.scan_iter(match="exam*") if client.type(k) == b"list")


def grading_latency(exam_id: int, since, until) -> list[float]:
    """Seconds from submission to verdict of the exam's kernels created in [since, until); a kernel
    not graded by `until` counts its age at `until` (a lower bound)."""
    from django.db import connection

    from grader.models import Submission

    try:
        rows = Submission.objects.filter(exam_item__attempt__exam_id=exam_id, created_at__gte=since,
                                         created_at__lt=until).values_list("created_at", "finished_at")
        return [((done if done and done <= until else until) - made).total_seconds() for made, done in rows]
    finally:
        connection.close()


class LogTail:
    """What a service's log gained since the last call."""

    def __init__(self, service: lt.Service):
        self.service, self.offset = service, 0

    def new(self) -> str:
        with self.service.log.open("rb") as f:
            f.seek(self.offset)
            data = f.read()
        self.offset += len(data)
        return data.decode(errors="replace")


async def measure_step(args, room: Room, rec: lt.Recorder, exam_id: int, broker, logs: list[LogTail],
                       web_pids: list[int]) -> dict:
    """Hold the room for --step-s seconds; the step's StepFigures and the figures around them
    (`web_pids`: the gunicorn workers, whose CPU seconds are counted)."""
    from django.utils import timezone

    for tail in logs:
        tail.new()  # skip what was logged before the step (the joins)
    first_sample, first_failure = len(rec.samples), len(rec.failures)
    since, t0, cpu0, web0 = timezone.now(), time.monotonic(), time.process_time(), cpu_seconds(web_pids)
    depth: list[tuple[float, int]] = []
    queued: list[int] = []
    while time.monotonic() - t0 < args.step_s:
        depth.append((round(time.monotonic() - t0, 1), await asyncio.to_thread(backlog, exam_id)))
        queued.append(await asyncio.to_thread(broker_depth, broker))
        await asyncio.sleep(max(0.0, min(3.0, args.step_s - (time.monotonic() - t0))))
    depth.append((round(time.monotonic() - t0, 1), await asyncio.to_thread(backlog, exam_id)))
    wall, cpu, web_cpu = time.monotonic() - t0, time.process_time() - cpu0, cpu_seconds(web_pids) - web0
    samples, failures = rec.samples[first_sample:], rec.failures[first_failure:]
    ms = [s.seconds * 1000 for s in samples]
    causes = log_causes("\n".join(tail.new() for tail in logs))
    latency = await asyncio.to_thread(grading_latency, exam_id, since, timezone.now())
    fig = StepFigures(students=len(room.tasks), requests=len(samples), web_p50_ms=lt.pct(ms, 50),
                      web_p95_ms=lt.pct(ms, 95), status_5xx=sum(1 for s in samples if s.status >= 500),
                      status_4xx=sum(1 for s in samples if 400 <= s.status < 500),
                      refused=sum(1 for f in failures if "ConnectionRefused" in f or "ConnectionReset" in f),
                      backlog=depth, log_causes=causes)
    fig.no_answer = sum(1 for s in samples if s.status == 0) - fig.refused
    kinds = sorted({s.kind for s in samples})
    p95_by_kind = {k: round(lt.pct([s.seconds * 1000 for s in samples if s.kind == k], 95)) for k in kinds}
    return {"fig": fig, "requests_per_s": round(len(samples) / wall, 1), "p95_ms_by_kind": p95_by_kind,
            "kernels": len(latency), "grading_s": lt.summary(latency, 1, 1),
            "backlog_growth_per_min": round(slope_per_min(depth), 1), "broker_depth_max": max(queued, default=0),
            "load_avg_1m": round(os.getloadavg()[0], 1), "client_cpu_share": round(cpu / wall, 2),
            # The web workers' CPU: cores they got, and CPU ms per request (what carries to another machine).
            "web_cpu_cores": round(web_cpu / wall, 2),
            "web_cpu_ms_per_request": round(1000 * web_cpu / len(samples), 1) if samples else None,
            "failures": failures[:3]}


def healthy(port: int) -> bool:
    """Whether the web answers /healthz with 200."""
    import urllib.request

    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as r:
            return r.status == 200
    except OSError:
        return False


def row(step: dict) -> dict:
    """The step as the JSON line and the table give it."""
    fig: StepFigures = step["fig"]
    out = {"students": fig.students, "requests": fig.requests, "requests_per_s": step["requests_per_s"],
           "web_p50_ms": round(fig.web_p50_ms or 0), "web_p95_ms": round(fig.web_p95_ms or 0),
           "p95_ms_by_kind": step["p95_ms_by_kind"], "error_rate": round(fig.error_rate, 4),
           "status_5xx": fig.status_5xx, "status_4xx": fig.status_4xx, "no_answer": fig.no_answer,
           "refused": fig.refused, "backlog_end": fig.backlog[-1][1] if fig.backlog else None,
           "log_causes": {k.value: n for k, n in fig.log_causes.items()}}
    out.update({k: step[k] for k in ("kernels", "grading_s", "backlog_growth_per_min", "broker_depth_max",
                                     "load_avg_1m", "client_cpu_share", "web_cpu_cores",
                                     "web_cpu_ms_per_request", "failures")})
    out["broke"] = [{"limit": b.limit.value, "why": b.why} for b in step["verdict"].breaches]
    return out


def print_row(r: dict) -> None:
    g = r["grading_s"]
    print(f"{r['students']:>6} {r['requests_per_s']:>7} {r['web_p50_ms']:>6} {r['web_p95_ms']:>7} {r['error_rate']:>7.2%} "
          f"{r['kernels']:>5} {g.get('p50', '-'):>6} {g.get('p95', '-'):>6} {r['backlog_end']:>5} "
          f"{r['backlog_growth_per_min']:>7} {r['load_avg_1m']:>5} {r['client_cpu_share']:>5} {r['web_cpu_cores']:>5} "
          f"{r['web_cpu_ms_per_request']:>6}  "
          f"{'; '.join(b['limit'] for b in r['broke']) or 'ok'}  p95 by kind {r['p95_ms_by_kind']}", flush=True)


def main() -> int:
    args = parse_args()
    background, t_setup = os.getloadavg(), time.monotonic()
    logdir = Path(tempfile.mkdtemp(prefix="warpdrill-breaking-"))
    env = lt.stack_env(args, logdir / "cache")
    web_env = {**env, "DB_POOL": "true", "DB_POOL_MAX_SIZE": str(args.db_pool_max_size)}  # as compose's web
    print(f"logs in {logdir}", flush=True)
    lt.reset_database(args.database_url)
    lt.flush_broker(args.broker)
    lt.prepare_stack(env)
    import redis

    from exams.models import ExamDraw
    from grader.models import Submission

    exam, students, warm = exam_load.setup_exam(args.max_students)
    kernel_source = (lt.BANK / exam_load.KERNEL_SLUG / "solution.cu").read_text()
    port = lt.free_port()
    web, web_kind = lt.start_web(args, web_env, port, logdir)
    worker = lt.Service("worker", [PY, "-m", "celery", "-A", "config", "worker", "-Q", "exam", "-c",
                                   str(args.grading_concurrency), "-B", "-s", str(logdir / "beat-schedule"),
                                   "--loglevel", "INFO", "-n", "breaking@%h", "--without-gossip", "--without-mingle",
                                   "--without-heartbeat"], env, logdir, nice=args.worker_nice)
    services = [web, worker]
    steps: list[dict] = []
    setup_s = None
    th = Thresholds(p95_ms=args.p95_ms)
    try:
        lt.wait_for(lambda: " ready." in worker.output(), 900, "the Celery worker")
        lt.wait_for(lambda: ExamDraw.objects.filter(exam=exam).count() >= args.max_students + 1, 600,
                    "the variants drawn ahead")
        rec = lt.Recorder()
        http = lt.Http(port, rec, timeout=args.timeout_s)

        lt.wait_for(lambda: healthy(port), 120, "gunicorn")

        async def warm_up():  # one kernel graded before the clock (builds the emulator runtime)
            j = await Room(args, http, exam.pk, kernel_source).join(warm)
            await j["client"].post_form("warm-up", f"/exams/{exam.pk}/attempt/kernel/{j['kernel']['number']}/",
                                        {"source": kernel_source})

        asyncio.run(warm_up())
        lt.wait_for(lambda: Submission.objects.filter(user__username=warm.username, status="GRADED").exists(), 900,
                    "the warm-up kernel's verdict")
        Submission.objects.filter(user__username=warm.username).update(exam_item=None)
        setup_s = round(time.monotonic() - t_setup)
        print(f"set up in {setup_s} s; web: {web_kind}, DB_POOL_MAX_SIZE {args.db_pool_max_size}; grading: {args.grading_concurrency} "
              f"process(es), nice {args.worker_nice}; {args.step_s:g} s a step; load average before "
              f"{background[0]:.1f}", flush=True)
        print(f"{'studs':>6} {'req/s':>7} {'p50ms':>6} {'p95ms':>7} {'errors':>7} {'kern':>5} {'gr50s':>6} "
              f"{'gr95s':>6} {'backl':>5} {'grow/m':>7} {'load':>5} {'cpu':>5} {'webc':>5} {'ms/req':>6}  broke")
        broker = redis.Redis.from_url(args.broker)

        async def run() -> None:
            rec.samples.clear()
            rec.failures.clear()
            room = Room(args, http, exam.pk, kernel_source)
            logs = [LogTail(web), LogTail(worker)]
            web_pids = children_of(web.proc.pid)
            n = args.start
            try:
                while n is not None:
                    t_join = time.monotonic()
                    joined = await room.add(students[len(room.tasks):n])
                    join_s = round(time.monotonic() - t_join, 1)
                    step = await measure_step(args, room, rec, exam.pk, broker, logs, web_pids)
                    step.update(verdict=judge_step(step["fig"], th), join_s=join_s, joined=joined)
                    steps.append(step)
                    print_row(row(step))
                    if step["verdict"].broken:
                        break
                    n = next_load(n, args.factor, args.max_students)
            finally:
                await room.stop()

        asyncio.run(run())
    finally:
        for s in services:
            s.stop()
    rows = [{**row(s), "join_s": s["join_s"]} for s in steps]
    broken = steps[-1]["verdict"].first if steps and steps[-1]["verdict"].broken else None
    last_good = next((r["students"] for r in reversed(rows) if not r["broke"]), None)
    if broken:
        print(f"\nfirst limit: {broken.limit.value} at {rows[-1]['students']} students: {broken.why} "
              f"(last step within the limits: {last_good} students)")
    else:
        print(f"\nnothing broke up to {rows[-1]['students'] if rows else 0} students")
    result = {"steps": rows, "first_limit": broken.limit.value if broken else None, "why": broken.why if broken else None,
              "broke_at_students": rows[-1]["students"] if broken else None, "last_good_students": last_good,
              "thresholds": asdict(th), "limits": [m.value for m in Limit],
              "config": {k: getattr(args, k) for k in ("start", "factor", "max_students", "step_s", "save_every_s",
                                                      "state_every_s", "kernels_per_min", "web_workers",
                                                      "db_pool_max_size", "grading_concurrency", "worker_nice")},
              "web": web_kind, "setup_s": setup_s, "machine": {"cores": os.cpu_count(), "load_avg_before_1_5_15": [round(x, 1) for x in background]}}
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
