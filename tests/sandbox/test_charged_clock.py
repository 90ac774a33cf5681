"""The charged clock does not depend on the machine's load: a box is charged the CPU seconds it got.

A starved box is stopped only at the wall clock and is then marked `starved` (the platform's fault);
one that sleeps (it waits for no CPU) is charged nothing for it and is stopped at the wall clock, not
starved. A box's CPU seconds are reported (SandboxResult.cpu_s), however its processes ended. The deadlocking kernel the tester saw
get TIME_LIMIT on a loaded machine (tests/sandbox/kernels/half_barrier_spin.cu) is judged with one
CPU shared by many busy processes: DEADLOCK or a platform fault (retried, never an attempt), never
TIME_LIMIT.
"""
from __future__ import annotations

import os
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest

from grader.core import sandbox
from tests.sandbox.run import run_box

pytestmark = pytest.mark.skipif(not sandbox.box.DEFAULT.works(), reason=f"no sandbox here: {sandbox.box.DEFAULT.probe()}")

REPO = Path(__file__).resolve().parents[2]
KERNEL = Path(__file__).with_name("kernels") / "half_barrier_spin.cu"
HOGS = 12  # busy processes sharing the one CPU, each in a session (an autogroup) of its own


@contextmanager
def starved_cpu(hogs: int = HOGS):
    """Run the block with this process (and what it starts) pinned to one CPU that `hogs` busy
    processes share, so the box gets about 1/(hogs + 1) of it."""
    before = os.sched_getaffinity(0)
    cpu = min(before)
    os.sched_setaffinity(0, {cpu})
    procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
             for _ in range(hogs)]
    try:
        yield
    finally:
        for p in procs:
            p.kill()
        for p in procs:
            p.wait()
        os.sched_setaffinity(0, before)


def test_spinning_box_is_charged_its_cpu_seconds(tmp_path):
    """A spinning box on an idle-enough machine is stopped by its charged clock, well before the wall clock,
    and says so (cpu_exceeded) with the CPU seconds it used."""
    res = run_box(["/bin/sh", "-c", "while :; do :; done"], tmp_path, 30.0, charged_s=1.0, cpu_s=20)
    assert res.timed_out and res.cpu_exceeded and not res.starved
    assert res.time_s < 25
    assert 1.0 < res.cpu_s < 2.0


def test_the_cpu_seconds_of_every_process_of_the_box_count_together(tmp_path):
    """Two spinning processes use two CPU seconds per wall second (on two CPUs): the box is charged
    both, the limit is the box's, not each process's."""
    res = run_box(["/bin/sh", "-c", "(while :; do :; done) & while :; do :; done"], tmp_path, 30.0,
                  charged_s=2.0, cpu_s=20)
    assert res.timed_out and res.cpu_exceeded
    assert res.cpu_s > 2.0


def test_a_box_that_ends_by_itself_reports_the_cpu_it_used(tmp_path):
    """Sampled every tenth of a second while it runs: all but at most the last tenth is counted."""
    res = run_box(["/bin/sh", "-c", "i=0; while [ $i -lt 3000000 ]; do i=$((i+1)); done"], tmp_path, 60.0,
                  charged_s=50.0, cpu_s=50)
    assert res.returncode == 0 and not res.timed_out and not res.cpu_exceeded
    assert res.cpu_s is not None and res.cpu_s > 0.5


def test_sleeping_box_is_stopped_at_the_wall_clock_and_is_not_starved(tmp_path):
    """A box that sleeps gets no CPU and waits for none either: it is charged nothing for its sleep, so
    only the wall clock stops it, and it is not mistaken for a starved one."""
    res = run_box(["/bin/sh", "-c", "sleep 30"], tmp_path, 3.0, charged_s=1.0)
    assert res.timed_out and not res.cpu_exceeded and not res.starved
    assert 3.0 <= res.time_s < 8 and res.cpu_s < 0.5


def test_starved_box_is_marked_starved_not_charged(tmp_path):
    """A spinning box that gets about a thirteenth of one CPU does not use its charged second in 3 s of
    wall time: it is stopped at the wall clock and marked starved."""
    with starved_cpu():
        res = run_box(["/bin/sh", "-c", "while :; do :; done"], tmp_path, 3.0, charged_s=1.0, cpu_s=20)
    assert res.timed_out and res.starved and not res.cpu_exceeded


def test_deadlock_on_a_starved_machine_is_never_time_limit(monkeypatch):
    """The half-barrier/spin kernel on block-sum, with one CPU shared by busy processes: the verdict is
    DEADLOCK (the detector counts CPU seconds, as the charged clock does) or the run is a platform
    fault; before the fix it was TIME_LIMIT ("ran past the time limit of 5 s", no diagnostic)."""
    from grader.core.backends.emulator import EmulatorBackend
    from grader.core.errors import PlatformError
    from grader.core.judge import judge
    from grader.core.verdicts import Verdict
    from problems.core.package import load_package

    monkeypatch.chdir(REPO)
    package = load_package("problems/bank/block-sum")
    backend = EmulatorBackend(workers=2)
    source = KERNEL.read_text()
    backend.close(backend.compile(source, package.kernel))  # build (cached) before starving the CPU
    with starved_cpu():
        try:
            result = judge(package, source, backend)
        except PlatformError as exc:
            assert "too busy" in str(exc)
            return
    assert result.verdict is Verdict.DEADLOCK, [(t.name, t.verdict, str(t.message)) for t in result.tests]
    assert "spin in the loop on line 14" in str(result.tests[0].message)
