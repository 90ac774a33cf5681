"""Health and readiness probes for load balancers and compose health checks.

/healthz: the process is up and answers (no dependency is touched).
/readyz: the database answers a query, the broker accepts a connection, and at least one worker
consuming each configured queue answered a remote-control broadcast within READY_TIMEOUT_S.
"""
from __future__ import annotations

import time

from django.conf import settings
from django.db import connection

# The most a readiness probe waits for worker replies (the broadcast's timeout), in seconds.
READY_TIMEOUT_S = 2.0


def configured_queues() -> list[str]:
    """The Celery queues this site needs consumed: cpu and exam, plus gpu when GPU workers are configured."""
    queues = ["cpu", "exam"]
    if settings.WARPDRILL_GPU_WORKERS:
        queues.append("gpu")
    return queues


def check_database() -> str | None:
    """None when the default database answers `SELECT 1`, else the error's text."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any failure is "not ready": the probe reports it, never raises
        return f"{type(exc).__name__}: {exc}"
    return None


def check_broker(timeout: float = READY_TIMEOUT_S) -> str | None:
    """None when the Celery broker accepts a connection within `timeout` seconds, else the error's text."""
    from config.celery import app

    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=timeout)
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


def worker_queues(timeout: float = READY_TIMEOUT_S) -> dict[str, list[str]]:
    """{worker node name: [queue names it consumes]} for every worker that answered within `timeout` s."""
    from config.celery import app

    replies = app.control.inspect(timeout=timeout).active_queues() or {}
    return {node: sorted(q["name"] for q in queues or []) for node, queues in replies.items()}


def readiness(timeout: float = READY_TIMEOUT_S) -> tuple[bool, dict]:
    """Check the database, the broker and the workers; return (ready, report).

    report: {"database": "ok" | error, "broker": "ok" | error, "workers": {node: [queues]},
    "queues": {queue: [nodes consuming it]}, "missing_queues": [...], "seconds": float}.
    The workers are asked only when the broker answered.
    """
    started = time.monotonic()
    report: dict = {}
    db_error = check_database()
    report["database"] = db_error or "ok"
    broker_error = check_broker(timeout)
    report["broker"] = broker_error or "ok"
    workers: dict[str, list[str]] = {}
    if broker_error is None:
        try:
            workers = worker_queues(timeout)
        except Exception as exc:
            report["broker"] = f"{type(exc).__name__}: {exc}"
    report["workers"] = workers
    queues = {q: sorted(node for node, qs in workers.items() if q in qs) for q in configured_queues()}
    report["queues"] = queues
    report["missing_queues"] = [q for q, nodes in queues.items() if not nodes]
    report["seconds"] = round(time.monotonic() - started, 3)
    ready = db_error is None and report["broker"] == "ok" and not report["missing_queues"]
    return ready, report
