"""A course's harness.py is contained like student code, driven through Validate on a real Celery worker
process: a harness that opens a socket, reads the project's settings or its database, loops for ever,
sleeps past its time limit or allocates past its memory limit ends its validation run INTERNAL_ERROR at
once (not retried), the author reads a clear error with harness.py's line on the run's page, nothing of
the project reaches the harness, and the worker lives on to validate a good package next."""
from __future__ import annotations

import time
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from authoring import actions
from courses.models import Course, Membership, Role
from grader.core.results import stored_message
from tests.conftest import WorkerProcess, worker_env

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True), pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
TIME_LIMIT_S = 4  # the worker's WARPDRILL_HARNESS_TIME_S
MEMORY_MIB = 512  # the worker's WARPDRILL_HARNESS_MEMORY_MB


def _database_target() -> str:
    """Python that reaches for the test database from inside the box: its SQLite file, or PostgreSQL's
    local socket (the network has its own test, opens-a-socket)."""
    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("sqlite3"):
        return f'open({str(db["NAME"])!r}, "rb").read(100)'
    return 'socket.socket(socket.AF_UNIX).connect("/var/run/postgresql/.s.PGSQL.5432")'


def _harness(body: str) -> str:
    """A harness.py whose generate() runs `body` (one line, at line 8) before it makes the skeleton's inputs."""
    return ("import socket\nimport time\n\nimport numpy as np\n\n\ndef generate(case, rng):\n"
            f"    {body}\n"
            "    n = case[\"n\"]\n"
            "    return {\"x\": rng.standard_normal(n, dtype=np.float32), \"y\": np.zeros(n, np.float32),\n"
            "            \"a\": np.float32(1.5), \"n\": n}\n\n\n"
            "def reference(inputs):\n    return {\"y\": inputs[\"a\"] * inputs[\"x\"]}\n")


LINE = 8  # the body's line in _harness
# slug -> (generate()'s first line, what the author must read)
HOSTILE = {
    "opens-a-socket": ('socket.create_connection(("127.0.0.1", 5432), timeout=2)',
                       ["OSError", "Address family not supported"]),
    "reads-the-settings": (f'open({str(ROOT / "config" / "settings.py")!r}).read()',
                           ["FileNotFoundError", "settings.py"]),
    "reads-the-database": (_database_target(), ["FileNotFoundError"]),
    "loops-for-ever": ("while True: pass", ["TimeoutError", f"ran past harness.py's time limit of {TIME_LIMIT_S} s"]),
    "sleeps-past-its-limit": ("time.sleep(600)", ["TimeoutError", f"time limit of {TIME_LIMIT_S} s"]),
    "allocates-past-its-limit": ("hog = [np.ones(16 << 20, np.uint8) for _ in range(1000)]",
                                 ["MemoryError", f"past harness.py's memory limit of {MEMORY_MIB} MiB"]),
}


@pytest.fixture
def limited_worker(transactional_db):
    """A worker whose harness limits are short enough to test (4 s, 512 MiB)."""
    worker = WorkerProcess(worker_env(WARPDRILL_HARNESS_TIME_S=str(TIME_LIMIT_S),
                                      WARPDRILL_HARNESS_MEMORY_MB=str(MEMORY_MIB)))
    worker.wait_ready()
    yield worker
    worker.stop()


def _wait(runs, worker, seconds: float = 300) -> None:
    deadline = time.monotonic() + seconds
    while any(run.outcome() == "running" for run in runs):
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for the worker:\n" + worker.output()[-4000:])
        time.sleep(0.5)


def test_hostile_harnesses_are_contained_and_their_authors_read_what_happened(limited_worker):
    prof = User.objects.create_user("prof")
    course = Course.objects.create(name="PP", code="PP-H")
    Membership.objects.create(course=course, user=prof, role=Role.INSTRUCTOR)
    runs = {}
    for slug, (body, _words) in HOSTILE.items():
        problem = actions.create_problem(course, prof, slug, slug)
        files = dict(problem.versions.get().files)
        del files["wrong/no_bounds_check.cu"]  # one source per run: the solution
        files["harness.py"] = _harness(body)
        version, _ = actions.save_version(problem, prof, files, "a hostile harness")
        runs[slug] = actions.start_validation(version, prof)
    _wait(runs.values(), limited_worker)

    client = Client()
    client.force_login(prof)
    for slug, (_body, words) in HOSTILE.items():
        run = runs[slug]
        item = run.items.select_related("submission").get()
        submission = item.submission
        assert submission.verdict == "INTERNAL_ERROR", (slug, submission.verdict, limited_worker.output()[-4000:])
        assert submission.tries == 1, slug  # a harness fault is not retried
        assert run.outcome() == "failed"
        message = str(stored_message(submission.result))
        assert f"harness.py line {LINE}" in message, (slug, message)
        assert all(w in message for w in words), (slug, message)
        page = client.get(reverse("authoring:run", args=[course.code, slug, run.pk])).content.decode()
        assert 'class="harness-error"' in page and f"harness.py line {LINE}" in page, slug
    # Nothing of the project was read: the secret settings and the database stayed out of every result.
    secret = settings.WARPDRILL_SEED_SECRET
    assert secret and not any(secret in str(run.items.get().submission.result) for run in runs.values())

    # The worker lived through all of them and validates a good package next.
    assert limited_worker.proc.poll() is None
    good = actions.create_problem(course, prof, "scale-good", "Scale")
    run = actions.start_validation(good.versions.get(), prof)
    _wait([run], limited_worker)
    assert run.outcome() == "passed", limited_worker.output()[-4000:]
