"""Celery signal handlers: log context and metrics for grading tasks, and the worker-side exporter.

- task_prerun/task_postrun bind the submission id, exam attempt id and backend to the log context of
  a grading task (ops.logcontext) and count its verdict (ops.metrics.VERDICTS).
- task_retry counts retries.
- request_finished clears a web request's log context (ops.middleware.RequestIdMiddleware bound it).
- worker_init starts the worker's metrics exporter when WARPDRILL_WORKER_METRICS_PORT is set
  (ops.exporter); worker_process_shutdown tells multiprocess mode that a pool process is gone.
"""
from __future__ import annotations

import logging
import os

from celery.signals import task_postrun, task_prerun, task_retry, worker_init, worker_process_shutdown
from django.core.signals import request_finished

from ops import logcontext, metrics

log = logging.getLogger(__name__)

GRADING_TASKS = {"grader.tasks.grade_submission", "grader.tasks.grade_exam_submission"}


def _exam_attempt_id(submission_id) -> int | None:
    from grader.models import Submission

    try:
        return (Submission.objects.filter(pk=submission_id).values_list("exam_item__attempt_id", flat=True).first())
    except Exception:  # the log context must never stop a grading
        return None


# task id -> the token that restores the log context from before the task (an eager task runs inside a
# web request, whose request id must come back afterwards).
_tokens: dict[str, object] = {}


@task_prerun.connect
def bind_grading_context(task_id=None, task=None, args=None, kwargs=None, **_):
    """Bind the task id, and for a grading task the submission id, exam attempt id and backend."""
    fields = {"task_id": task_id, "submission_id": None, "exam_attempt_id": None, "backend": None}
    if task is not None and task.name in GRADING_TASKS:
        submission_id = (args or [None])[0] if args else (kwargs or {}).get("submission_id")
        from django.conf import settings

        fields.update(submission_id=submission_id, backend=settings.WARPDRILL_JUDGE["BACKEND"],
                      exam_attempt_id=_exam_attempt_id(submission_id))
    _tokens[task_id] = logcontext.bind(**fields)


@task_postrun.connect
def count_verdict(task_id=None, task=None, retval=None, state=None, **_):
    """Count a grading task's final verdict (its return value), then restore the log context from before it."""
    try:
        if task is not None and task.name in GRADING_TASKS and isinstance(retval, str) and state == "SUCCESS":
            queue = (task.request.delivery_info or {}).get("routing_key") or ""
            metrics.VERDICTS.labels(logcontext.current().get("backend") or "", queue, retval).inc()
    finally:
        token = _tokens.pop(task_id, None)
        if token is not None:
            try:
                logcontext.reset(token)
            except ValueError:  # bound in another context (cannot happen in a worker): start clean
                logcontext.clear()
        else:
            logcontext.clear()


@task_retry.connect
def count_retry(request=None, reason=None, **_):
    """Count a task retry (a platform fault's backoff)."""
    metrics.RETRIES.labels(getattr(request, "task", "") or "").inc()


@worker_init.connect
def start_exporter(**_):
    """Serve this worker's metrics on WARPDRILL_WORKER_METRICS_PORT (unset: no exporter)."""
    port = os.environ.get("WARPDRILL_WORKER_METRICS_PORT")
    if port:
        from ops.exporter import start

        start(int(port), os.environ.get("WARPDRILL_WORKER_METRICS_ADDR", "0.0.0.0"))


@worker_process_shutdown.connect
def forget_pool_process(pid=None, **_):
    """Multiprocess mode: a pool process that exits stops reporting its live gauges."""
    if metrics.multiprocess_dir():
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid or os.getpid())


@request_finished.connect
def clear_request_context(**_):
    """The web request is done: its request id leaves the log context."""
    logcontext.clear()
