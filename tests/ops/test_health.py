"""/healthz, /readyz and `manage.py healthcheck` (compose's health checks)."""
from __future__ import annotations

import os
import time

import pytest
from django.core.management import CommandError, call_command

from ops import health
from tests.conftest import WorkerProcess, worker_env


@pytest.fixture
def workers(monkeypatch):
    """Set the workers that answer the readiness broadcast: {node: [queues]}."""
    answering: dict[str, list[str]] = {}
    monkeypatch.setattr(health, "worker_queues", lambda timeout=health.READY_TIMEOUT_S: dict(answering))
    return answering


def test_healthz_answers_without_touching_anything(client):
    """Liveness: 200 'ok' without the database (this test has no database access: a query would fail
    it), for a probe from the container itself (a Host not in ALLOWED_HOSTS) as for anyone."""
    response = client.get("/healthz", HTTP_HOST="172.18.0.5:8000")
    assert response.status_code == 200 and response.content == b"ok\n"


@pytest.mark.django_db
def test_readyz_is_ready_when_every_configured_queue_has_a_worker(client, workers, settings):
    workers.update({"cpu@a": ["cpu"], "exam@b": ["exam"]})
    response = client.get("/readyz", HTTP_HOST="127.0.0.1:8000")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["ready"] is True and body["database"] == "ok" and body["broker"] == "ok"
    assert body["queues"] == {"cpu": ["cpu@a"], "exam": ["exam@b"]}


@pytest.mark.django_db
def test_readyz_is_not_ready_when_a_queue_has_no_worker(client, workers, settings):
    """503 and the missing queue by name; the gpu queue is needed only when GPU workers are configured."""
    workers.update({"cpu@a": ["cpu", "gpu"]})
    body = client.get("/readyz").json()
    assert client.get("/readyz").status_code == 503
    assert body["ready"] is False and body["missing_queues"] == ["exam"]
    settings.WARPDRILL_GPU_WORKERS = True
    workers.update({"exam@b": ["exam"]})
    assert client.get("/readyz").status_code == 200
    workers.pop("cpu@a")
    assert client.get("/readyz").json()["missing_queues"] == ["cpu", "gpu"]


@pytest.mark.django_db
def test_readyz_is_not_ready_when_the_database_or_broker_fails(client, workers, monkeypatch):
    workers.update({"cpu@a": ["cpu"], "exam@b": ["exam"]})
    monkeypatch.setattr(health, "check_database", lambda: "OperationalError: connection refused")
    response = client.get("/readyz")
    assert response.status_code == 503 and response.json()["database"].startswith("OperationalError")
    monkeypatch.setattr(health, "check_database", lambda: None)
    monkeypatch.setattr(health, "check_broker", lambda timeout=2.0: "OperationalError: Error 111 connecting")
    response = client.get("/readyz")
    assert response.status_code == 503 and response.json()["broker"].startswith("OperationalError")
    assert response.json()["workers"] == {}, "the workers are not asked through a broker that is down"


@pytest.mark.django_db
def test_the_real_database_check_reports_a_broken_connection(monkeypatch):
    from django.db import connection

    assert health.check_database() is None

    def broken(*args, **kwargs):
        raise RuntimeError("no database")

    monkeypatch.setattr(connection, "cursor", broken)
    assert health.check_database() == "RuntimeError: no database"


def test_the_broker_check_fails_fast_on_an_unreachable_broker():
    """A Redis that refuses connections is reported within the probe's timeout, not after retries."""
    from config.celery import app

    # broker_write_url wins over the environment's CELERY_BROKER_URL; no filesystem transport override.
    old = {key: app.conf.get(key) for key in ("broker_write_url", "broker_transport")}
    app.conf.update(broker_write_url="redis://127.0.0.1:1/0", broker_transport=None)
    try:
        started = time.monotonic()
        problem = health.check_broker(timeout=1.0)
    finally:
        app.conf.update(old)
    assert problem and ("111" in problem or "refused" in problem.lower()), problem
    assert time.monotonic() - started < 10


def test_healthcheck_command_beat_reads_the_schedule_files_age(tmp_path):
    schedule = tmp_path / "celerybeat-schedule"
    with pytest.raises(CommandError, match="no schedule file"):
        call_command("healthcheck", "beat", str(schedule))
    schedule.write_text("x")
    call_command("healthcheck", "beat", str(schedule), max_age=60)
    old = time.time() - 3600
    os.utime(schedule, (old, old))
    with pytest.raises(CommandError, match="not written for"):
        call_command("healthcheck", "beat", str(schedule), max_age=60)


def test_healthcheck_command_http_fails_on_a_refused_connection():
    with pytest.raises(CommandError, match="unhealthy"):
        call_command("healthcheck", "http", "http://127.0.0.1:1/healthz", timeout=1)


@pytest.mark.integration
@pytest.mark.slow
def test_readyz_and_the_worker_health_check_with_a_real_worker(client, transactional_db, request):
    """A real worker consuming cpu and exam makes /readyz ready within its 2 s broadcast; the compose
    health check finds the worker by its node name, and not a node that does not exist."""
    assert client.get("/readyz").status_code == 503
    worker = WorkerProcess(worker_env(WARPDRILL_BACKEND="dummy"), queues="cpu,exam", name="ready")
    request.addfinalizer(worker.stop)
    worker.wait_ready()
    for _ in range(20):  # the worker's remote control may answer a moment after "ready."
        response = client.get("/readyz")
        if response.status_code == 200:
            break
        time.sleep(0.5)
    body = response.json()
    assert response.status_code == 200, (body, worker.output()[-2000:])
    node = body["queues"]["cpu"][0]
    assert node.startswith("ready@") and body["queues"]["exam"] == [node]
    assert body["seconds"] < 10
    call_command("healthcheck", "worker", node)
    with pytest.raises(CommandError, match="did not answer"):
        call_command("healthcheck", "worker", "nobody@nowhere", timeout=1)
