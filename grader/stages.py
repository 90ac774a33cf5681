"""Where one grading's time goes (issue 17): a clock per grading in the Celery task's thread, the
backend's compile() and run() timed into it, and, when WARPDRILL_STAGE_LOG names a file, one JSON
line per grading appended to it (bench/queue_bench.py --stages reads them)."""
from __future__ import annotations

import json
import logging
import os
import threading
import time
from contextlib import contextmanager

log = logging.getLogger(__name__)


class StageClock:
    """Where one grading's time goes, in seconds per stage (the figures of bench/queue_bench.py's
    stage table, issue 17): `add(stage, s)` sums, `mark()` is the time since the task started.

    Stages: heartbeat (the first beat: a database write), claim (grading_lock + start_grading),
    package (the problem version's package from the database), compile (backend.compile), inputs
    (the harness: generated inputs and the reference's outputs, between compile and the first run),
    runs (backend.run of the test cases, round trip), kernel (the part of `runs` the backend reports
    as the kernel's own time), checks (backend.run of the check pass), progress (record_progress:
    database writes), judge_rest (the judge's own work: verdicts, resources), save (finish_grading).
    Parts of compile a backend reports (Build.stages; the GPU backend's): compile_child (its warm main
    child asked for), compile_call (the compiler, round trip), compile_nvrtc (NVRTC's own time in it).
    """

    def __init__(self, submission_id: int):
        self.submission_id = submission_id
        self.started = time.monotonic()
        self.wall_started = time.time()
        self.figures: dict[str, float] = {}

    def add(self, stage: str, seconds: float) -> None:
        self.figures[stage] = self.figures.get(stage, 0.0) + seconds

    def mark(self) -> float:
        return time.monotonic() - self.started


_clock = threading.local()  # this thread's StageClock while a grading runs (None otherwise)


def clock_now():
    """This thread's StageClock while a grading runs, else None."""
    return getattr(_clock, "value", None)


@contextmanager
def timed(stage: str):
    """Add the block's wall time to `stage` of this thread's clock (nothing when no grading runs)."""
    clock = getattr(_clock, "value", None)
    started = time.monotonic()
    try:
        yield
    finally:
        if clock is not None:
            clock.add(stage, time.monotonic() - started)


@contextmanager
def stages(submission_id: int):
    """Time the block's stages (StageClock) and, when WARPDRILL_STAGE_LOG names a file, append one
    JSON line per grading to it: {"id", "started" (epoch s), "total_s", stage: seconds...}."""
    path = os.environ.get("WARPDRILL_STAGE_LOG", "")
    clock = StageClock(submission_id)
    _clock.value = clock
    try:
        yield clock
    finally:
        _clock.value = None
        if path:
            line = {"id": submission_id, "pid": os.getpid(), "started": round(clock.wall_started, 4),
                    "total_s": round(clock.mark(), 4), **{k: round(v, 4) for k, v in clock.figures.items()}}
            try:
                with open(path, "a") as out:
                    out.write(json.dumps(line) + "\n")
            except OSError:
                log.warning("the stage log %s cannot be written", path)


class TimedBackend:
    """The backend as the judge sees it, with compile() and run() timed into this thread's StageClock.
    Everything else is the backend's own (attribute access passes through)."""

    def __init__(self, backend):
        self._backend = backend
        self._compiled_at: float | None = None
        self._progress_at_compile = 0.0
        self._first_run = True

    def __getattr__(self, name):
        return getattr(self._backend, name)

    def compile(self, source, spec):
        with timed("compile"):
            build = self._backend.compile(source, spec)
        clock = getattr(_clock, "value", None)
        if clock is not None:
            for part, seconds in (getattr(build, "stages", None) or {}).items():  # the backend's compile_* parts
                clock.add(part, seconds)
        self._compiled_at = time.monotonic()
        self._progress_at_compile = clock.figures.get("progress", 0.0) if clock is not None else 0.0
        return build

    def run(self, build, request):
        clock = getattr(_clock, "value", None)
        if clock is not None and self._first_run and self._compiled_at is not None:
            written = clock.figures.get("progress", 0.0) - self._progress_at_compile  # the "running" write
            clock.add("inputs", time.monotonic() - self._compiled_at - written)
        self._first_run = False
        with timed("checks" if request.check else "runs"):
            outcome = self._backend.run(build, request)
        if clock is not None and not request.check:
            clock.add("kernel", float(outcome.time_s or 0.0))
        return outcome
