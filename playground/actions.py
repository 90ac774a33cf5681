"""The one write path of playground runs: create, start, progress, finish, retry, share.

Views, the API and the task call these. Each change locks the row, saves with `update_fields`,
and the task is enqueued only after the transaction commits.
"""
from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from grader import actions as grader_actions
from grader.core.errors import BadRequestError
from grader.core.static_checks import static_check

from .core.run import PlaygroundRequest, PlaygroundResult
from .core.signature import check_rows_follow, kernel_parameters
from .core.spec import kernel_name, parse_arguments, parse_launch
from .models import PlaygroundRun, RunState

log = logging.getLogger(__name__)


def prepare_request(source: str, kernel: str, rows, grid: str, block: str, shared_bytes: str) -> PlaygroundRequest:
    """The run that these fields ask for, checked. Raises BadRequestError (PlaygroundSpecError for
    the arguments, the launch and the kernel's name; a plain one for the source), in English: the
    views render a PlaygroundSpecError's template in the reader's language."""
    if len(source.encode("utf-8", "replace")) > settings.WARPDRILL_MAX_SOURCE_BYTES:
        raise BadRequestError(_("The source is larger than %(kib)d KiB; remove unused code.") % {
            "kib": settings.WARPDRILL_MAX_SOURCE_BYTES // 1024})
    lines = source.count("\n") + 1
    if lines > settings.WARPDRILL_MAX_SOURCE_LINES:
        raise BadRequestError(_("The source has %(lines)d lines, more than %(max)d; remove unused code.") % {
            "lines": lines, "max": settings.WARPDRILL_MAX_SOURCE_LINES})
    refusal = static_check(source, settings.WARPDRILL_MAX_SOURCE_BYTES)
    if refusal:
        raise BadRequestError(refusal)
    name = kernel_name(source, kernel)
    args = parse_arguments(rows)
    check_rows_follow(kernel_parameters(source, name), name, len(args))
    launch = parse_launch(grid, block, shared_bytes, args)
    return PlaygroundRequest(source=source, kernel=name, args=args, launch=launch)


def create_run(user, source: str, kernel: str, rows, grid: str, block: str, shared_bytes: str = "",
               from_submission=None) -> PlaygroundRun:
    """Save a QUEUED playground run and enqueue it after commit.

    The submission rate limit applies (playground runs count toward it, and a refused run counts as
    a refused submission). Raises BadRequestError or grader.actions.RateLimitError; nothing is saved then."""
    grader_actions.check_rate_limit(user)
    try:
        request = prepare_request(source, kernel, rows, grid, block, shared_bytes)
    except BadRequestError:
        grader_actions.record_refusal(user)
        raise
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        grader_actions.check_rate_limit(user)
        run = PlaygroundRun.objects.create(
            user=user, source=source, kernel=request.kernel, args=[a.to_dict() for a in request.args],
            launch_grid=grid.strip() or "1", launch_block=block.strip() or "1",
            launch_shared_bytes=shared_bytes.strip(), from_submission=from_submission, state=RunState.QUEUED,
            queued_at=timezone.now(),
        )
        transaction.on_commit(lambda: _send(run.pk))
    return run


def _send(run_id: int) -> None:
    from .tasks import run_playground

    try:
        run_playground.delay(run_id)
    except Exception as exc:  # the broker is down: the row stays QUEUED and the sweeper sends it later
        log.error("playground run %s: saved but not queued (%s: %s); the sweeper will queue it",
                  run_id, type(exc).__name__, exc)


def requeue_stuck_runs(now=None) -> list[int]:
    """Send again the runs stuck past WARPDRILL_STUCK_AFTER_S: waiting (QUEUED/RETRYING) since before
    the deadline, or taken by a worker (COMPILING/RUNNING) before it. Each goes back to QUEUED with a
    fresh queued_at, so it is sent at most once per deadline. Returns their ids."""
    now = now or timezone.now()
    deadline = now - timedelta(seconds=settings.WARPDRILL_STUCK_AFTER_S)
    waiting = Q(state__in=[RunState.QUEUED, RunState.RETRYING], queued_at__lt=deadline)
    running = Q(state__in=[RunState.COMPILING, RunState.RUNNING], started_at__lt=deadline)
    ids = list(PlaygroundRun.objects.filter(waiting | running).values_list("pk", flat=True)[:500])
    for pk in ids:
        with transaction.atomic():
            # The same condition again in the UPDATE: a worker may have taken it meanwhile.
            if PlaygroundRun.objects.filter(waiting | running, pk=pk).update(state=RunState.QUEUED, queued_at=now):
                transaction.on_commit(lambda pk=pk: _send(pk))
    return ids


def start_run(run_id: int, backend: str) -> PlaygroundRun | None:
    """Claim a run for a worker (COMPILING, one more try). None when it is gone or already final."""
    with transaction.atomic():
        run = PlaygroundRun.objects.select_for_update().filter(pk=run_id).first()
        if run is None or run.is_final:
            return None
        run.state, run.backend, run.tries, run.started_at = RunState.COMPILING, backend, run.tries + 1, timezone.now()
        run.save(update_fields=["state", "backend", "tries", "started_at"])
    return run


def record_stage(run_id: int, stage: str) -> None:
    """Show the stage a worker is at ("compiling" or "running") while the run is not final."""
    state = {"compiling": RunState.COMPILING, "running": RunState.RUNNING}.get(stage)
    if state:
        PlaygroundRun.objects.filter(pk=run_id, state__in=[RunState.COMPILING, RunState.RUNNING]).update(state=state)


def finish_run(run_id: int, result: PlaygroundResult) -> bool:
    """Store the result (DONE). False when the run is gone or already final."""
    with transaction.atomic():
        run = PlaygroundRun.objects.select_for_update().filter(pk=run_id).first()
        if run is None or run.is_final:
            return False
        run.state, run.result, run.finished_at = RunState.DONE, result.to_dict(), timezone.now()
        run.save(update_fields=["state", "result", "finished_at"])
    return True


def mark_retrying(run_id: int, reason: str) -> None:
    PlaygroundRun.objects.filter(pk=run_id).exclude(state__in=[RunState.DONE, RunState.FAILED]).update(
        state=RunState.RETRYING, error=reason[:2000])


def give_up(run_id: int, reason: str) -> None:
    """FAILED: the platform could not run it (never the user's fault; `reason` is user-safe)."""
    PlaygroundRun.objects.filter(pk=run_id).exclude(state=RunState.DONE).update(
        state=RunState.FAILED, error=reason[:2000], finished_at=timezone.now())


def set_shared(run: PlaygroundRun, shared: bool) -> None:
    """Share the run by its link (anyone signed in who has it may read it), or stop sharing.
    Precondition: the caller is the run's owner (the views check)."""
    run.shared = shared
    run.save(update_fields=["shared"])
