"""A box never outlives its grading, and the wall clock counts toward the time limit.

Issue 13, finding 1: when Celery's soft time limit fired while the sandbox read a box's output,
the exception unwound without killing bubblewrap, and the box kept running with no wall clock and
no memory watchdog; and a kernel that blocked without using CPU passed at about three times its
limit, because the emulator's own limit counts CPU time.
"""
from __future__ import annotations

import signal
import time
import uuid
from pathlib import Path

import pytest
from celery.exceptions import SoftTimeLimitExceeded

from grader.core import sandbox
from tests.sandbox.run import run_box
from grader.core.emulator import run_limits
from grader.core.judge import judge
from grader.core.verdicts import NOT_RUN, Verdict
from tests.sandbox import programs
from tests.sandbox.test_sandbox import PROGS, live_processes_mentioning

from .test_hostile import CASES, PACKAGE, everything_said, render
from .test_hostile import backend  # noqa: F401  (the shared module-scoped emulator backend)
from .watch import descendants

pytestmark = pytest.mark.skipif(not sandbox.box.DEFAULT.works(), reason=f"no sandbox here: {sandbox.box.DEFAULT.probe()}")


@pytest.fixture(scope="module")
def progs(tmp_path_factory):
    return programs.build(tmp_path_factory.mktemp("progs"))


def _raise_soft_time_limit(signum, frame):
    raise SoftTimeLimitExceeded()


@pytest.mark.parametrize("watchdogs", [{}, {"rss_bytes": 1 << 30, "disk_bytes": 1 << 20}],
                         ids=["plain", "with-watchdogs"])
def test_soft_time_limit_while_reading_kills_every_process_of_the_box(progs, tmp_path, watchdogs):
    """Celery's SoftTimeLimitExceeded, raised by its signal handler while Sandbox.run waits on a box
    that ignores every signal and daemonised a grandchild, propagates, and by then no process of the
    box exists anywhere on the machine."""
    marker = f"stubborn-{uuid.uuid4().hex[:8]}"
    work = tmp_path / "work"
    work.mkdir()
    before = descendants()
    previous = signal.signal(signal.SIGALRM, _raise_soft_time_limit)
    signal.setitimer(signal.ITIMER_REAL, 1.0)
    started = time.monotonic()
    try:
        with pytest.raises(SoftTimeLimitExceeded):
            run_box([f"{PROGS}/stubborn", marker], work, 60.0, ro_binds={str(progs): PROGS}, **watchdogs)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert time.monotonic() - started < 15, "the exception was held up by the box"
    assert live_processes_mentioning(marker) == [], "a process of the box outlived the soft time limit"
    assert descendants() - before == set()


def test_an_exception_in_unsafe_mode_kills_the_command_too(tmp_path, monkeypatch):
    """Without bubblewrap (development machines) the same way out kills the command's process group:
    the shell and both of its children are gone when the exception arrives."""
    marker = f"300.{uuid.uuid4().int % 10**8:08d}"  # seconds to sleep: unique, so that each sleep is found
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.setattr(sandbox.box, "DEFAULT", sandbox.Sandbox(bwrap="/nonexistent/bwrap", allow_unsafe=True))
    before = descendants()
    previous = signal.signal(signal.SIGALRM, _raise_soft_time_limit)
    signal.setitimer(signal.ITIMER_REAL, 1.0)
    try:
        with pytest.raises(SoftTimeLimitExceeded):
            run_box(["/bin/sh", "-c", f"sleep {marker} & sleep {marker}; : {marker}"], work, 60.0)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    time.sleep(0.2)  # a survivor would be reparented away from this process: look for it by name too
    assert live_processes_mentioning(marker) == []
    assert descendants() - before == set()


def test_every_box_has_a_resident_memory_watchdog():
    """Sandbox.run gives a box without an explicit cap its address-space limit plus slack, or 4 GiB
    without one; the emulator caps every run, the race check's included."""
    import resource

    assert sandbox.default_rss_bytes(2 << 30) == (2 << 30) + sandbox.RSS_SLACK_BYTES
    assert sandbox.default_rss_bytes(resource.RLIM_INFINITY) == sandbox.DEFAULT_RSS_BYTES
    assert sandbox.default_rss_bytes(None) == sandbox.DEFAULT_RSS_BYTES
    assert run_limits.rss_limit_bytes(1 << 20) == (2 << 30) + (8 << 20)


def test_resident_memory_watchdog_applies_by_default(progs, tmp_path):
    """A box given only an address-space limit is still stopped when its processes together hold more
    than that: four processes of 200 MiB each under a 256 MiB limit (so a 768 MiB cap)."""
    work = tmp_path / "work"
    work.mkdir()
    cmd = f"for i in 1 2 3 4; do {PROGS}/alloc 200 20 & done; wait"
    res = run_box(["/bin/sh", "-c", cmd], work, 30.0, memory_bytes=256 << 20,
                                ro_binds={str(progs): PROGS})
    assert res.memory_exceeded and not res.timed_out, (res.stdout, res.stderr)


def test_a_kernel_that_sleeps_past_the_limit_is_time_limit_at_the_wall_clock_backstop(backend):  # noqa: F811
    """A kernel that blocks without using CPU is charged no CPU time for it: the wall-clock backstop
    (three times the limit plus 2 s, run_limits.backstop_s) stops it, TIME_LIMIT saying it waited, and
    the tests after it are not run."""
    source = render(next(c for c in CASES if c.name == "sleep_without_cpu"), Path("/nonexistent"))
    result = judge(PACKAGE, source, backend)
    assert result.verdict is Verdict.TIME_LIMIT, everything_said(result)[:2000]
    first = result.tests[0]
    assert first.verdict is Verdict.TIME_LIMIT
    limit = PACKAGE.time_limit_s
    assert run_limits.backstop_s(limit) == 3 * limit + 2
    assert "did not end within" in everything_said(result) and first.time_s < 1.0  # CPU seconds: it slept
    assert all(t.verdict is NOT_RUN for t in result.tests[1:])


def test_time_counts_from_before_static_initialisers(backend):  # noqa: F811
    """A static initialiser that spins for most of the limit counts toward the run's reported time."""
    source = (
        "static int spin() { volatile long x = 0; for (long k = 0; k < 400000000L; ++k) x += k; return (int)(x & 0); }\n"
        "static int early = spin();\n"
        "__global__ void add(const float* a, const float* b, float* c, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i < n) c[i] = a[i] + b[i] + early;\n"
        "}\n")
    result = judge(PACKAGE, "// launch: block=256 grid=ceil_div(n, 256)\n" + source, backend)
    ran = [t for t in result.tests if t.verdict is not NOT_RUN]
    assert ran and ran[0].time_s >= 0.1, [(t.verdict, t.time_s) for t in result.tests]
