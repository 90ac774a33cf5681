"""Fields carried onto every log line of the work in progress (a grading, a web request).

A context variable holds them; `ContextFilter` (installed on the handlers by config/settings.py's
LOGGING) copies them onto each LogRecord, so `log.info("...")` anywhere in the judge gets the
submission id, the exam attempt id and the backend without passing them around.
"""
from __future__ import annotations

import contextvars
import logging
from contextlib import contextmanager
from typing import Any, Iterator

# The fields every record gets (None when not bound): what the JSON formatter writes.
FIELDS = ("request_id", "submission_id", "exam_attempt_id", "backend", "task_id")

_context: contextvars.ContextVar[dict[str, Any]] = contextvars.ContextVar("warpdrill_log_context", default={})


def current() -> dict[str, Any]:
    """The fields bound now (a copy)."""
    return dict(_context.get())


def bind(**fields: Any) -> contextvars.Token:
    """Add fields to the context; returns the token that `reset` takes to restore the previous ones."""
    return _context.set({**_context.get(), **fields})


def reset(token: contextvars.Token) -> None:
    """Restore the fields from before the `bind` that returned `token`."""
    _context.reset(token)


def clear() -> None:
    """Forget every bound field (a Celery task's end: the next task in the process starts clean)."""
    _context.set({})


@contextmanager
def bound(**fields: Any) -> Iterator[None]:
    """Bind fields for the duration of the block."""
    token = bind(**fields)
    try:
        yield
    finally:
        reset(token)


class ContextFilter(logging.Filter):
    """Copy the bound fields onto every record (None for those not bound); never drops a record."""

    def filter(self, record: logging.LogRecord) -> bool:
        fields = _context.get()
        for name in FIELDS:
            if not hasattr(record, name):
                setattr(record, name, fields.get(name))
        return True
