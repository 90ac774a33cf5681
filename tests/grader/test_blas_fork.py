"""The judge never forks from its report thread while the harness runs BLAS (issue 11).

The mechanism: a thread that forks (a sandboxed compile as root: `user=` rules out vfork, so
pthread_atfork handlers run) while another thread is inside a multi-threaded OpenBLAS call.
OpenBLAS's at-fork handler then waits for its busy worker threads and the process hangs for
good. The judge compiled ptxas's resource report on a background thread while the main thread
computed `harness.reference`, so a matmul problem hung the worker on every new submission.

These tests run the judge in a fresh interpreter with a deadline: a hang fails them instead of
hanging the suite.
"""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEADLINE_S = 60

needs_root_and_cores = pytest.mark.skipif(
    os.geteuid() != 0 or (os.cpu_count() or 1) < 2,
    reason="the hang needs fork() with a uid switch (root) and a multi-threaded OpenBLAS (2+ cores)",
)

# The report thread is replaced by the forking loop, and the harness's reference by one
# that multiplies with `@` for a while before answering: without the fix this hung 3 times in 3.
SCRIPT = textwrap.dedent("""
    import subprocess, threading, time, sys
    import numpy as np
    from grader.core import judge as judge_module, ptxas_report
    from grader.core.backends.dummy import DummyBackend
    from problems.core.package import Harness, load_package

    stop = threading.Event()
    forks = []
    overlaps = []

    def fork_loop(self, source, spec, cc):
        while not stop.is_set():
            subprocess.run(["/bin/true"], user=65534, group=65534, start_new_session=True)
            forks.append(1)

    plain_wait = ptxas_report.PtxasReport.wait

    def wait(self, timeout=60.0):
        stop.set()
        return plain_wait(self, timeout)

    ptxas_report.PtxasReport._compute = fork_loop
    ptxas_report.PtxasReport.wait = wait

    class Backend(DummyBackend):
        wants_ptxas_report = True

    package = load_package("problems/bank/tiled-matmul")
    harness = package.load_harness()

    def reference(inputs):
        a = np.random.default_rng(0).random((320, 320))
        until = time.monotonic() + 0.4
        while time.monotonic() < until:
            a @ a
            overlaps.append(len(forks))
        return harness.reference(inputs)

    package.load_harness = lambda: Harness(generate=harness.generate, reference=reference)
    result = judge_module.judge(package, package.solution, Backend())
    print("verdict", result.verdict, "forks", len(forks), "matmuls", len(overlaps), flush=True)
""")


@needs_root_and_cores
def test_judge_with_a_blas_reference_and_a_forking_report_thread_finishes():
    """judge() on the tiled-matmul package, whose reference is NumPy's `@` on a multi-threaded
    OpenBLAS, finishes while the report thread forks as root in a loop: the harness never runs
    while that thread exists."""
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    env["PYTHONPATH"] = str(ROOT)
    try:
        done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=DEADLINE_S)
    except subprocess.TimeoutExpired:
        pytest.fail(f"judge() hung for {DEADLINE_S} s: a fork from the report thread met busy BLAS threads")
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.startswith("verdict WRONG_ANSWER forks "), done.stdout


def test_no_harness_call_runs_while_the_report_thread_exists(monkeypatch):
    """Every generate() and reference() call of a judged package (test cases and the check pass)
    happens before the ptxas report thread starts, so none can overlap its forks."""
    import threading

    from grader.core import judge as judge_module, ptxas_report
    from grader.core.backends.dummy import DummyBackend
    from problems.core.package import Harness, load_package

    started = threading.Event()
    calls = []

    class Report:
        def __init__(self, *args):
            started.set()

        def wait(self):
            return None

    class Backend(DummyBackend):
        wants_ptxas_report = True
        supports_sanitizers = True

    monkeypatch.setattr(judge_module, "PtxasReport", Report)
    package = load_package(ROOT / "problems" / "bank" / "tiled-matmul")
    harness = package.load_harness()

    def generate(case, rng):
        calls.append(("generate", started.is_set()))
        return harness.generate(case, rng)

    def reference(inputs):
        calls.append(("reference", started.is_set()))
        return harness.reference(inputs)

    monkeypatch.setattr(package, "load_harness", lambda: Harness(generate=generate, reference=reference))
    result = judge_module.judge(package, package.solution, Backend())
    assert started.is_set() and result.verdict is not None
    assert len(calls) == 2 * len(package.tests) + 1  # each case, and the check pass's inputs
    assert not [c for c in calls if c[1]], calls
