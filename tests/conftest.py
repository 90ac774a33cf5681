"""Shared fixtures: a real Celery worker process on the test database, the problem bank, users."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent


def database_url_for_worker() -> str:
    """A DATABASE_URL for the test database pytest-django created (valid after django_db_setup)."""
    db = settings.DATABASES["default"]
    engine = db["ENGINE"]
    if engine.endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    if engine.endswith("postgresql"):
        user = db.get("USER") or ""
        password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
        auth = f"{user}{password}@" if user else ""
        host = db.get("HOST") or "localhost"
        port = f":{db['PORT']}" if db.get("PORT") else ""
        return f"postgres://{auth}{host}{port}/{db['NAME']}"
    raise RuntimeError(f"no worker URL for database engine {engine}")


def _judge_sandbox_from_settings() -> None:
    """Core objects a test builds without a sandbox option (EmulatorBackend(), compile_cubin...) get
    the sandbox the settings describe (WARPDRILL_BWRAP and the rest, as a worker would), through
    sandbox.box.DEFAULT, the default of callers that name none. Set when this file is imported, before
    collection, so that the modules' skip conditions ask the same bubblewrap."""
    from grader.core.sandbox import Sandbox, box

    box.DEFAULT = Sandbox.of(settings.WARPDRILL_JUDGE["OPTIONS"]["sandbox"])


_judge_sandbox_from_settings()


class WorkerProcess:
    """A `celery worker` child process; its output is kept for failure messages."""

    def __init__(self, env: dict[str, str], queues: str = "cpu,gpu", concurrency: int = 1, name: str = "w1"):
        cmd = [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", queues, "-c", str(concurrency),
               "--loglevel", "INFO", "-n", f"{name}@%h", "--without-gossip", "--without-mingle", "--without-heartbeat"]
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True, start_new_session=True)
        self.lines: list[str] = []
        self.ready = threading.Event()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        for line in self.proc.stdout:
            self.lines.append(line)
            if " ready." in line:
                self.ready.set()

    def wait_ready(self, timeout: float = 300.0) -> None:
        # A worker builds (or finds in the cache) the emulator's runtime before it says "ready":
        # seconds on an idle machine, minutes on a 2-core machine under load.
        if not self.ready.wait(timeout):
            self.stop()
            raise RuntimeError("celery worker did not start:\n" + "".join(self.lines[-40:]))

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Kill the whole worker process group (the main process and its pool children)."""
        try:
            os.killpg(self.proc.pid, sig)
        except ProcessLookupError:
            pass

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.kill(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill(signal.SIGKILL)
                self.proc.wait(10)

    def output(self) -> str:
        return "".join(self.lines)


def worker_env(**extra: str) -> dict[str, str]:
    """The environment of a worker that shares this test run's database and broker."""
    env = dict(os.environ)
    env.update(
        {
            "DATABASE_URL": database_url_for_worker(),
            "WARPDRILL_TESTING": "1",
            "WARPDRILL_BACKEND": settings.WARPDRILL_JUDGE["BACKEND"],
            "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
            "PYTHONUNBUFFERED": "1",
        }
    )
    env.update(extra)
    return env


@pytest.fixture
def celery_worker_process(transactional_db):
    """Start a real Celery worker process on the test database; stop it after the test.

    Tests using it must commit their data (transactional_db), as the worker is another process.
    """
    worker = WorkerProcess(worker_env())
    worker.wait_ready()
    yield worker
    worker.stop()


@pytest.fixture
def start_worker(transactional_db):
    """A factory of worker processes (for fault tests that kill and replace workers)."""
    workers: list[WorkerProcess] = []

    def start(**kwargs) -> WorkerProcess:
        worker = WorkerProcess(worker_env(), **kwargs)
        worker.wait_ready()
        workers.append(worker)
        return worker

    yield start
    for w in workers:
        w.stop()


class SentTasks(list):
    """The ids of the grading task messages that grader.actions sent, in order, recorded instead of
    queued (the queue itself is tested in tests/integration). `calls` keeps each send's
    (submission id, priority, exam) too, and `queues` each one's queue of its own. Messages go out
    after the commit: run the code under `until_commit()` (nothing is sent inside it), then `commit()`
    runs the held commit callbacks."""

    def __init__(self, capture_on_commit):
        super().__init__()
        self.calls: list[tuple[int, int | None, bool]] = []
        self.queues: dict[int, str] = {}  # submission id -> the queue it was sent to ("": by grader.routing)
        self._capture = capture_on_commit
        self._held: list = []

    def record(self, submission_id: int, priority: int | None = None, exam: bool = False, queue: str = "") -> None:
        self.append(submission_id)
        self.calls.append((submission_id, priority, exam))
        self.queues[submission_id] = queue

    def with_exam(self) -> list[tuple[int, bool]]:
        """(submission id, sent to the exam task?) of every send, in order."""
        return [(pk, exam) for pk, _, exam in self.calls]

    def until_commit(self):
        """A context manager holding the on-commit callbacks of its block for `commit()`."""
        from contextlib import contextmanager

        @contextmanager
        def held():
            with self._capture(execute=False) as callbacks:
                yield
            self._held.extend(callbacks)

        return held()

    def commit(self) -> list[int]:
        """Run the held commit callbacks (live-status renewals and task messages); returns the ids sent by them."""
        before = len(self)
        held, self._held = self._held, []
        for callback in held:
            callback()
        return self[before:]


def _no_send(submission_id: int, priority: int | None = None, exam: bool = False, queue: str = "") -> None:
    """Stands in for grader.actions._send, with its signature, so that a call it would refuse fails here too."""


@pytest.fixture
def not_sent(monkeypatch):
    """Grading task messages are dropped instead of sent to Celery: submissions stay QUEUED until a test
    grades them itself (grader.grading). Request it, or mark a module with
    `pytest.mark.usefixtures("not_sent")`; sent_tasks records the messages instead."""
    from grader import actions as grader_actions

    monkeypatch.setattr(grader_actions, "_send", _no_send)


@pytest.fixture
def sent_tasks(monkeypatch, django_capture_on_commit_callbacks) -> SentTasks:
    """Record grading task messages instead of sending them (see SentTasks)."""
    from grader import actions as grader_actions

    recorder = SentTasks(django_capture_on_commit_callbacks)
    monkeypatch.setattr(grader_actions, "_send", recorder.record)
    return recorder


@pytest.fixture
def bank(transactional_db):
    """Import the shipped problem bank into the test database."""
    from problems.services import import_bank

    outcomes = import_bank(ROOT / "problems" / "bank")
    errors = [o for o in outcomes if isinstance(o, Exception)]
    assert not errors, errors
    return outcomes


@pytest.fixture
def make_student(db):
    """Create a student user (in the Student group) with a known password."""
    from django.contrib.auth.models import Group, User

    def make(username: str = "alice", password: str = "pass-1234-word") -> User:
        user = User.objects.create_user(username=username, password=password)
        group, _ = Group.objects.get_or_create(name="Student")
        user.groups.add(group)
        return user

    return make


def pytest_unconfigure(config):
    """Remove this run's private folder under var/test/ (SQLite test DB, embedded broker)."""
    import shutil

    if not os.environ.get("PYTEST_XDIST_WORKER"):
        shutil.rmtree(settings.VAR_DIR, ignore_errors=True)


@pytest.fixture(autouse=True)
def _forget_signups_per_address():
    """Sign-ups are counted per address in the shared "live" cache (accounts.actions.signup_wait_s), and
    every test client comes from 127.0.0.1: each test starts with no sign-ups counted."""
    from django.core.cache import cache, caches

    cache.clear()
    # Sign-up counts, password tries, and submissions' polled states (grader.live): a rolled-back
    # test's ids are taken again by the next.
    caches["live"].clear()
    yield


@pytest.fixture(autouse=True)
def _forget_version_problems():
    """authoring.progress caches each version's problem ("a version never moves"): true in a database,
    not across tests, whose rolled-back ids are taken again by other problems' versions."""
    yield
    from authoring import progress

    progress._VERSION_PROBLEM.clear()


@pytest.fixture(autouse=True)
def _default_language_after_each_test():
    """A test that activates Korean (translation.activate, or a request with Accept-Language: ko in the
    same thread) must not leave it active for the next test's messages."""
    yield
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)


# Tests that fail only after other test modules ran before them in the full suite (they pass alone and
# in their own folder): a state leak between modules not yet found. They still run; a failure is
# reported as xfail, a pass as xpass, until the leak is fixed. Listed by node id. Empty since
# 2026-12-05: the two listed on 2026-12-02 pass in the full suite's order (pytest-django runs database
# tests first, so tests/access's page test has only its own folder before it there too); test_var_dir's
# GPU-cache test compared with the test process's tempfile.gettempdir(), state cached at its first call,
# and now compares with the probed site process's own.
ORDER_DEPENDENT: frozenset[str] = frozenset()


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.nodeid in ORDER_DEPENDENT:
            item.add_marker(pytest.mark.xfail(reason="fails only after other modules in the full suite: "
                                                     "a state leak between test modules, not yet found", strict=False))
