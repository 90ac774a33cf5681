"""Limits that do not depend on the CPU: connections, file descriptors and Redis memory per process and per task.

Usage (from the repository root; PostgreSQL as .ci/run starts it, redis-server on the PATH):

    .venv/bin/python bench/limits.py                         # 4 web workers, 2 grading processes, 5,000 messages
    .venv/bin/python bench/limits.py --web-workers 2 --messages 1000   # a quicker run

What it starts (bench/load_test.py's stack, with compose's settings): a fresh database on the local
PostgreSQL (--database-url; dropped and created again), the bank imported, gunicorn (--web-workers
sync workers, DB_POOL=true, DB_POOL_MAX_SIZE 2 as docker-compose.yml sets for the web), a Celery
worker on `cpu,exam` (--grading-concurrency processes) and beat as its own process (as compose runs
them), all on a private redis-server (a free port, nothing on disk).

Measured, each process of the stack after it served requests and graded one submission:
- PostgreSQL connections and Redis connections per process (`ss -tnp`: the sockets each pid holds to
  the two ports), open file descriptors (/proc/PID/fd), and the private memory of a PostgreSQL backend
  (Private_* of /proc/PID/smaps_rollup);
- what a student sees when the database refuses connections: the database's CONNECTION LIMIT is set
  to what the stack holds, and a second gunicorn (2 workers) answers --probe-requests requests (status
  codes and seconds): PostgreSQL's per-database limit refuses a connection exactly as max_connections does;
- Redis memory per queued task: --messages grading messages (the real task, as grader.actions sends
  it) to a queue no worker consumes; used_memory before and after, and the bytes of one message.
The last line printed is one JSON object with the figures.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load_test as lt  # noqa: E402  (the stack: database, gunicorn, worker)
from procs import children_of  # noqa: E402
from redis_loss import PrivateRedis  # noqa: E402

ROOT = lt.ROOT
PY = lt.PY


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--web-workers", type=int, default=4)
    p.add_argument("--grading-concurrency", type=int, default=2)
    p.add_argument("--messages", type=int, default=5000, help="grading messages queued for the Redis memory figure")
    p.add_argument("--probe-requests", type=int, default=6)
    p.add_argument("--database-url", default="postgres://wd_limits@127.0.0.1:5432/wd_limits",
                   help="a role that is not a superuser (superusers are exempt from connection limits); created when missing")
    p.add_argument("--admin-url", default="postgres://postgres@127.0.0.1:5432/postgres")
    return p.parse_args()


def sockets_by_pid(port: int) -> Counter:
    """{pid: established TCP connections to 127.0.0.1:port}."""
    out = subprocess.run(["ss", "-tnpH", "state", "established", f"( dport = :{port} )"], capture_output=True,
                         text=True, check=True).stdout
    counts: Counter = Counter()
    for line in out.splitlines():
        for pid in set(re.findall(r"pid=(\d+)", line)):
            counts[int(pid)] += 1
    return counts


def fds(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return -1


def private_kib(pid: int) -> int:
    """Private (clean + dirty) memory of a process, KiB, from smaps_rollup."""
    text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    return sum(int(m) for m in re.findall(r"^Private_\w+:\s+(\d+) kB", text, re.M))


def get(url: str, timeout: float = 30.0) -> tuple[int, float]:
    t = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            r.read()
            return r.status, time.monotonic() - t
    except urllib.error.HTTPError as exc:
        return exc.code, time.monotonic() - t
    except OSError:
        return 0, time.monotonic() - t


def submit(port: int, token: str, source: str) -> int:
    """POST a kernel for vector-add-tail through the API; the new submission's id."""
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/v1/problems/vector-add-tail/submissions",
                                     data=json.dumps({"source": source}).encode(),
                                     headers={"Authorization": f"Token {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as r:
        return json.loads(r.read())["id"]


def wait_status(admin_url: str, db_name: str, pk: int, timeout: float) -> str:
    """The submission's status and verdict once GRADED, or after `timeout` s (read as the superuser,
    whom the database's connection limit does not count)."""
    import psycopg

    deadline = time.monotonic() + timeout
    url = admin_url.rsplit("/", 1)[0] + "/" + db_name
    while True:
        try:
            with psycopg.connect(url, autocommit=True) as conn:
                status, verdict = conn.execute("SELECT status, verdict FROM grader_submission WHERE id = %s", (pk,)).fetchone()
        except psycopg.OperationalError:  # a shared server's passing refusal (its lock table full, seen here)
            status, verdict = "UNKNOWN", ""
        if status == "GRADED" or time.monotonic() > deadline:
            return f"{status} {verdict or ''}".strip()
        time.sleep(1)


def web_service(env, port: int, workers: int, logdir: Path, name: str) -> lt.Service:
    argv = [PY, "-m", "gunicorn", "config.wsgi:application", "--bind", f"127.0.0.1:{port}", "--workers", str(workers),
            "--timeout", "60"]
    return lt.Service(name, argv, env, logdir)


def role_table(roles: dict[str, list[int]], pg_port: int, redis_port: int) -> list[dict]:
    pg, rd = sockets_by_pid(pg_port), sockets_by_pid(redis_port)
    rows = []
    for role, pids in roles.items():
        for pid in pids:
            rows.append({"role": role, "pid": pid, "postgres": pg.get(pid, 0), "redis": rd.get(pid, 0), "fds": fds(pid)})
    return rows


def main() -> int:
    args = parse_args()
    background_load = os.getloadavg()
    logdir = Path(tempfile.mkdtemp(prefix="warpdrill-limits-"))
    redis = PrivateRedis(logdir)
    redis.start()
    env = lt.stack_env(argparse.Namespace(database_url=args.database_url, broker=redis.url), logdir / "cache")
    env["LOG_LEVEL"] = "WARNING"
    web_env = {**env, "DB_POOL": "true", "DB_POOL_MAX_SIZE": "2"}  # as compose: the web pools, workers do not
    db_name = args.database_url.rsplit("/", 1)[1]
    print(f"logs in {logdir}; private Redis on port {redis.port}", flush=True)
    import psycopg

    role = re.match(r"postgres(?:ql)?://([^@:/]+)", args.database_url)[1]
    with psycopg.connect(args.admin_url, autocommit=True) as admin:
        if not admin.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone():
            admin.execute(f'CREATE ROLE "{role}" LOGIN CREATEDB')
    lt.reset_database(args.database_url)
    lt.prepare_stack(env)
    from django.db import connection

    from grader.models import Submission

    port = lt.free_port()
    web = web_service(web_env, port, args.web_workers, logdir, "web")
    worker = lt.Service("worker", [PY, "-m", "celery", "-A", "config", "worker", "-Q", "cpu,exam", "-c",
                                   str(args.grading_concurrency), "--loglevel", "INFO", "-n", "limits@%h",
                                   "--without-gossip", "--without-mingle"], env, logdir)
    beat = lt.Service("beat", [PY, "-m", "celery", "-A", "config", "beat", "-s", str(logdir / "beat-schedule"),
                               "--loglevel", "INFO"], env, logdir)
    services = [web, worker, beat]
    result: dict = {"machine": {"cores": os.cpu_count(), "load_avg_1m_before": round(background_load[0], 1)},
                    "web_workers": args.web_workers, "grading_concurrency": args.grading_concurrency}
    try:
        lt.wait_for(lambda: " ready." in worker.output(), 900, "the Celery worker (it builds the emulator runtime when the cache has none)")
        lt.wait_for(lambda: get(f"http://127.0.0.1:{port}/healthz")[0] == 200, 120, "gunicorn")
        # Every web worker serves pages (the kernel's accept() spreads them) and one kernel is graded.
        with ThreadPoolExecutor(8) as pool:
            statuses = Counter(s for s, _ in pool.map(lambda _: get(f"http://127.0.0.1:{port}/"), range(20 * args.web_workers)))
        # Kernels submitted through the API (a web worker sends the message), one per pool process at
        # once; the sockets are sampled while they are graded (a grading holds its connections).
        student = lt.create_students(1, prefix="limits")[0]
        source = (lt.BANK / "vector-add-tail" / "solution.cu").read_text()
        ids = [submit(port, student.token, f"{source}\n// limits {k}\n") for k in range(args.grading_concurrency)]
        peak_pg: Counter = Counter()
        peak_redis: Counter = Counter()
        deadline = time.monotonic() + 300
        while Submission.objects.filter(pk__in=ids, status="GRADED").count() < len(ids):
            for peak, sample in ((peak_pg, sockets_by_pid(5432)), (peak_redis, sockets_by_pid(redis.port))):
                for pid, n in sample.items():
                    peak[pid] = max(peak[pid], n)
            connection.close()
            if time.monotonic() > deadline:
                raise SystemExit("the gradings did not finish")
            time.sleep(0.2)
        time.sleep(2)
        connection.close()  # this script's own connection is not the stack's
        roles = {"gunicorn master": [web.proc.pid], "gunicorn worker": children_of(web.proc.pid),
                 "celery worker main": [worker.proc.pid], "celery pool process": children_of(worker.proc.pid),
                 "celery beat": [beat.proc.pid]}
        rows = role_table(roles, 5432, redis.port)
        for row in rows:
            row["postgres_peak_grading"], row["redis_peak_grading"] = peak_pg.get(row["pid"], 0), peak_redis.get(row["pid"], 0)
        with psycopg.connect(args.admin_url, autocommit=True) as admin:
            backends = [r[0] for r in admin.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", (db_name,))]
            held = len(backends)
            backend_kib = sorted(private_kib(pid) for pid in backends)
            max_connections = int(admin.execute("SHOW max_connections").fetchone()[0])
            reserved = int(admin.execute("SHOW superuser_reserved_connections").fetchone()[0])
        verdicts = sorted(Submission.objects.filter(pk__in=ids).values_list("verdict", flat=True))
        result.update({"pages": dict(statuses), "verdicts": verdicts, "processes": rows,
                       "postgres_backends_held": held, "postgres_backend_private_kib": backend_kib,
                       "postgres_max_connections_here": max_connections, "superuser_reserved_connections": reserved})
        connection.close()

        # The database refuses new connections: a second web tier starts against a full database.
        with psycopg.connect(args.admin_url, autocommit=True) as admin:
            admin.execute(f'ALTER DATABASE "{db_name}" CONNECTION LIMIT {held}')
        port2 = lt.free_port()
        web2 = web_service(web_env, port2, 2, logdir, "web2")
        services.append(web2)
        lt.wait_for(lambda: get(f"http://127.0.0.1:{port2}/healthz")[0] == 200, 120, "the second gunicorn")
        probes = [get(f"http://127.0.0.1:{port2}/") for _ in range(args.probe_requests)]
        ready = get(f"http://127.0.0.1:{port2}/readyz")
        first = get(f"http://127.0.0.1:{port}/")
        refusal = sorted({m for m in re.findall(r"(too many connections for database[^\n\"]*|couldn't get a connection[^\n\"]*|"
                                                  r"PoolTimeout[^\n\"]*)", web2.output())})[:3]
        result["database_full"] = {"limit": held, "second_web_statuses": dict(Counter(s for s, _ in probes)),
                                   "second_web_seconds_max": round(max(t for _, t in probes), 2),
                                   "second_web_seconds_median": round(sorted(t for _, t in probes)[len(probes) // 2], 2),
                                   "second_web_readyz": ready[0], "first_web_status": first[0], "errors_logged": refusal}
        # A kernel submitted through the first web (which holds its connections) while the database is
        # full: the idle worker holds none, so its grading cannot start; then the limit is lifted.
        submitted = time.monotonic()
        full_id = submit(port, student.token, f"{source}\n// while full\n")
        status_full = wait_status(args.admin_url, db_name, full_id, 60)
        with psycopg.connect(args.admin_url, autocommit=True) as admin:
            admin.execute(f'ALTER DATABASE "{db_name}" CONNECTION LIMIT -1')
        lifted = time.monotonic()
        status_after = wait_status(args.admin_url, db_name, full_id, 600)
        result["database_full"].update({"submitted_while_full_status_after_60s": status_full,
                                        "after_lifting": status_after, "graded_s_after_lifting": round(time.monotonic() - lifted, 1),
                                        "submit_to_graded_s": round(time.monotonic() - submitted, 1)})

        # Redis memory per queued grading message: stop the consumers, queue --messages, compare.
        worker.stop()
        beat.stop()
        from redis import Redis

        from grader.tasks import grade_exam_submission, grade_submission

        client = Redis(port=redis.port)
        client.delete("cpu", "exam")
        before = int(client.info("memory")["used_memory"])
        for i in range(args.messages):
            (grade_exam_submission if i % 2 else grade_submission).delay(10_000_000 + i)
        after = int(client.info("memory")["used_memory"])
        lists = {key: client.llen(key) for key in client.scan_iter() if client.type(key) == b"list"}
        one = client.lindex(max(lists, key=lists.get), 0) if lists else b""
        result["redis"] = {"messages": args.messages, "used_memory_delta_bytes": after - before,
                           "bytes_per_message": round((after - before) / args.messages), "message_bytes": len(one),
                           "lists": {k.decode(errors="replace"): n for k, n in lists.items()},
                           "maxclients": int(client.config_get("maxclients")["maxclients"])}
    finally:
        for service in services:
            service.stop()
        redis.stop()
    print_table(result)
    print(json.dumps(result))
    return 0


def print_table(result: dict) -> None:
    print(f"\n{'process':22} {'pid':>7} {'PG idle/grading':>16} {'Redis idle/grading':>19} {'fds':>5}")
    for row in result["processes"]:
        print(f"{row['role']:22} {row['pid']:>7} {row['postgres']:>8}/{row['postgres_peak_grading']:<7} "
              f"{row['redis']:>10}/{row['redis_peak_grading']:<8} {row['fds']:>5}")
    print(f"PostgreSQL backends held by the stack: {result['postgres_backends_held']} "
          f"(private KiB each: {result['postgres_backend_private_kib']})")
    print(f"database full: {result['database_full']}")
    print(f"Redis: {result['redis']}")


if __name__ == "__main__":
    raise SystemExit(main())
