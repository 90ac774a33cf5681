"""Workers on other hosts: two worker processes with different host names and queues against the same
broker and database; one is killed mid-grading and the work still completes on the other.

Worker A is `cpu@host-a` (queue cpu), worker B is `exam@host-b` (queue exam, with beat, so its sweeper
re-queues what A left; it is told to consume cpu too while A grades). Both grade on the dummy backend (no compiler to build), slowed by
'slower-add's harness. B also serves its metrics (the worker-side exporter, multiprocess mode) and logs JSON.
"""
from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
import urllib.request

import pytest
from prometheus_client.parser import text_string_to_metric_families

from grader.models import Submission
from tests.conftest import ROOT, WorkerProcess, worker_env
from tests.exams.conftest import course, exam, fast_password_hasher, kernel_problem, people  # noqa: F401 (fixtures)
from tests.faults.conftest import SLOW_CASE_S, SLOW_HARNESS, SLOW_YAML, SOLUTION, graded, poll, student, submit  # noqa: F401

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


class HostWorker(WorkerProcess):
    """A `celery worker` named NODE (e.g. cpu@host-a) on QUEUES, with extra arguments (-B)."""

    def __init__(self, node: str, queues: str, env: dict[str, str], args: tuple[str, ...] = ()):
        cmd = [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", queues, "-c", "1", "--loglevel", "INFO",
               "-n", node, "--without-gossip", "--without-mingle", "--without-heartbeat", *args]
        self.node = node
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True, start_new_session=True)
        self.lines = []
        self.ready = threading.Event()
        threading.Thread(target=self._pump, daemon=True).start()


@pytest.fixture
def slower_problem(transactional_db):
    """'slower-add': slow-add whose three cases take 4 s each, so that host B starts while A grades."""
    from problems.core.package import parse_package
    from problems.services import import_package
    from tests.packages import tiny_package_files

    harness = SLOW_HARNESS.replace(f"time.sleep({SLOW_CASE_S})", "time.sleep(4)")
    assert harness != SLOW_HARNESS
    import_package(parse_package(tiny_package_files(**{"problem.yaml": SLOW_YAML.replace("slug: slow-add", "slug: slower-add"),
                                                       "harness.py": harness})))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def hosts(tmp_path, request):
    workers = []

    def start(node: str, queues: str, args=(), **env) -> HostWorker:
        base = {"WARPDRILL_BACKEND": "dummy", "WARPDRILL_STUCK_AFTER_S": "4", "WARPDRILL_SWEEP_EVERY_S": "1",
                "CELERY_VISIBILITY_TIMEOUT": "3600"}  # the sweeper, not the broker, brings A's work back
        worker = HostWorker(node, queues, worker_env(**{**base, **env}), args)
        workers.append(worker)
        worker.wait_ready(90)
        return worker

    yield start
    for worker in workers:
        worker.stop()


def scrape(port: int, token: str) -> dict:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/metrics", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        text = response.read().decode()
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def test_a_worker_on_another_host_is_killed_and_the_work_completes(slower_problem, student, exam, people, hosts,
                                                                 client, tmp_path):
    from exams.actions.attempts import start_attempt, submit_kernel

    token, port = "scrape-token-9", free_port()
    (tmp_path / "metrics").mkdir()
    b = hosts("exam@host-b", "exam", args=("-B", "-s", str(tmp_path / "beat")),
              WARPDRILL_WORKER_METRICS_PORT=str(port), WARPDRILL_WORKER_METRICS_ADDR="127.0.0.1",
              WARPDRILL_METRICS_TOKEN=token, PROMETHEUS_MULTIPROC_DIR=str(tmp_path / "metrics"), LOG_FORMAT="json")
    a = hosts("cpu@host-a", "cpu")
    pk = submit(student, "slower-add", SOLUTION)
    poll(student, pk, lambda d: d["status"] in ("COMPILING", "RUNNING"), 60, [a, b])  # A, cpu's only worker, grades it

    # Host B takes the cpu queue too (scaling out at run time, as `celery control add_consumer` does).
    from config.celery import app

    app.control.add_consumer("cpu", destination=[b.node], reply=True, timeout=5)
    for _ in range(20):
        ready = client.get("/readyz").json()
        if ready["ready"] and len(ready["queues"]["cpu"]) == 2:
            break
        time.sleep(0.25)
    assert ready["queues"] == {"cpu": ["cpu@host-a", "exam@host-b"], "exam": ["exam@host-b"]}, ready

    a.kill()  # the whole of host A: main process and pool
    a.proc.wait(10)
    killed = time.monotonic()
    assert Submission.objects.get(pk=pk).status in ("COMPILING", "RUNNING")  # left half graded

    # Exam work goes on meanwhile on host B's exam queue.
    attempt = start_attempt(exam, people["alice"])
    exam_sub = submit_kernel(attempt.items.get(kind="kernel"), people["alice"], SOLUTION)

    data = poll(student, pk, graded, 120, [a, b])
    recovered_s = time.monotonic() - killed
    assert data["verdict"] and data["verdict"] != "INTERNAL_ERROR", data
    assert f"submission {pk} graded" in b.output() and f"submission {pk} graded" not in a.output()
    assert "re-queued 1" in b.output()  # by its sweeper (stuck, or a dead grader's stale heartbeat)
    assert recovered_s < 60, recovered_s
    for _ in range(100):
        if Submission.objects.get(pk=exam_sub.pk).status == "GRADED":
            break
        time.sleep(0.2)
    assert Submission.objects.get(pk=exam_sub.pk).status == "GRADED", b.output()[-3000:]

    # Host B logs JSON (production's format): every line of its gradings names the submission and backend,
    # the exam one its attempt too.
    records = [json.loads(line) for line in b.lines if line.startswith("{")]
    assert any(r["message"].endswith(" ready.") for r in records), b.output()[-2000:]
    for sid, attempt_id in ((pk, None), (exam_sub.pk, attempt.pk)):
        mine = [r for r in records if r.get("submission_id") == sid]
        assert any(f"submission {sid} graded" in r["message"] for r in mine), b.output()[-3000:]
        assert all(r.get("backend") == "dummy" and r.get("exam_attempt_id") == attempt_id for r in mine), mine

    after = client.get("/readyz").json()
    assert after["queues"] == {"cpu": ["exam@host-b"], "exam": ["exam@host-b"]}

    # Host B's exporter: both of its gradings, by backend and queue, timed per stage; no token, no page.
    metrics = scrape(port, token)
    verdicts = {dict(k[1])["queue"]: v for k, v in metrics.items() if k[0] == "warpdrill_verdicts_total"}
    assert verdicts == {"cpu": 1, "exam": 1}, verdicts
    assert metrics[("warpdrill_grading_seconds_count", (("backend", "dummy"), ("stage", "total")))] == 2
    assert metrics[("warpdrill_grading_seconds_count", (("backend", "dummy"), ("stage", "run")))] == 2
    with pytest.raises(urllib.error.HTTPError) as refused:
        scrape(port, "wrong")
    assert refused.value.code == 404
