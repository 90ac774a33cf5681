"""Load test: simulated students browse problems and submit kernels through the API, on the real stack.

Over 400 lines: a standalone benchmark script, run by hand and never imported.

Usage (from the repository root; PostgreSQL and Redis running, as .ci/run starts them):

    .venv/bin/python bench/load_test.py                      # 300 students arriving over 15 minutes
    .venv/bin/python bench/load_test.py --worker-nice 0      # the same, grading at the web's priority
    .venv/bin/python bench/load_test.py --ramp-s 120         # the same 300 within 2 minutes (a burst)
    .venv/bin/python bench/load_test.py --poll-via page      # students poll the page's live partial, not the API
    .venv/bin/python bench/load_test.py --ramp-s 120 --poll-etag --client-nice 10 --worker-nice 19
                                                             # the burst, the load generator and the graders below the web
    .venv/bin/python bench/load_test.py --students 20 --ramp-s 20 --think-s 2   # a quick check

It needs gunicorn in the virtual environment (`pip install gunicorn`; platform/Dockerfile installs
it for production); without it the web server is runserver, and the figures mean little.
Figures of 2026-11-29 and what they say: docs/reliability.md.

What it starts, all on this machine: a fresh PostgreSQL database (--database-url; dropped and
created again), the problem bank imported into it, gunicorn (--web-workers sync workers; runserver
when gunicorn is not installed) with production settings (DEBUG off), and one Celery worker
(--grading-concurrency processes, with beat for the sweeper) on the emulator backend and its own
Redis database (--broker, flushed first). The worker runs at niceness --worker-nice (10 by default):
production runs the web and the graders on separate machines (docker-compose services), so on one
2-core machine the graders' lower priority stands in for that separation; --worker-nice 0 measures
them competing as equals. The simulated students are this script's own process: in production they
are 300 other machines, so --client-nice N lowers its priority (every thread of it, after the servers
have started: gunicorn and the worker are its children but do not inherit it; PostgreSQL and Redis
are the machine's) so that the figures say what the web tier does, not what the load generator
costs. The header and the JSON line give each part's niceness, as read from /proc, and the CPU each
part used per request. One warm-up submission is graded before the clock starts
(it builds the emulator runtime, as a long-lived worker has).

Each student arrives during the first --ramp-s seconds, with a session cookie for pages and an API
token: opens the problem list and a problem page, thinks, submits through the API, polls the API
every --poll-s seconds until the verdict (plain GETs; --poll-etag: a conditional GET with the last
ETag, as the CLI does, whose 304 costs no SQL), looks at their submission
list, and does it again (--submissions-per-student). With --poll-via page a student polls the submission
page's live partial instead, as the browser does: a conditional GET with the last ETag, every 3 s
while queued and every second while compiling or running (the partial's own intervals). Sources are the bank's solutions and, with
probability --wrong-fraction, one of its wrong solutions (only those that fail fast: no DEADLOCK or
TIME_LIMIT); every source gets a unique comment, so every submission is compiled (no cache hits).

Measured: web latency of every request (p50/p95/p99 overall and per kind), errors (HTTP >= 400 or
no response), queue wait (started - queued, from the database), submit-to-verdict (finished -
created from the database; and as the student saw it), wrong verdicts, lost submissions (accepted
with 201 but never graded before --drain-timeout-s) and phantom ones (rows no 201 told about).
A table is printed; the last line is JSON.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import procs  # noqa: E402  (descendants, CPU seconds and niceness from /proc)

ROOT = Path(__file__).resolve().parents[1]
BANK = ROOT / "problems" / "bank"
PY = sys.executable
SLOW_VERDICTS = {"DEADLOCK", "TIME_LIMIT"}  # wrong solutions that take their time limit: not "quick"


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--students", type=int, default=300)
    p.add_argument("--ramp-s", type=float, default=900.0, help="students arrive uniformly over this many seconds")
    p.add_argument("--submissions-per-student", type=int, default=1)
    p.add_argument("--wrong-fraction", type=float, default=0.25, help="share of submissions that are wrong solutions")
    p.add_argument("--think-s", type=float, default=10.0, help="mean think time between a student's actions")
    p.add_argument("--poll-s", type=float, default=1.0, help="how often a waiting student polls the API for the verdict")
    p.add_argument("--poll-via", choices=("api", "page"), default="api",
                   help="poll the API (every --poll-s) or the page's live partial (conditional GET, the page's intervals)")
    p.add_argument("--poll-etag", action=argparse.BooleanOptionalAction, default=False,
                   help="API polls revalidate with the last ETag, as the CLI does (default: plain GETs, as "
                        "measured before; in both runs so far, 2026-12-02, the warm-up's poller never saw "
                        "its verdict: see the README)")
    p.add_argument("--web-workers", type=int, default=4, help="gunicorn worker processes")
    p.add_argument("--web-threads", type=int, default=1,
                   help="threads per gunicorn worker: 1, sync workers (as before); more, gthread workers")
    p.add_argument("--grading-concurrency", type=int, default=2, help="Celery worker processes")
    p.add_argument("--worker-nice", type=int, default=10,
                   help="niceness of the grading worker (10: web requests first, standing in for production's "
                        "separate grading machines; 0: web and grading compete as equals)")
    p.add_argument("--client-nice", type=int, default=None,
                   help="niceness of the simulated students (this process, once the servers have started); "
                        "default: this process's own, 0 unless the script was started under nice")
    p.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/warpdrill_load")
    p.add_argument("--broker", default="redis://127.0.0.1:6379/13")
    p.add_argument("--drain-timeout-s", type=float, default=1800.0,
                   help="after the last student's last submit, how long every submission has to be graded")
    p.add_argument("--seed", type=int, default=1)
    return p.parse_args()


# ---- the stack ------------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stack_env(args, cache_dir: Path) -> dict[str, str]:
    """Production settings (DEBUG off) on plain HTTP at 127.0.0.1, for every process of the stack. The
    judge's cache (the emulator runtime, compiled objects) is `cache_dir`, or WARPDRILL_BENCH_CACHE_DIR
    when set: runs one after another then build the runtime once."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("WARPDRILL_TEST", "PYTEST", "DJANGO_"))}
    env.update({
        "DJANGO_SETTINGS_MODULE": "config.settings", "DATABASE_URL": args.database_url,
        "CELERY_BROKER_URL": args.broker, "DEBUG": "false", "SECRET_KEY": secrets.token_urlsafe(64),
        "ALLOWED_HOSTS": "127.0.0.1,localhost", "SECURE_SSL_REDIRECT": "false", "SESSION_COOKIE_SECURE": "false",
        "CSRF_COOKIE_SECURE": "false", "SECURE_HSTS_SECONDS": "0", "WARPDRILL_BACKEND": "emulator",
        "WARPDRILL_CACHE_DIR": os.environ.get("WARPDRILL_BENCH_CACHE_DIR") or str(cache_dir), "LOG_LEVEL": "WARNING", "PYTHONUNBUFFERED": "1",
        "WARPDRILL_DB_PASSWORDLESS": "true",  # the local test server trusts 127.0.0.1
    })
    return env


def reset_database(url: str) -> None:
    import psycopg

    m = re.match(r"postgres(?:ql)?://(?P<auth>[^@]*@)?(?P<host>[^:/]+)(?::(?P<port>\d+))?/(?P<name>\w+)$", url)
    if not m:
        raise SystemExit(f"--database-url must be postgres://[user@]host[:port]/name, not {url}")
    user = (m["auth"] or "postgres@").rstrip("@").split(":")[0]
    with psycopg.connect(host=m["host"], port=int(m["port"] or 5432), user=user, dbname="postgres",
                         autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{m["name"]}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{m["name"]}"')


def flush_broker(url: str) -> None:
    """Empty the load test's Redis database; refuse one that another client is connected to.

    A second worker on the same database (another engineer's run on this machine) would take half
    of the grading messages and drop them (its database has no such submissions): the sweeper
    would re-send them after WARPDRILL_STUCK_AFTER_S, and submit-to-verdict would measure that.
    """
    import redis

    client = redis.Redis.from_url(url)
    db = client.connection_pool.connection_kwargs.get("db", 0)
    others = [c for c in client.client_list() if int(c.get("db", -1)) == db and c.get("cmd") != "client|list"]
    if others:
        raise SystemExit(f"{len(others)} other client(s) use Redis database {db}; pick a free one with --broker")
    client.flushdb()


def manage(env, *argv: str) -> None:
    subprocess.run([PY, "manage.py", *argv], cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)


class Service:
    """A child process (own session, so the whole group can be stopped), its output in a log file."""

    def __init__(self, name: str, argv: list[str], env, logdir: Path, nice: int = 0):
        self.name, self.log = name, logdir / f"{name}.log"
        self.proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=self.log.open("w"), stderr=subprocess.STDOUT,
                                     start_new_session=True, preexec_fn=(lambda: os.nice(nice)) if nice else None)

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)


def prepare_stack(env: dict[str, str]) -> None:
    """Migrate the stack's (freshly reset) database, import the problem bank into it, and set Django up in
    this process on the settings, database and broker of `env` (stack_env's), so the script can read and
    write rows the way the web and the workers do. Raises CalledProcessError if a manage.py step fails."""
    manage(env, "migrate", "--no-input")
    manage(env, "import_problems", str(BANK))
    os.environ.update({k: env[k] for k in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "CELERY_BROKER_URL", "DEBUG",
                                           "SECRET_KEY", "ALLOWED_HOSTS", "WARPDRILL_DB_PASSWORDLESS")})
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def start_web(args, env, port: int, logdir: Path) -> tuple[Service, str]:
    if shutil.which("gunicorn", path=str(Path(PY).parent)) or shutil.which("gunicorn"):
        gunicorn = shutil.which("gunicorn", path=str(Path(PY).parent)) or shutil.which("gunicorn")
        argv = [gunicorn, "config.wsgi:application", "--bind", f"127.0.0.1:{port}", "--workers",
                str(args.web_workers), "--backlog", "2048", "--timeout", "60"]
        kind = f"gunicorn, {args.web_workers} sync workers"
        if getattr(args, "web_threads", 1) > 1:
            argv += ["--worker-class", "gthread", "--threads", str(args.web_threads)]
            kind = f"gunicorn, {args.web_workers} gthread workers x {args.web_threads} threads"
    else:
        argv = [PY, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"]
        kind = "runserver (gunicorn is not installed)"
    return Service("web", argv, env, logdir), kind


def start_worker(args, env, logdir: Path) -> Service:
    argv = [PY, "-m", "celery", "-A", "config", "worker", "-Q", "cpu,gpu", "-c", str(args.grading_concurrency),
            "-B", "-s", str(logdir / "beat-schedule"), "--loglevel", "INFO", "-n", "load@%h",
            "--without-gossip", "--without-mingle", "--without-heartbeat"]
    return Service("worker", argv, env, logdir, nice=args.worker_nice)


def lower_clients(value: int | None) -> int:
    """Renice this process (the simulated students) to `value` once the servers have started, and
    return its niceness. None leaves it as it is. Exits when `value` asks for a higher priority
    than this process may take (it was started under nice, without the privilege to undo it)."""
    own = procs.niceness(os.getpid())
    if value is None or value == own:
        return own
    try:
        held = procs.renice_self(value)
    except PermissionError:
        raise SystemExit(f"--client-nice {value}: this process runs at niceness {own} and may not raise its "
                         f"priority; start it without nice, or pass --client-nice {own} or more") from None
    return held[0]


def stack_niceness(web: Service, worker: Service, broker: str) -> dict:
    """The niceness of each part of the running stack, every thread of it (a list: one value when the
    part runs at one priority; [] when /proc does not show it): the gunicorn master and workers, the
    Celery worker and its pool processes, this script (the simulated students), this script's
    PostgreSQL backend (forked by the postmaster: what every backend runs at) and the Redis server."""
    import redis
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        postgres = procs.niceness_of([cursor.fetchone()[0]])  # read while the backend lives
    connection.close()
    try:
        redis_pid = int(redis.Redis.from_url(broker).info("server")["process_id"])
    except (redis.RedisError, KeyError, ValueError):
        redis_pid = -1
    return {"web": procs.niceness_of([web.proc.pid, *procs.children_of(web.proc.pid)]),
            "grading": procs.niceness_of([worker.proc.pid, *procs.children_of(worker.proc.pid)]),
            "clients": procs.niceness_of([os.getpid()]),
            "postgres": postgres, "redis": procs.niceness_of([redis_pid])}


def wait_for(predicate, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise SystemExit(f"timed out waiting for {what}")


# ---- students and what they submit ----------------------------------------------------------------

@dataclass
class Student:
    username: str
    token: str
    session: str


def create_students(n: int, prefix: str = "load") -> list[Student]:
    """n users (one password hash computed once), their API tokens and logged-in sessions."""
    from django.contrib.auth.hashers import make_password
    from django.contrib.auth.models import Group, User
    from django.contrib.sessions.backends.db import SessionStore
    from rest_framework.authtoken.models import Token

    password = make_password("load-test-pass")
    users = User.objects.bulk_create([User(username=f"{prefix}-{i:04d}", password=password) for i in range(n)])
    group, _ = Group.objects.get_or_create(name="Student")
    group.user_set.add(*users)
    tokens = Token.objects.bulk_create([Token(user=u, key=Token.generate_key()) for u in users])
    students = []
    for user, token in zip(users, tokens):
        session = SessionStore()
        session.update({"_auth_user_id": str(user.pk), "_auth_user_backend": "django.contrib.auth.backends.ModelBackend",
                        "_auth_user_hash": user.get_session_auth_hash()})
        session.create()
        students.append(Student(user.username, token.key, session.session_key))
    return students


@dataclass
class Candidate:
    slug: str
    source: str
    verdict: str  # what the judge must answer


def candidates() -> tuple[list[Candidate], list[Candidate]]:
    """(solutions, quick wrong solutions) of every bank package without variants: a package with
    variants has {{NAME}} placeholders in its sources, filled per student (problems.services.
    practice_variant) where this HTTP-only script cannot see them; submitted raw they are COMPILE_ERROR."""
    right, wrong = [], []
    for folder in sorted(p.parent for p in BANK.glob("*/problem.yaml")):
        slug = re.search(r"^slug:\s*(\S+)", (folder / "problem.yaml").read_text(), re.M)[1]
        solution = (folder / "solution.cu").read_text()
        if "{{" in solution:
            continue
        right.append(Candidate(slug, solution, "ACCEPTED"))
        for path in sorted((folder / "wrong").glob("*.cu")):
            text = path.read_text()
            m = re.search(r"verdict:\s*([A-Z_]+)", text)
            if m and m[1] not in SLOW_VERDICTS:
                wrong.append(Candidate(slug, text, m[1]))
    return right, wrong


# ---- HTTP -----------------------------------------------------------------------------------------

@dataclass
class Sample:
    kind: str  # "problem list", "problem page", "submit", "poll", "my submissions"
    seconds: float
    status: int  # 0: no response (connection error or timeout)


@dataclass
class Recorder:
    samples: list[Sample] = field(default_factory=list)
    submitted: dict[int, tuple[float, str, str]] = field(default_factory=dict)  # id -> (t, expected, student)
    seen: dict[int, tuple[float, str]] = field(default_factory=dict)  # id -> (t verdict seen, verdict)
    failures: list[str] = field(default_factory=list)


class Http:
    """A minimal HTTP/1.1 client on asyncio streams (one connection per request, as gunicorn's sync
    workers close it anyway). Latency is measured from connect to the last byte."""

    def __init__(self, port: int, recorder: Recorder, timeout: float = 60.0):
        self.port, self.rec, self.timeout = port, recorder, timeout

    async def request(self, kind: str, method: str, path: str, headers: dict[str, str],
                      body: bytes = b"") -> tuple[int, bytes, bytes]:
        lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}", "Connection: close",
                 f"Content-Length: {len(body)}", *(f"{k}: {v}" for k, v in headers.items()), "", ""]
        start = time.perf_counter()
        status, payload, head = 0, b"", b""
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", self.port), self.timeout)
            try:
                writer.write("\r\n".join(lines).encode() + body)
                await writer.drain()
                raw = await asyncio.wait_for(reader.read(), self.timeout)
            finally:
                writer.close()
            head, _, payload = raw.partition(b"\r\n\r\n")
            status = int(head.split(b" ", 2)[1])
        except (OSError, asyncio.TimeoutError, ValueError, IndexError) as exc:
            self.rec.failures.append(f"{kind} {path}: {type(exc).__name__}: {exc}")
        self.rec.samples.append(Sample(kind, time.perf_counter() - start, status))
        if status >= 400:
            self.rec.failures.append(f"{kind} {path}: HTTP {status}: {payload[:200]!r}")
        return status, payload, head


def header(head: bytes, name: str) -> str | None:
    """One header's value from a raw response head (None when absent)."""
    m = re.search(rb"^" + name.encode() + rb":\s*(.*?)\r?$", head, re.M | re.I)
    return m[1].decode() if m else None


class ApiPoller:
    """Polls the API every --poll-s seconds until GRADED: plain GETs (every poll a full, authenticated
    answer), or with --poll-etag as the CLI does (`warpdrill submit --watch`): a conditional GET with
    the last ETag, answered 304 with no SQL while nothing changed (grader.live)."""

    def __init__(self, token: dict, use_etag: bool = True):
        self.token, self.use_etag, self.etag = token, use_etag, None

    async def poll(self, http: Http, pk: int, token: dict, args) -> str | None:
        await asyncio.sleep(args.poll_s)
        headers = {**self.token, **({"If-None-Match": self.etag} if self.etag and self.use_etag else {})}
        status, payload, head = await http.request("poll", "GET", f"/api/v1/submissions/{pk}", headers)
        if status == 200:
            self.etag = header(head, "ETag")
            data = json.loads(payload)
            if data["status"] == "GRADED":
                return data["verdict"]
        return None


class PagePoller:
    """Polls the live partial as the submission page does: revalidates with the last ETag (a 304
    keeps the copy), every 3 s while queued or retrying, every second while compiling or running."""

    def __init__(self, cookie: dict):
        self.cookie, self.etag, self.status, self.verdict = cookie, None, "QUEUED", ""

    async def poll(self, http: Http, pk: int, token: dict, args) -> str | None:
        await asyncio.sleep(3.0 if self.status in ("QUEUED", "RETRYING") else 1.0)
        headers = {**self.cookie, **({"If-None-Match": self.etag} if self.etag else {})}
        status, payload, head = await http.request("poll", "GET", f"/submissions/{pk}/live/", headers)
        if status == 200:
            self.etag = header(head, "ETag")
            found = re.search(rb'data-status="(\w+)" data-verdict="(\w*)"', payload)
            if found:
                self.status, self.verdict = found[1].decode(), found[2].decode()
        return self.verdict if self.status == "GRADED" else None


async def run_student(i: int, student: Student, args, http: Http, rng: random.Random, right, wrong,
                      rec: Recorder, verdict_deadline: list[float]) -> None:
    await asyncio.sleep(args.ramp_s * i / max(args.students, 1) + rng.uniform(0, 0.5))
    page = {"Cookie": f"sessionid={student.session}"}
    token = {"Authorization": f"Token {student.token}", "Accept": "application/json"}

    async def think():
        await asyncio.sleep(min(rng.expovariate(1 / args.think_s), 4 * args.think_s))

    candidate = rng.choice(right)
    for k in range(args.submissions_per_student):
        await http.request("problem list", "GET", "/", page)
        await think()
        if k and rng.random() < 0.5:
            candidate = rng.choice(right)
        await http.request("problem page", "GET", f"/problems/{candidate.slug}/", page)
        await think()
        chosen = candidate
        if rng.random() < args.wrong_fraction:
            same = [w for w in wrong if w.slug == candidate.slug] or wrong
            chosen = rng.choice(same)
        source = chosen.source + f"\n// {student.username}, submission {k + 1}\n"
        body = json.dumps({"source": source}).encode()
        status, payload, _ = await http.request("submit", "POST", f"/api/v1/problems/{chosen.slug}/submissions",
                                             {**token, "Content-Type": "application/json"}, body)
        if status != 201:
            continue
        pk = json.loads(payload)["id"]
        rec.submitted[pk] = (time.monotonic(), chosen.verdict, student.username)
        poll = PagePoller(page).poll if args.poll_via == "page" else ApiPoller(token, args.poll_etag).poll
        while time.monotonic() < verdict_deadline[0]:
            verdict = await poll(http, pk, token, args)
            if verdict is not None:
                rec.seen[pk] = (time.monotonic(), verdict)
                break
        await think()
        await http.request("my submissions", "GET", "/submissions/", page)


# ---- figures --------------------------------------------------------------------------------------

def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    values = sorted(values)
    return values[min(len(values) - 1, max(0, round(q / 100 * len(values) + 0.5) - 1))]


def summary(values: list[float], scale: float = 1.0, digits: int = 1) -> dict:
    if not values:
        return {"n": 0}
    return {"n": len(values), "p50": round(pct(values, 50) * scale, digits), "p95": round(pct(values, 95) * scale, digits),
            "p99": round(pct(values, 99) * scale, digits), "max": round(max(values) * scale, digits),
            "mean": round(statistics.fmean(values) * scale, digits)}


def database_figures(usernames: set[str]) -> list[dict]:
    from grader.models import Submission

    rows = Submission.objects.filter(user__username__in=usernames).values(
        "pk", "status", "verdict", "tries", "created_at", "queued_at", "started_at", "finished_at", "result")
    out = []
    for r in rows:
        compiled = (r["result"] or {}).get("compile") or {}
        out.append({"pk": r["pk"], "status": r["status"], "verdict": r["verdict"], "tries": r["tries"],
                    # Queued again long after it was created: re-sent by the sweeper (a lost message).
                    "requeued": bool(r["queued_at"] and (r["queued_at"] - r["created_at"]).total_seconds() > 60),
                    "queue_wait_s": (r["started_at"] - r["queued_at"]).total_seconds()
                    if r["started_at"] and r["queued_at"] else None,
                    "to_verdict_s": (r["finished_at"] - r["created_at"]).total_seconds() if r["finished_at"] else None,
                    "grading_s": (r["finished_at"] - r["started_at"]).total_seconds()
                    if r["finished_at"] and r["started_at"] else None,
                    "cached_compile": bool(compiled.get("cached"))})
    return out


def main() -> int:
    args = parse_args()
    rng = random.Random(args.seed)
    background_load = os.getloadavg()  # before anything of ours runs: other work on this machine
    logdir = Path(tempfile.mkdtemp(prefix="warpdrill-load-"))
    cache_dir = logdir / "cache"
    env = stack_env(args, cache_dir)
    print(f"logs in {logdir}", flush=True)

    reset_database(args.database_url)
    flush_broker(args.broker)
    prepare_stack(env)
    students = create_students(args.students)
    warmup = create_students(1, prefix="warmup")
    right, wrong = candidates()

    port = free_port()
    own_nice = procs.niceness(os.getpid())
    web, web_kind = start_web(args, env, port, logdir)
    worker = start_worker(args, env, logdir)
    services = [web, worker]
    try:
        # The servers have started (forked and exec'd at this process's niceness, the worker at its own
        # --worker-nice): only now are the clients lowered, so that neither server inherits theirs.
        client_nice = lower_clients(args.client_nice)
        wait_for(lambda: " ready." in worker.output(), 120, "the Celery worker")
        rec = Recorder()
        http = Http(port, rec)

        async def up() -> bool:
            status, _, _ = await http.request("warm-up", "GET", "/", {})
            return status == 200

        wait_for(lambda: asyncio.run(up()), 60, "the web server")
        # Warm-up: one submission graded before the clock starts (builds the emulator runtime).
        warm_rec = Recorder()
        warm_http = Http(port, warm_rec)
        asyncio.run(run_student(0, warmup[0], argparse.Namespace(**{**vars(args), "students": 1, "ramp_s": 0,
                                                                 "submissions_per_student": 1, "think_s": 0.01,
                                                                 "wrong_fraction": 0}),
                                warm_http, random.Random(0), right, wrong, warm_rec,
                                [time.monotonic() + 600]))
        if not warm_rec.seen:
            raise SystemExit(f"warm-up submission not graded:\n{worker.output()[-3000:]}")
        rec.samples.clear()
        rec.failures.clear()

        nice = stack_niceness(web, worker, args.broker)
        if nice["web"] != [own_nice]:  # e.g. a server started after lower_clients() would have inherited it
            raise SystemExit(f"gunicorn runs at niceness {nice['web']}, not this script's {own_nice} before it "
                             f"lowered the clients to {client_nice}")
        print(f"{args.students} students over {args.ramp_s:g} s on {web_kind}; grading: {args.grading_concurrency} "
              f"process(es), nice {args.worker_nice}", flush=True)
        print("niceness: " + ", ".join(f"{part} {'/'.join(map(str, values)) or '?'}" for part, values in nice.items()),
              flush=True)
        web_pids = [web.proc.pid, *procs.children_of(web.proc.pid)]
        t0 = time.monotonic()
        cpu0 = {"web": procs.cpu_seconds(web_pids), "clients": time.process_time()}
        verdict_deadline = [float("inf")]
        loads: list[float] = []

        async def everyone():
            tasks = [asyncio.create_task(run_student(i, s, args, http, random.Random(rng.random()), right, wrong,
                                                     rec, verdict_deadline))
                     for i, s in enumerate(students)]

            async def progress():
                while True:
                    await asyncio.sleep(15)
                    loads.append(os.getloadavg()[0])
                    print(f"  t={time.monotonic() - t0:5.0f} s  requests {len(rec.samples):6d}  submitted "
                          f"{len(rec.submitted):4d}  graded (seen) {len(rec.seen):4d}  errors {len(rec.failures)}",
                          flush=True)

            reporter = asyncio.create_task(progress())
            await asyncio.sleep(args.ramp_s)
            verdict_deadline[0] = time.monotonic() + args.drain_timeout_s
            await asyncio.gather(*tasks)
            reporter.cancel()

        asyncio.run(everyone())
        duration = time.monotonic() - t0
        cpu_s = {"web": procs.cpu_seconds(web_pids) - cpu0["web"], "clients": time.process_time() - cpu0["clients"]}
    finally:
        for service in services:
            service.stop()
        shutil.rmtree(cache_dir, ignore_errors=True)  # every submission's binary: about 4 MB each

    usernames = {s.username for s in students}
    rows = database_figures(usernames)
    by_pk = {r["pk"]: r for r in rows}
    lost = sorted(pk for pk in rec.submitted if by_pk.get(pk, {}).get("status") != "GRADED")
    phantom = sorted(pk for pk in by_pk if pk not in rec.submitted)
    wrong_verdicts = sorted(pk for pk, (_, expected, _) in rec.submitted.items()
                            if by_pk.get(pk, {}).get("verdict") not in (None, "", expected))
    # "ACCEPTED -> TIME_LIMIT" would be a correct kernel charged for the machine's overload.
    wrong_kinds = Counter(f"{rec.submitted[pk][1]} -> {by_pk[pk]['verdict']}" for pk in wrong_verdicts)
    web_ms = [s.seconds for s in rec.samples]
    kinds = sorted({s.kind for s in rec.samples})
    errors = sum(1 for s in rec.samples if s.status == 0 or s.status >= 400)
    graded = [r for r in rows if r["status"] == "GRADED"]
    client_to_verdict = [rec.seen[pk][0] - rec.submitted[pk][0] for pk in rec.seen]
    result = {
        "students": args.students,
        "duration_s": round(duration, 1),
        "requests": len(rec.samples),
        "requests_per_s": round(len(rec.samples) / duration, 1),
        "web_ms": summary(web_ms, 1000),
        "web_ms_by_kind": {k: summary([s.seconds for s in rec.samples if s.kind == k], 1000) for k in kinds},
        "errors": errors,
        # CPU (user + system, all threads) per request during the run: the gunicorn processes (those
        # of the start; a worker restarted meanwhile is not counted) and the simulated students.
        "cpu_ms_per_request": {part: round(seconds / max(len(rec.samples), 1) * 1000, 2) for part, seconds in cpu_s.items()},
        "cpu_cores_mean": {part: round(seconds / duration, 2) for part, seconds in cpu_s.items()},
        "not_modified_304": sum(1 for s in rec.samples if s.status == 304),
        "submissions": len(rec.submitted),
        "graded": len(graded),
        "lost": len(lost),
        "phantom": len(phantom),
        "wrong_verdicts": len(wrong_verdicts),
        "wrong_verdicts_by_kind": dict(wrong_kinds),
        "correct_submissions_time_limit": wrong_kinds.get("ACCEPTED -> TIME_LIMIT", 0),
        "retried_or_redelivered": sum(1 for r in rows if r["tries"] > 1),
        "requeued_by_sweeper": sum(1 for r in rows if r["requeued"] and r["tries"] <= 1),
        "cached_compiles": sum(1 for r in graded if r["cached_compile"]),
        "queue_wait_s": summary([r["queue_wait_s"] for r in rows if r["queue_wait_s"] is not None]),
        "grading_s": summary([r["grading_s"] for r in graded if r["grading_s"] is not None], digits=2),
        "submit_to_verdict_s": summary([r["to_verdict_s"] for r in graded]),
        "submit_to_verdict_seen_by_student_s": summary(client_to_verdict),
        "graded_per_min": round(len(graded) / duration * 60, 1),
        "goal": {"web_p95_le_150ms": bool(web_ms) and pct(web_ms, 95) <= 0.150, "zero_errors": errors == 0,
                 "zero_lost": not lost},
        "config": {"web": web_kind, "grading_concurrency": args.grading_concurrency, "worker_nice": args.worker_nice,
                   "client_nice": client_nice, "niceness": nice,
                   "ramp_s": args.ramp_s, "submissions_per_student": args.submissions_per_student,
                   "poll_via": args.poll_via, "poll_etag": args.poll_etag,
                   "wrong_fraction": args.wrong_fraction, "think_s": args.think_s, "poll_s": args.poll_s,
                   "cpus": os.cpu_count(), "database": "postgresql", "broker": "redis"},
        "machine_load": {"before_1_5_15min": [round(x, 2) for x in background_load],
                         "during_mean_1min": round(statistics.fmean(loads), 2) if loads else None,
                         "during_max_1min": round(max(loads), 2) if loads else None},
    }
    print_table(result, rec, lost, phantom, wrong_verdicts)
    print(json.dumps(result))
    return 0 if all(result["goal"].values()) and not wrong_verdicts else 1


def print_table(result: dict, rec: Recorder, lost, phantom, wrong_verdicts) -> None:
    print()
    print(f"{'web latency (ms)':24} {'n':>7} {'p50':>7} {'p95':>7} {'p99':>7} {'max':>8}")
    for kind, s in [("all", result["web_ms"]), *result["web_ms_by_kind"].items()]:
        if s["n"]:
            print(f"{kind:24} {s['n']:7d} {s['p50']:7.1f} {s['p95']:7.1f} {s['p99']:7.1f} {s['max']:8.1f}")
    print()
    for name in ("queue_wait_s", "grading_s", "submit_to_verdict_s", "submit_to_verdict_seen_by_student_s"):
        s = result[name]
        if s["n"]:
            print(f"{name:38} n={s['n']:4d}  p50 {s['p50']:7} s  p95 {s['p95']:7} s  max {s['max']:7} s")
    print()
    print(f"submissions {result['submissions']}, graded {result['graded']}, lost {len(lost)}, phantom {len(phantom)}, "
          f"wrong verdicts {len(wrong_verdicts)} {result['wrong_verdicts_by_kind'] or ''}, errors {result['errors']}, "
          f"{result['graded_per_min']} graded/min")
    if result["requeued_by_sweeper"]:
        print(f"  {result['requeued_by_sweeper']} submission(s) re-sent by the sweeper: their first message never reached "
              "this worker (another consumer on the same Redis database?); submit-to-verdict includes that wait")
    cpu, cores = result["cpu_ms_per_request"], result["cpu_cores_mean"]
    print("CPU per request: " + ", ".join(f"{part} {ms} ms ({cores[part]} cores on average)" for part, ms in cpu.items()))
    load = result["machine_load"]
    print(f"machine load average (1 min): {load['before_1_5_15min'][0]} before, {load['during_mean_1min']} mean and "
          f"{load['during_max_1min']} max during the run")
    for line in rec.failures[:10]:
        print("  failure:", line)


if __name__ == "__main__":
    sys.exit(main())
