"""gunicorn under a flood of conditional verdict polls (304s): web CPU per request and latency, per worker setup.

Usage (from the repository root; PostgreSQL and Redis running, as for bench/load_test.py):

    .venv/bin/python bench/poll_flood.py                                  # sync 2, sync 4, gthread 2x4, gthread 1x8
    .venv/bin/python bench/poll_flood.py --configs 4x1,1x8 --rate 300 --requests 3000 --rounds 2

What the exam-start burst's web tier mostly does (bench/load_test.py --ramp-s 120 --poll-etag: 97 % of
its requests are 304 polls) without the rest of that run: one student, one queued submission, and
--rate polls a second sent open-loop (each at its time, whatever the answers before it), each a
conditional GET with the submission's ETag on a new connection, as load_test.py's clients send them.
Each config WxT (W gunicorn processes; T = 1: sync workers, T > 1: gthread workers of T threads) is
started in turn, production settings, on a database of its own (--database-url, reset) and the live
cache in Redis (--broker); --rounds repeats the configs alternating, so a neighbour's load falls on
every config. Figures per run: the web processes' CPU (user + system, from /proc) and this script's
per request, and the latency p50/p95. The last line is JSON.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load_test as lt  # noqa: E402  (the stack: database, gunicorn, the HTTP client)
import procs  # noqa: E402


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--configs", default="2x1,4x1,2x4,1x8", help="gunicorn setups WORKERSxTHREADS, comma-separated")
    p.add_argument("--rate", type=float, default=300.0, help="polls a second (300 students polling every second)")
    p.add_argument("--requests", type=int, default=3000, help="polls per run")
    p.add_argument("--rounds", type=int, default=1)
    p.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/warpdrill_flood")
    p.add_argument("--broker", default="redis://127.0.0.1:6379/13")
    return p.parse_args()


async def flood(http: lt.Http, path: str, headers: dict, rate: float, n: int) -> None:
    """Send n GETs of `path`, the i-th at i / rate seconds from now, without waiting for earlier answers."""
    async def one(i: int) -> None:
        await asyncio.sleep(i / rate)
        await http.request("poll", "GET", path, headers)

    await asyncio.gather(*(one(i) for i in range(n)))


def run_config(args, env, workers: int, threads: int, path: str, token: dict, logdir: Path) -> dict:
    """Start gunicorn as WORKERSxTHREADS, check that a poll with the ETag is a 304, flood it, stop it."""
    port = lt.free_port()
    web, kind = lt.start_web(argparse.Namespace(web_workers=workers, web_threads=threads), env, port, logdir)
    rec = lt.Recorder()
    http = lt.Http(port, rec)
    try:
        lt.wait_for(lambda: asyncio.run(http.request("up", "GET", path, token))[0] == 200, 60, "the web server")
        etag = lt.header(asyncio.run(http.request("up", "GET", path, token))[2], "ETag")
        polls = {**token, "If-None-Match": etag}
        if asyncio.run(http.request("up", "GET", path, polls))[0] != 304:
            raise SystemExit("a poll with the ETag was not answered 304")
        pids = [web.proc.pid, *procs.children_of(web.proc.pid)]
        rec.samples.clear()
        web0, own0, t0 = procs.cpu_seconds(pids), time.process_time(), time.monotonic()
        asyncio.run(flood(http, path, polls, args.rate, args.requests))
        web_s, own_s, wall = procs.cpu_seconds(pids) - web0, time.process_time() - own0, time.monotonic() - t0
    finally:
        web.stop()
    seconds = [s.seconds for s in rec.samples]
    return {"config": f"{workers}x{threads}", "web": kind, "answered_per_s": round(len(seconds) / wall, 1),
            "not_304": sum(1 for s in rec.samples if s.status != 304),
            "web_cpu_ms_per_request": round(web_s / len(seconds) * 1000, 2),
            "client_cpu_ms_per_request": round(own_s / len(seconds) * 1000, 2),
            "p50_ms": round(lt.pct(seconds, 50) * 1000, 1), "p95_ms": round(lt.pct(seconds, 95) * 1000, 1),
            "load_1min_after": round(os.getloadavg()[0], 2)}


def main() -> int:
    args = parse_args()
    configs = [tuple(int(x) for x in c.split("x")) for c in args.configs.split(",")]
    logdir = Path(tempfile.mkdtemp(prefix="warpdrill-flood-"))
    env = lt.stack_env(argparse.Namespace(database_url=args.database_url, broker=args.broker), logdir / "cache")
    lt.reset_database(args.database_url)
    lt.flush_broker(args.broker)
    lt.prepare_stack(env)
    from django.contrib.auth.models import User
    from grader import live
    from grader.models import Submission
    from problems.models import ProblemVersion

    student = lt.create_students(1, prefix="flood")[0]
    version = ProblemVersion.objects.filter(problem__slug="vector-add-tail").order_by("-pk").first()
    sub = Submission.objects.create(user=User.objects.get(username=student.username), problem_version=version,
                                    source="// flood", status="QUEUED")
    live.publish(sub.pk)
    token = {"Authorization": f"Token {student.token}", "Accept": "application/json"}
    print(f"{args.requests} polls at {args.rate:g}/s per run; load average before {os.getloadavg()[0]:.2f}")
    print(f"{'config':8} {'web':42} {'per s':>6} {'web CPU ms':>10} {'client ms':>9} {'p50 ms':>7} {'p95 ms':>8} {'load':>5}")
    runs = []
    for _ in range(args.rounds):
        for workers, threads in configs:
            r = run_config(args, env, workers, threads, f"/api/v1/submissions/{sub.pk}", token, logdir)
            runs.append(r)
            print(f"{r['config']:8} {r['web']:42} {r['answered_per_s']:6.1f} {r['web_cpu_ms_per_request']:10.2f} "
                  f"{r['client_cpu_ms_per_request']:9.2f} {r['p50_ms']:7.1f} {r['p95_ms']:8.1f} {r['load_1min_after']:5.2f}",
                  flush=True)
    print(json.dumps({"rate": args.rate, "requests": args.requests, "cpus": os.cpu_count(), "runs": runs}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
