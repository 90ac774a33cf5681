"""The playground's Celery task: takes an id, safe to run twice, writes only through playground.actions."""
from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings

from grader import retries
from grader.core.backends.registry import get_backend
from grader.core.errors import PlatformError

from . import actions
from .core.run import PlaygroundRequest
from .core.run import run_playground as run_core
from .core.spec import ArgumentSpec, parse_arguments, parse_launch

log = logging.getLogger(__name__)

MAX_RETRIES = 3
MAX_TRIES = 6  # starts without a result (killed workers, re-deliveries) before the run is given up


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, max_retries=MAX_RETRIES)
def run_playground(self, run_id: int) -> str | None:
    """Run one playground run on this worker's judge backend (the grading queue: `cpu` for the
    emulator, `gpu` where GPU workers exist) and store its result. A platform fault is retried with
    backoff, then the run is FAILED; a student's failure (compile error, fault, race) is a result."""
    try:
        backend = get_backend()
    except Exception as exc:
        log.exception("playground run %s: the judge backend cannot be loaded", run_id)
        return _retry_or_give_up(self, run_id, "the judge backend cannot be loaded on this worker", exc)
    run = actions.start_run(run_id, backend.name)
    if run is None:
        return None
    if run.tries > MAX_TRIES:
        actions.give_up(run_id, f"the run was interrupted {run.tries - 1} times")
        return "FAILED"
    try:
        args: tuple[ArgumentSpec, ...] = parse_arguments(run.args)
        request = PlaygroundRequest(run.source, run.kernel, args,
                                    parse_launch(run.launch_grid, run.launch_block, run.launch_shared_bytes, args))
        result = run_core(request, backend, target_cc=settings.WARPDRILL_TARGET_CC,
                          max_source_bytes=settings.WARPDRILL_MAX_SOURCE_BYTES,
                          progress=lambda stage: actions.record_stage(run_id, stage))
        actions.finish_run(run_id, result)
        return result.ending
    except Exception as exc:
        if not isinstance(exc, PlatformError):
            log.exception("playground run %s: unexpected error", run_id)
        reason = str(exc) if isinstance(exc, PlatformError) else "an internal error of the platform"
        return _retry_or_give_up(self, run_id, reason, exc)


def _retry_or_give_up(task, run_id: int, reason: str, exc: Exception) -> str:
    """Show 'retrying' and retry with backoff; after the last retry, the run is FAILED."""
    if retries.give_up_or_mark_retrying(task, MAX_RETRIES, lambda: actions.give_up(run_id, reason),
                                        lambda: actions.mark_retrying(run_id, reason)):
        return "FAILED"
    retries.retry_with_backoff(task, exc)


@shared_task
def sweep_stuck_playground_runs() -> int:
    """Re-queue playground runs stuck past WARPDRILL_STUCK_AFTER_S (lost messages, dead workers)."""
    return retries.report_requeued(log, "stuck playground run(s)", actions.requeue_stuck_runs())
