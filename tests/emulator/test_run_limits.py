"""An emulator run's limits (grader/core/emulator/run_limits.py) count CPU seconds of the run's process,
every thread together, with a wall-clock backstop at three times the limit plus 2 s; a check pass's
several runs share its budget. Three identical submissions of the security tester got ACCEPTED, then
TIME_LIMIT twice, on a loaded machine: the verdict must not depend on the load."""
from __future__ import annotations

import numpy as np
import pytest

from grader.core import sandbox
from grader.core.backends.base import LaunchConfig, RunRequest
from grader.core.backends.emulator import EmulatorBackend
from grader.core.emulator.checkplan import CheckPlan
from grader.core.emulator.run_limits import backstop_s, cpu_limit_s, run_limits, shared_out
from grader.core.errors import PlatformError
from grader.core.judge import judge
from grader.core.verdicts import Verdict
from tests.packages import PROBLEM_YAML, SPIN, tiny_package

LAUNCH = LaunchConfig((4, 1, 1), (256, 1, 1), 0)


def request(limit: float, **options) -> RunRequest:
    inputs = {"a": np.zeros(1024, np.float32), "c": np.zeros(1024, np.float32), "n": 1024}
    return RunRequest(LAUNCH, inputs, time_limit_s=limit, test_name="t", **options)


def test_a_runs_limit_is_cpu_seconds_of_the_whole_process_with_a_wall_clock_backstop():
    """Not divided by the worker threads: a kernel spread over two threads uses its CPU seconds twice as
    fast, and a single busy thread gets no more than the limit."""
    limits = run_limits(request(5.0), "fast", {})
    assert limits.charged_s == cpu_limit_s(5.0) == 6.25  # the child reports first, at 5 s, with its line
    assert limits.cpu_s == limits.charged_s + 2.0  # RLIMIT_CPU, per process, past both
    assert limits.time_s == backstop_s(5.0) == 17.0  # 3 x 5 + 2
    assert backstop_s(1.0) == 5.0 and cpu_limit_s(1.0) == 2.0
    tsan = run_limits(request(5.0), "tsan", {})
    assert tsan.charged_s == 3 * 6.25 and tsan.time_s == 18.75


def test_a_check_pass_shares_its_budget_among_the_runs_it_plans():
    """The plain, aligned and initcheck runs count once, the ThreadSanitizer run three times."""
    check = request(20.0, check=True, budget_s=6.0)
    everything = CheckPlan(aligned=True, race=True, initcheck=True)
    assert shared_out(check, everything).time_limit_s == 1.0  # 6 s over 1 + 1 + 3 + 1
    assert shared_out(check, CheckPlan(aligned=True, race=False, initcheck=False)).time_limit_s == 3.0
    assert shared_out(request(20.0, check=True, budget_s=200.0), everything).time_limit_s == 20.0
    assert shared_out(request(5.0), everything).time_limit_s == 5.0  # a plain run: as it is


needs_sandbox = pytest.mark.skipif(not sandbox.box.DEFAULT.works(), reason="no sandbox here")


@needs_sandbox
def test_a_single_busy_thread_is_charged_its_cpu_seconds_not_half_of_them():
    """With two worker threads the old clock halved a one-thread kernel's CPU seconds (10 s of CPU on a
    5 s limit); now a kernel that spins past the limit on one thread is TIME_LIMIT at it."""
    yaml_text = (PROBLEM_YAML.replace("  - {name: small, params: {n: 5}, seed: 1, sample: true}\n", "")
                 .replace("{name: tail, params: {n: 1025}, seed: 2}", "{name: tail, params: {n: 1025}, seed: 2, sample: true}"))
    # Thread 0 of block 0 spins; the other blocks are idle at once: one busy worker thread of two.
    result = judge(tiny_package(yaml_text, time_s=1), SPIN % 40_000_000_000, EmulatorBackend(workers=2),
                   budget_factor=None)
    first = result.tests[0]
    assert first.name == "tail" and first.verdict is Verdict.TIME_LIMIT and "of CPU time" in str(first.message)
    # The CPU seconds it got, as the sandbox sampled them (a tenth of a second late at most): the limit,
    # not twice it, and at most the sandbox's grace past it.
    assert 0.85 <= first.time_s <= 2.2


@needs_sandbox
def test_identical_submissions_get_the_same_verdict_on_an_idle_and_a_loaded_cpu():
    """A kernel that needs part of its limit in CPU, judged alone and then pinned to one CPU that three
    busy processes share: the same verdict, or a platform fault (retried, never an attempt) if the
    machine starves it past the wall-clock backstop; never TIME_LIMIT where it was ACCEPTED."""
    from tests.sandbox.test_charged_clock import starved_cpu

    package = tiny_package(time_s=2)
    backend = EmulatorBackend(workers=2)
    source = SPIN % 300_000_000
    alone = judge(package, source, backend)
    with starved_cpu(hogs=3):
        try:
            loaded = judge(package, source, backend)
        except PlatformError as exc:
            assert "too busy" in str(exc)
            return
    assert loaded.verdict is alone.verdict, [(t.name, t.verdict, str(t.message), t.time_s) for t in loaded.tests]
