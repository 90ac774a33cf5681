"""Prometheus metrics: the web tier's /metrics page and the worker-side exporter.

Processes that count (gunicorn workers, Celery pool processes) write to the default registry. With
PROMETHEUS_MULTIPROC_DIR set (the start scripts in platform/ set it), prometheus-client keeps every
process's values in files there and the page merges them (multiprocess mode); without it (make dev,
tests) the values of the serving process are shown.

State that belongs to no process is read when the page is scraped (StateCollector): the messages
waiting in each Celery queue, exam attempts in progress and submissions by status.

The page is protected: with WARPDRILL_METRICS_TOKEN set, a request needs `Authorization: Bearer
<token>`; without one, only loopback clients are served. Anything else gets 404, as if there were
no such page.
"""
from __future__ import annotations

import hmac
import logging
import os
import time

from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily

log = logging.getLogger(__name__)

# Grading stages, in order: waiting in the queue, compiling, running the tests, checking
# (sanitizers, the race check), and the whole task.
STAGES = ("queue", "compile", "run", "check", "total")
_LATENCY_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600)

GRADING_SECONDS = Histogram("warpdrill_grading_seconds", "Seconds one grading spent in a stage, by backend.",
                            ["backend", "stage"], buckets=_LATENCY_BUCKETS)
VERDICTS = Counter("warpdrill_verdicts", "Final verdicts stored, by backend and queue.", ["backend", "queue", "verdict"])
PLATFORM_FAULTS = Counter("warpdrill_platform_faults", "Gradings interrupted by a platform fault (retried or given up).",
                          ["backend"])
RETRIES = Counter("warpdrill_task_retries", "Celery task retries, by task.", ["task"])
CHILD_RESTARTS = Counter("warpdrill_child_restarts",
                         "Warm grading children killed and replaced (GPU main/compiler/sanitizer children).",
                         ["kind", "slot"])
SANDBOX_KILLS = Counter("warpdrill_sandbox_kills", "Sandboxed boxes killed by the watchdog, by reason (time, memory, disk).",
                        ["reason"])
# The web's requests and database statements are django-prometheus's (config/settings.py: its middleware
# and database backends): django_http_requests_latency_seconds_by_view_method, django_db_execute_total, ...


def multiprocess_dir() -> str | None:
    """The multiprocess folder when multiprocess mode is on (PROMETHEUS_MULTIPROC_DIR), else None."""
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


def child_restarted(kind: str, slot: str) -> None:
    """Count a warm child killed and replaced: kind "gpu", slot "main" | "compiler" | a sanitizer tool."""
    CHILD_RESTARTS.labels(kind, slot).inc()


def on_core_event(event: str, **labels: str) -> None:
    """The core's events (grader.core.observe) as metrics: sandbox kills and child restarts."""
    if event == "sandbox_kill":
        SANDBOX_KILLS.labels(labels.get("reason", "")).inc()
    elif event == "child_restart":
        child_restarted(labels.get("kind", ""), labels.get("slot", ""))


class StageTimer:
    """Times one grading's stages from the judge's progress callbacks (stage "compiling" | "running" |
    "checking") and observes them in GRADING_SECONDS when `finish` is called."""

    _NAMES = {"compiling": "compile", "running": "run", "checking": "check"}

    def __init__(self, backend: str, queued_seconds: float | None = None):
        self.backend = backend
        self.started = time.monotonic()
        self._stage: str | None = None
        self._since = self.started
        if queued_seconds is not None and queued_seconds >= 0:
            GRADING_SECONDS.labels(backend, "queue").observe(queued_seconds)

    def progress(self, stage: str) -> None:
        """The judge reported `stage`: close the previous stage when it changed."""
        name = self._NAMES.get(stage, "run")
        if name != self._stage:
            self._close()
            self._stage = name

    def _close(self) -> None:
        now = time.monotonic()
        if self._stage is not None:
            GRADING_SECONDS.labels(self.backend, self._stage).observe(now - self._since)
        self._since = now

    def finish(self) -> None:
        """The grading ended (a verdict or a fault): close the open stage and observe the total."""
        self._close()
        self._stage = None
        GRADING_SECONDS.labels(self.backend, "total").observe(time.monotonic() - self.started)


def queue_depths(queues: list[str]) -> dict[str, int]:
    """{queue: messages waiting} from the broker (kombu's passive declare; Redis sums the priority lists)."""
    from config.celery import app

    depths: dict[str, int] = {}
    with app.connection_for_read() as conn:
        channel = conn.default_channel
        for queue in queues:
            try:
                depths[queue] = int(channel.queue_declare(queue=queue, passive=True).message_count)
            except Exception:  # a queue nobody declared yet holds nothing
                depths[queue] = 0
    return depths


class StateCollector:
    """Gauges read at scrape time: queue depth per queue, exam attempts in progress, submissions by status."""

    def collect(self):
        from django.db.models import Count

        from grader.models import Submission
        from ops.health import configured_queues

        depth = GaugeMetricFamily("warpdrill_queue_depth", "Messages waiting in a Celery queue.", labels=["queue"])
        try:
            for queue, n in queue_depths(configured_queues()).items():
                depth.add_metric([queue], n)
        except Exception:
            log.warning("metrics: the broker did not answer for the queue depths", exc_info=True)
        yield depth

        attempts = GaugeMetricFamily("warpdrill_exam_attempts_in_progress", "Exam attempts started and not yet submitted or closed.")
        statuses = GaugeMetricFamily("warpdrill_submissions_not_graded", "Submissions not graded yet, by status.",
                                     labels=["status"])
        try:
            from exams.models import AttemptState, ExamAttempt

            attempts.add_metric([], ExamAttempt.objects.filter(state=AttemptState.OPEN).count())
            rows = Submission.objects.exclude(status="GRADED").values("status").annotate(n=Count("id"))
            for row in rows:
                statuses.add_metric([row["status"]], row["n"])
        except Exception:
            log.warning("metrics: the database did not answer", exc_info=True)
        yield attempts
        yield statuses


def registry_for_scrape(with_state: bool = True) -> CollectorRegistry:
    """The registry a scrape reads: every process's values (multiprocess mode) or this process's, plus
    the state read now when `with_state`."""
    if multiprocess_dir():
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    else:
        registry = CollectorRegistry()
        for collector in list(REGISTRY._collector_to_names):  # this process's metrics, the default collectors included
            registry.register(collector)
    if with_state:
        registry.register(StateCollector())
    return registry


def authorized(headers_get, remote_addr: str) -> bool:
    """Whether a scrape may be served: the bearer token when WARPDRILL_METRICS_TOKEN is set, else a loopback client."""
    from django.conf import settings

    token = settings.WARPDRILL_METRICS_TOKEN
    if token:
        given = headers_get("Authorization") or ""
        return hmac.compare_digest(given.encode(), f"Bearer {token}".encode())
    return remote_addr in ("127.0.0.1", "::1")


def metrics_response(request):
    """The /metrics page (Prometheus text format), or 404 when the request is not authorized."""
    from django.http import HttpResponse, HttpResponseNotFound

    if not authorized(request.headers.get, request.META.get("REMOTE_ADDR", "")):
        return HttpResponseNotFound("Not found\n", content_type="text/plain")
    return HttpResponse(generate_latest(registry_for_scrape()), content_type=CONTENT_TYPE_LATEST)
