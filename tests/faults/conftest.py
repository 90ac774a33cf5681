"""Fixtures of the fault tests: real worker processes with fault settings, a slow problem, a private Redis.

Everything here runs real processes: `celery worker` children on the test database, and for the
broker-restart tests a `redis-server` of their own (so restarting it never disturbs anything else
that uses the shared Redis). In CI (.ci/run) the database is PostgreSQL and the broker Redis.
"""
from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from problems.core.package import parse_package
from problems.services import import_package
from tests.conftest import ROOT, WorkerProcess, worker_env
from tests.packages import tiny_package_files

# Seconds each test case of 'slow-add' spends generating its inputs (harness.py runs in the worker):
# long enough to kill a worker in the middle of grading, short enough for a quick test.
SLOW_CASE_S = 1.5

SLOW_HARNESS = f"""\
import time

import numpy as np

def generate(case, rng):
    time.sleep({SLOW_CASE_S})
    n = case["n"]
    return {{"a": rng.standard_normal(n).astype(np.float32), "b": rng.standard_normal(n).astype(np.float32),
            "c": np.empty(n, np.float32), "n": n}}

def reference(inputs):
    return {{"c": inputs["a"] + inputs["b"]}}
"""

SLOW_YAML = tiny_package_files()["problem.yaml"].replace("slug: tiny-add", "slug: slow-add").replace(
    "  - {name: tail, params: {n: 1025}, seed: 2}\n",
    "  - {name: tail, params: {n: 1025}, seed: 2}\n  - {name: more, params: {n: 300}, seed: 3}\n",
)

SOLUTION = tiny_package_files()["solution.cu"]
WRONG = tiny_package_files()["wrong/subtracts.cu"]

# One line per final verdict, written by grader.grading.finish_grading in the worker.
GRADED_LINE = re.compile(r"submission (\d+) graded: ([A-Z_]+)")
DUPLICATE_LINE = re.compile(r"submission (\d+): already graded or gone; duplicate message ignored")


def broker_is_redis() -> bool:
    return settings.CELERY_BROKER_URL.startswith(("redis://", "rediss://"))


redis_only = pytest.mark.skipif(
    not broker_is_redis(),
    reason="needs the Redis broker (late acks, visibility timeout, a broker that loses its queue on restart): "
           "export CELERY_BROKER_URL=redis://127.0.0.1:6379/15 as .ci/run does",
)


class FaultWorker(WorkerProcess):
    """A `celery worker` with extra environment (faults, short timeouts) and arguments (-B for beat)."""

    def __init__(self, env: dict[str, str], name: str, queues: str = "cpu,gpu", args: tuple[str, ...] = ()):
        cmd = [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", queues, "-c", "1",
               "--loglevel", "INFO", "-n", f"{name}@%h", "--without-gossip", "--without-mingle",
               "--without-heartbeat", *args]
        self.name = name
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True, start_new_session=True)
        self.lines: list[str] = []
        import threading

        self.ready = threading.Event()
        threading.Thread(target=self._pump, daemon=True).start()

    def graded(self) -> list[tuple[int, str]]:
        """(submission id, verdict) for every final verdict this worker stored."""
        return [(int(m[1]), m[2]) for m in GRADED_LINE.finditer(self.output())]

    def duplicates_ignored(self) -> list[int]:
        return [int(m[1]) for m in DUPLICATE_LINE.finditer(self.output())]

    def pool_children(self) -> list[int]:
        """Pids of the prefork pool processes (children of the main worker process)."""
        return children_of(self.proc.pid)


def children_of(pid: int) -> list[int]:
    kids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            kids.append(int(stat.parent.name))
    return kids


@pytest.fixture(autouse=True)
def clear_cache_after():
    """Leave the cache as we found it (rendered statements are cached by version id, which the next
    test's database reuses)."""
    yield
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def fault_workers(transactional_db, tmp_path):
    """A factory of worker processes; start(name, env={...}, beat=False) waits until it is ready.

    Unless a test asks otherwise, workers run with the sandbox's unsafe fallback off, a stuck
    deadline of an hour (so the sweeper only acts in tests that ask for it) and default timeouts.
    """
    workers: list[FaultWorker] = []

    def start(name: str, env: dict[str, str] | None = None, beat: bool = False, broker: str | None = None,
              wait: bool = True) -> FaultWorker:
        extra = {"WARPDRILL_ALLOW_UNSAFE_SANDBOX": "0", "WARPDRILL_STUCK_AFTER_S": "3600"}
        if broker:
            extra["CELERY_BROKER_URL"] = broker
        extra.update(env or {})
        args = ("-B", "-s", str(tmp_path / f"beat-{name}")) if beat else ()
        worker = FaultWorker(worker_env(**extra), name=name, args=args)
        workers.append(worker)
        if wait:
            worker.wait_ready(90)
        return worker

    start.all = workers
    yield start
    for worker in workers:
        worker.stop()


def all_graded(workers, wait_for=(), timeout: float = 15.0) -> list[tuple[int, str]]:
    """Every (submission id, verdict) the workers stored. The log line comes just after the commit,
    so first wait (up to `timeout`) until each id in `wait_for` has one."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        lines = [g for w in workers for g in w.graded()]
        if set(wait_for) <= {pk for pk, _ in lines}:
            break
        time.sleep(0.1)
    time.sleep(0.5)  # a duplicate verdict, if there were one, would follow within moments
    return [g for w in workers for g in w.graded()]


def dump(workers) -> str:
    """Worker output for failure messages."""
    return "\n".join(f"--- worker {w.name} ---\n{w.output()[-4000:]}" for w in workers)


@pytest.fixture
def slow_problem(transactional_db):
    """'slow-add': tiny-add with three test cases that each take SLOW_CASE_S seconds to generate."""
    import_package(parse_package(tiny_package_files(**{"problem.yaml": SLOW_YAML, "harness.py": SLOW_HARNESS})))


@pytest.fixture
def tiny_problem(transactional_db):
    import_package(parse_package(tiny_package_files()))


@pytest.fixture
def student(make_student):
    """An API client logged in as a fresh student; .user is the user."""
    client = APIClient()
    client.user = make_student("faulty-fran")
    client.force_authenticate(client.user)
    return client


def submit(client: APIClient, slug: str, source: str) -> int:
    response = client.post(f"/api/v1/problems/{slug}/submissions", {"source": source}, format="json")
    assert response.status_code == 201, response.content
    return response.json()["id"]


def poll(client: APIClient, pk: int, until, timeout: float, workers=()) -> dict:
    """Poll the API every 0.1 s until `until(json)` holds; returns the JSON."""
    deadline = time.monotonic() + timeout
    data = None
    while time.monotonic() < deadline:
        data = client.get(f"/api/v1/submissions/{pk}").json()
        if until(data):
            return data
        time.sleep(0.1)
    raise AssertionError(f"submission {pk}: condition not met within {timeout} s; last {data}\n{dump(workers)}")


def graded(data: dict) -> bool:
    return data["status"] == "GRADED"


# ---- the broker ----------------------------------------------------------------------------

@pytest.fixture
def clean_broker():
    """Empty the test broker's queues and unacked sets before and after (Redis only)."""
    if broker_is_redis():
        _flush(settings.CELERY_BROKER_URL)
    yield
    if broker_is_redis():
        _flush(settings.CELERY_BROKER_URL)


def _flush(url: str) -> None:
    import redis

    client = redis.Redis.from_url(url)
    # The queues (with kombu's priority suffixes), the unacked hash/index/mutex and the bindings.
    keys = [k for k in client.keys("*") if k.startswith((b"cpu", b"gpu", b"unacked", b"_kombu"))]
    if keys:
        client.delete(*keys)


def queue_length(url: str, queue: str = "cpu") -> int:
    import redis

    return redis.Redis.from_url(url).llen(queue)


class PrivateRedis:
    """A redis-server of the test's own on a free port, started as .ci/run starts the shared one
    (no persistence: `--save "" --appendonly no`), so a restart loses every queued message."""

    def __init__(self, workdir: Path):
        self.binary = shutil.which("redis-server")
        self.workdir = workdir
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [self.binary, "--bind", "127.0.0.1", "--port", str(self.port), "--save", "", "--appendonly", "no",
             "--dir", str(self.workdir), "--logfile", str(self.workdir / "redis.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.ping():
                return
            time.sleep(0.05)
        raise RuntimeError(f"redis-server on port {self.port} did not start")

    def ping(self) -> bool:
        import redis

        try:
            return bool(redis.Redis(port=self.port, socket_connect_timeout=0.5).ping())
        except redis.exceptions.ConnectionError:
            return False

    def shutdown_nosave(self) -> None:
        """`redis-cli shutdown nosave`: the server exits and everything in memory is gone."""
        subprocess.run([shutil.which("redis-cli") or "redis-cli", "-p", str(self.port), "shutdown", "nosave"],
                       capture_output=True, timeout=20)
        if self.proc is not None:
            self.proc.wait(20)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(20)


@pytest.fixture
def private_redis():
    if not shutil.which("redis-server"):
        pytest.skip("redis-server is not installed")
    workdir = Path(tempfile.mkdtemp(prefix="wd-redis-"))
    server = PrivateRedis(workdir)
    server.start()
    yield server
    server.stop()
    shutil.rmtree(workdir, ignore_errors=True)


@contextlib.contextmanager
def app_broker(url: str):
    """Make this (test) process publish to `url` instead of the configured broker."""
    from config.celery import app

    def reset():
        # Drop the references only: kombu's global pool registry may hand the same pool out again.
        app._pool = None
        app.amqp._producer_pool = None

    # broker_write_url, not broker_url: the environment's CELERY_BROKER_URL wins over the latter. The
    # transport too: without CELERY_BROKER_URL the settings name the filesystem broker's transport
    # (config.filesystem_broker), which would win over `url`'s scheme and publish to var/ instead.
    old = {key: app.conf.get(key) for key in ("broker_write_url", "broker_transport", "broker_transport_options")}
    reset()
    app.conf.broker_write_url = url
    app.conf.broker_transport = None
    app.conf.broker_transport_options = {}
    try:
        yield
    finally:
        reset()
        for key, value in old.items():
            app.conf[key] = value
