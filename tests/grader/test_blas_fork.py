"""The judge never forks from a thread while the harness runs BLAS (issue 11).

The mechanism: a thread that forks (a sandboxed compile as root: `user=` rules out vfork, so
pthread_atfork handlers run) while another thread is inside a multi-threaded OpenBLAS call.
OpenBLAS's at-fork handler then waits for its busy worker threads and the process hangs for
good. The judge once compiled ptxas's resource report on a background thread while the main thread
computed `harness.reference`, so a matmul problem hung the worker on every new submission. The
report now has no thread: its nvcc is started on the judge's thread before the compile and read
at the end.

The first test runs the judge in a fresh interpreter with a deadline: a hang fails it instead of
hanging the suite.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEADLINE_S = 60


def openblas_threads() -> int | None:
    """Threads NumPy's OpenBLAS uses in a fresh interpreter with this environment minus *_NUM_THREADS
    (what the test's child gets); None when NumPy's OpenBLAS cannot be asked."""
    probe = ("import ctypes, glob, os, numpy\n"
             "libs = glob.glob(os.path.join(os.path.dirname(numpy.__file__), os.pardir, 'numpy.libs', '*openblas*'))\n"
             "lib = ctypes.CDLL(libs[0]) if libs else None\n"
             "names = ('scipy_openblas_get_num_threads64_', 'openblas_get_num_threads64_', 'openblas_get_num_threads')\n"
             "name = next((n for n in names if lib is not None and hasattr(lib, n)), None)\n"
             "print(getattr(lib, name)() if name else -1)\n")
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=60)
    value = int(out.stdout.strip() or -1) if out.returncode == 0 else -1
    return value if value > 0 else None


def hang_preconditions() -> list[str]:
    """What this machine lacks for the hang to be possible (empty: the test can fail without the fix)."""
    missing = []
    if os.geteuid() != 0:
        missing.append("root (the sandbox forks with a uid switch only as root; posix_spawn runs no at-fork handler)")
    if len(os.sched_getaffinity(0)) < 2:
        missing.append("2 usable CPUs (OpenBLAS starts one thread per CPU this process may run on)")
    elif (threads := openblas_threads()) is None or threads < 2:
        missing.append(f"a multi-threaded OpenBLAS under NumPy (it reports {threads} threads)")
    if not (shutil.which("nvcc") or os.path.exists("/usr/local/cuda/bin/nvcc")):
        missing.append("nvcc (the ptxas report is the fork the old judge made beside the reference)")
    return missing


@pytest.fixture
def hang_possible():
    """Skip where the hang cannot happen; in CI (WARPDRILL_CI, set by .ci/run: root, 2 cores, nvcc) fail
    instead, so that a changed image cannot turn the regression test into a silent skip."""
    missing = hang_preconditions()
    if missing and os.environ.get("WARPDRILL_CI"):
        pytest.fail("CI must run the BLAS fork test, but this machine lacks: " + "; ".join(missing))
    if missing:
        pytest.skip("the hang needs " + "; ".join(missing))


# The harness's reference multiplies with `@` for a while before answering, and the backend's every
# run forks as root; the report is the real one (nvcc in the sandbox). The source carries a fresh
# comment, so the report's compile cache cannot answer it without starting nvcc (the hang needed a
# fork: a cached report forks nothing, and the test would pass on a warm cache with the bug back).
SCRIPT = textwrap.dedent("""
    import subprocess, time
    import numpy as np
    from grader.core import judge as judge_module
    from grader.core.backends.dummy import DummyBackend
    from problems.core.package import Harness, load_package

    overlaps = []

    class Backend(DummyBackend):
        wants_ptxas_report = True

        def run(self, build, request):
            subprocess.run(["/bin/true"], user=65534, group=65534, start_new_session=True)
            return super().run(build, request)

    package = load_package("problems/bank/tiled-matmul")
    harness = package.load_harness()

    def reference(inputs):
        a = np.random.default_rng(0).random((320, 320))
        until = time.monotonic() + 0.4
        while time.monotonic() < until:
            a @ a
            overlaps.append(1)
        return harness.reference(inputs)

    package.load_harness = lambda: Harness(generate=harness.generate, reference=reference)
    source = package.solution + "\\n// fresh: %s\\n" % __import__("uuid").uuid4().hex
    result = judge_module.judge(package, source, Backend())
    print("verdict", result.verdict, "matmuls", len(overlaps), flush=True)
""")


def test_judge_with_a_blas_reference_and_the_ptxas_report_finishes(hang_possible):
    """judge() on the tiled-matmul package, whose reference is NumPy's `@` on a multi-threaded
    OpenBLAS, finishes while the ptxas report's nvcc runs and every run forks as root."""
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    env["PYTHONPATH"] = str(ROOT)
    try:
        done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=DEADLINE_S)
    except subprocess.TimeoutExpired:
        pytest.fail(f"judge() hung for {DEADLINE_S} s: a fork met busy BLAS threads")
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.startswith("verdict WRONG_ANSWER matmuls "), done.stdout


@pytest.mark.parametrize("late", [False, True])
def test_no_harness_call_runs_beside_a_thread_of_the_judge(monkeypatch, late):
    """Every generate() and reference() call of a judged package (test cases and the check pass) runs
    on the judge's thread with no other thread of the judge's alive; the report starts on that thread,
    before the first harness call (after the last one with the backend's ptxas_report_late)."""
    import threading

    from grader.core import judge as judge_module
    from grader.core.backends.dummy import DummyBackend
    from problems.core.package import Harness, load_package

    calls = []
    started = []
    before = set(threading.enumerate())

    class Report:
        def __init__(self, *args):
            started.append((len(calls), threading.current_thread()))

        def wait(self):
            return None

        def close(self):
            pass

    class Backend(DummyBackend):
        wants_ptxas_report = True
        supports_sanitizers = True
        ptxas_report_late = late

    monkeypatch.setattr(judge_module, "PtxasReport", Report)
    package = load_package(ROOT / "problems" / "bank" / "tiled-matmul")
    harness = package.load_harness()

    def seen(name):
        calls.append((name, threading.current_thread(), set(threading.enumerate()) - before))

    def generate(case, rng):
        seen("generate")
        return harness.generate(case, rng)

    def reference(inputs):
        seen("reference")
        return harness.reference(inputs)

    monkeypatch.setattr(package, "load_harness", lambda: Harness(generate=generate, reference=reference))
    result = judge_module.judge(package, package.solution, Backend())
    assert result.verdict is not None
    assert len(calls) == 2 * len(package.tests) + 1  # each case, and the check pass's inputs
    assert started == [(len(calls) if late else 0, threading.current_thread())]
    assert all(thread is threading.current_thread() and not extra for _, thread, extra in calls), calls
