"""What a grading-queue task (a submission's grading, a playground run) does after a platform fault,
and how a sweep reports what it re-queued: one policy for both apps' tasks."""
from __future__ import annotations

import logging
from typing import Callable


def give_up_or_mark_retrying(task, max_retries: int, give_up: Callable[[], None],
                             mark_retrying: Callable[[], None]) -> bool:
    """After `task`'s last retry (its request.retries has reached `max_retries`) call `give_up` and
    return True; before it, call `mark_retrying` (the row shows 'retrying') and return False."""
    if task.request.retries >= max_retries:
        give_up()
        return True
    mark_retrying()
    return False


def retry_with_backoff(task, exc: Exception):
    """Raise Celery's Retry for `task`, delivered again after 2**retries seconds (1, 2, 4 s …) at the
    priority it came with (Celery's retry keeps the queue but not the priority: staff work would jump
    ahead of students' once it failed)."""
    raise task.retry(exc=exc, countdown=2 ** task.request.retries, **same_priority(task))


def same_priority(task) -> dict:
    """apply_async's `priority` option of the message `task` runs for ({} where it had none, or eagerly)."""
    priority = (getattr(task.request, "delivery_info", None) or {}).get("priority")
    return {"priority": priority} if priority is not None else {}


def report_requeued(log: logging.Logger, what: str, ids: list) -> int:
    """Warn on `log` that the sweep re-queued `ids` (the `what`: "stuck submission(s)"), when there are
    any; return how many."""
    if ids:
        log.warning("re-queued %d %s: %s", len(ids), what, ids)
    return len(ids)
