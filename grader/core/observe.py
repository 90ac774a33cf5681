"""Events the core reports to whoever listens: plain Python, so the core needs no shell to report them.

The ops app listens (ops.apps.OpsConfig.ready) and counts them for /metrics:
  emit("sandbox_kill", reason="time" | "memory" | "disk")      a box killed at its limit (core/sandbox.py)
  emit("child_restart", kind="gpu", slot="main" | ...)          a warm GPU child killed and replaced (core/gpu/pool.py)
A listener that raises is ignored: reporting never fails a grading.
"""
from __future__ import annotations

from typing import Callable

_listeners: list[Callable[..., None]] = []


def listen(fn: Callable[..., None]) -> None:
    """Call fn(event, **labels) for every event emitted from now on (once per function)."""
    if fn not in _listeners:
        _listeners.append(fn)


def emit(event: str, **labels: str) -> None:
    """Report `event` with its labels to every listener."""
    for fn in list(_listeners):
        try:
            fn(event, **labels)
        except Exception:
            pass
