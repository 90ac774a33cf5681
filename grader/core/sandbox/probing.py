"""Is bubblewrap usable here? Asked once per process and bubblewrap path; a failure is asked again
after PROBE_RETRY_S, so a worker that met a passing problem (a busy machine, a late mount) recovers
by itself."""
from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

PROBE_RETRY_S = 60.0


class _Probe:
    """What the last probe of one bubblewrap said, and when to ask again after a failure."""

    def __init__(self):
        self.works: bool | None = None  # None: not probed yet
        self.reason = ""
        self.retry_at: float | None = None


_probes: dict[str, _Probe] = {}  # bubblewrap's path -> its last probe


def probe(bwrap: str, prlimit: str, try_box: Callable[[], str], refresh: bool = False) -> str | None:
    """Why bubblewrap at `bwrap` cannot run a box on this machine, or None when it can.

    `try_box()` runs a trivial command in a box and returns why it failed ("" when it ran). A
    success is remembered for the life of the process; a failure for PROBE_RETRY_S.
    """
    state = _probes.setdefault(bwrap, _Probe())
    retry = state.works is False and state.retry_at is not None and time.monotonic() >= state.retry_at
    if state.works is None or refresh or retry:
        if not Path(bwrap).exists():
            state.reason = f"bubblewrap ({bwrap}) is not installed"
        elif not Path(prlimit).exists():
            state.reason = f"{prlimit} (util-linux) is missing"
        else:
            state.reason = try_box()
        state.works = not state.reason
        state.retry_at = None if state.works else time.monotonic() + PROBE_RETRY_S
    return None if state.works else (state.reason or "bubblewrap is unavailable")


def forget() -> None:
    """Forget every probe (tests that swap bubblewrap's path in and out)."""
    _probes.clear()
