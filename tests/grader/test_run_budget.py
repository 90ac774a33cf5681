"""A submission's runs share one time budget (grader/core/budget.py): factor x the per-test limit for
its tests, its check pass and its write map together. The security tester's correct-but-slow kernel
(a 1.2e9-iteration loop, about 3.5 s of CPU per run on a 5 s limit) held the exam worker for every
test and the check runs (about 40 s); now judging stops at the first run past what is left, TIME_LIMIT
saying why, the later tests not run.

The judge's rules run on the dummy backend (its runs say how many seconds they used); the last tests
run the real emulator in its sandbox."""
from __future__ import annotations

import numpy as np
import pytest

from grader.core import budget as budget_module
from grader.core import sandbox
from grader.core.backends.base import RunOutcome, RunStatus
from grader.core.backends.dummy import DummyBackend
from grader.core.backends.emulator import EmulatorBackend
from grader.core.budget import RunBudget
from grader.core.judge import judge
from grader.core.verdicts import NOT_RUN, DiagnosticKind, Verdict
from tests.packages import PROBLEM_YAML, SPIN, tiny_package

FOUR_TESTS = PROBLEM_YAML.replace(
    "  - {name: tail, params: {n: 1025}, seed: 2}\n",
    "  - {name: tail, params: {n: 1025}, seed: 2}\n"
    "  - {name: third, params: {n: 300}, seed: 3}\n"
    "  - {name: fourth, params: {n: 700}, seed: 4}\n") + "checks: [memcheck]\n"


class Timed(DummyBackend):
    """Adds the inputs, as a correct kernel would, using `seconds` of CPU per run (at most its limit: a
    run that needs more is stopped there, TIMEOUT). Records each request."""

    time_limit_clock = "cpu"
    supports_sanitizers = True

    def __init__(self, seconds: float):
        super().__init__(self._run)
        self.seconds, self.requests = seconds, []

    def _run(self, source, spec, request):
        self.requests.append(request)
        if self.seconds > request.time_limit_s:
            return RunOutcome(RunStatus.TIMEOUT, cpu_s=request.time_limit_s, time_s=request.time_limit_s,
                              message="time limit")
        a, b = request.inputs["a"], request.inputs["b"]
        return RunOutcome(RunStatus.OK, outputs={"c": (a + b).astype(np.float32)}, cpu_s=self.seconds,
                          time_s=self.seconds)


def test_a_budget_cuts_the_last_runs_limit_to_what_is_left():
    b = RunBudget.for_limit(5.0, 2.0)
    assert b.total_s == 10.0 and b.limit(5.0) == (5.0, False)
    b.charge(RunOutcome(RunStatus.OK, cpu_s=3.5, time_s=9.0))  # CPU seconds where the backend counts them
    b.charge(RunOutcome(RunStatus.OK, cpu_s=3.5))
    assert b.left_s == pytest.approx(3.0) and b.limit(5.0) == (3.0, True) and not b.spent
    b.charge(RunOutcome(RunStatus.OK, time_s=3.0))  # else the run's own time (the GPU kernel's)
    assert b.spent and RunBudget.for_limit(5.0, None).limit(5.0) == (5.0, False)


def test_the_testers_slow_kernel_stops_at_the_first_run_past_the_budget():
    """3.5 s per run on a 5 s limit: the first two tests pass, the third gets what is left (3 s) and runs
    out, the fourth is not run and neither is the check pass. Four runs of 3.5 s and a check pass before."""
    backend = Timed(3.5)
    result = judge(tiny_package(FOUR_TESTS), "// slow\n", backend)
    assert [t.verdict for t in result.tests] == [Verdict.ACCEPTED, Verdict.ACCEPTED, Verdict.TIME_LIMIT, NOT_RUN]
    assert [r.time_limit_s for r in backend.requests] == [5.0, 5.0, 3.0]
    assert not any(r.check for r in backend.requests)
    assert result.verdict is Verdict.TIME_LIMIT
    third, fourth = result.tests[2], result.tests[3]
    assert "time budget ran out" in third.message and "10 s" in third.message and "5 s" in third.message
    assert third.time_limit_s == 5.0  # the per-test limit: what was left is the sum of earlier (hidden) times
    assert "budget ran out on test third" in fourth.message
    assert result.limits == {"per_test_s": 5.0, "budget_s": 10.0, "used_s": 10.0, "clock": "cpu"}


def test_a_fast_kernel_never_meets_the_budget_and_its_check_pass_shares_what_is_left():
    """The check pass's runs get four times the per-test limit each, all of them at most what is left."""
    backend = Timed(0.01)
    result = judge(tiny_package(FOUR_TESTS), "// fast\n", backend)
    assert result.verdict is Verdict.ACCEPTED
    check = [r for r in backend.requests if r.check]
    assert len(check) == 1 and check[0].time_limit_s == pytest.approx(9.96) == check[0].budget_s


def test_the_check_pass_gets_what_is_left_and_a_spent_budget_is_a_time_limit_finding():
    """Four tests of 2.4 s leave 0.4 s: the check pass gets it and runs out (TIME_LIMIT naming the
    budget, not the 0.4 s); tests of 2.5 s leave nothing, and the check pass is not started."""
    backend = Timed(2.4)
    result = judge(tiny_package(FOUR_TESTS), "// tight\n", backend)
    assert [t.verdict for t in result.tests] == [Verdict.ACCEPTED] * 4
    assert backend.requests[-1].check and backend.requests[-1].time_limit_s == pytest.approx(0.4)
    assert result.verdict is Verdict.TIME_LIMIT
    [finding] = [d for d in result.diagnostics if d.kind is DiagnosticKind.TIMEOUT]
    assert finding.check and "time budget ran out" in finding.message and "0.4" not in finding.message

    backend = Timed(2.5)
    result = judge(tiny_package(FOUR_TESTS), "// tighter\n", backend)
    assert not any(r.check for r in backend.requests)
    assert result.verdict is Verdict.TIME_LIMIT and any(d.check and d.kind is DiagnosticKind.TIMEOUT
                                                        for d in result.diagnostics)


def test_without_a_budget_every_test_gets_its_limit():
    backend = Timed(3.5)
    result = judge(tiny_package(FOUR_TESTS), "// slow\n", backend, budget_factor=None)
    assert result.verdict is Verdict.ACCEPTED and [r.time_limit_s for r in backend.requests if not r.check] == [5.0] * 4
    assert result.limits["budget_s"] is None


def test_the_sites_factor_is_the_tasks():
    from django.conf import settings

    assert settings.WARPDRILL_RUN_BUDGET_FACTOR == budget_module.DEFAULT_FACTOR


# ---- the real emulator, in its sandbox ----

needs_sandbox = pytest.mark.skipif(not sandbox.box.DEFAULT.works(), reason="no sandbox here")


@needs_sandbox
def test_on_the_emulator_a_kernel_that_spins_on_every_test_is_stopped_by_the_budget():
    """With a 0.5 s limit and a 1 s budget, a kernel that spins for longer than the budget on its first
    test is stopped there: the wall clock held is about the budget, not tests x limit."""
    # The tester's slow kernel, scaled to the 0.5 s limit (the sandbox's CPU clock, not the wall clock, decides).
    result = judge(tiny_package(FOUR_TESTS, time_s=0.5), SPIN % 4_000_000_000, EmulatorBackend(workers=2))
    assert result.verdict is Verdict.TIME_LIMIT
    verdicts = [t.verdict for t in result.tests]
    assert verdicts[0] is Verdict.TIME_LIMIT and all(v is NOT_RUN for v in verdicts[1:]), verdicts
    assert result.limits["clock"] == "cpu" and result.limits["budget_s"] == 1.0
    assert result.limits["used_s"] <= 0.5 + 1.0 + 0.2  # the limit, the sandbox's grace, a sample's slack
