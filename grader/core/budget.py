"""The time budget of one submission: what all its runs together may use, so that one submission cannot
hold a grading worker for long whatever its per-test limits add up to.

A problem's limit is per test (package.time_limit_s). Without a bound on their sum, a kernel that ran
just under it on every test, again in the check pass and once more for a write map held the worker for
tests x limit + check runs (the security tester's 1.2e9-iteration loop: about 40 s per submission on a
5 s limit, three in a row ahead of another student's exam submission). The budget is
`factor` x the per-test limit for all the runs of a submission together (test cases, the check pass,
the write-map run); each run may use at most what is left of it, and the judge stops at the first run
that passes it: a TIME_LIMIT saying so, the later tests not run (as DOMjudge stops at the first failing
test). Runs count on the backend's clock (RunOutcome.cpu_s: the emulator's CPU seconds; else the run's
time_s: the GPU kernel's own time). Plain Python (no Django).
"""
from __future__ import annotations

from dataclasses import dataclass

from . import messages as M
from .backends.base import RunOutcome, RunStatus
from .results import Diagnostic, TestResult
from .verdicts import DiagnosticKind, Verdict

# The budget of a submission's runs, as a multiple of its problem's per-test limit (the site's
# WARPDRILL_RUN_BUDGET_FACTOR). Twice the limit: a kernel that needs the whole per-test limit on one
# test still gets it, and every test of a correct solution runs in a small fraction of it.
DEFAULT_FACTOR = 2.0
# Below this many seconds left, a run is not started: it could not finish anything useful.
MIN_RUN_S = 0.05


@dataclass
class RunBudget:
    """Seconds all the runs of one submission may still use (the clock of RunOutcome.cpu_s)."""

    total_s: float  # the whole budget: factor x the per-test limit
    used_s: float = 0.0  # what the runs so far used

    @classmethod
    def for_limit(cls, time_limit_s: float, factor: float | None = DEFAULT_FACTOR) -> RunBudget:
        """The budget of a problem whose per-test limit is `time_limit_s` seconds; `factor` None: no
        budget beyond the per-test limits (infinite)."""
        return cls(float("inf") if factor is None else round(time_limit_s * factor, 3))

    @property
    def left_s(self) -> float:
        return max(0.0, self.total_s - self.used_s)

    @property
    def spent(self) -> bool:
        """True when too little is left to start another run."""
        return self.left_s < MIN_RUN_S

    def limit(self, limit_s: float) -> tuple[float, bool]:
        """(the limit a run asking for `limit_s` seconds gets, whether the budget cut it)."""
        if self.left_s >= limit_s:
            return limit_s, False
        return max(MIN_RUN_S, round(self.left_s, 2)), True

    def charge(self, outcome: RunOutcome) -> float:
        """Count a finished run's seconds (its CPU seconds where the backend measured them, else its
        time); returns them."""
        used = outcome.cpu_s if outcome.cpu_s is not None else (outcome.time_s or 0.0)
        self.used_s += max(0.0, used)
        return used

    def ran_out(self, outcome: RunOutcome, cut: bool) -> bool:
        """True when a run whose limit the budget `cut` was stopped at that limit."""
        return cut and outcome.status is RunStatus.TIMEOUT

    def message(self, time_limit_s: float) -> M.Message:
        """What a test that ran out of the budget says: the budget and the per-test limit it comes from.
        Never what was left of it: that is the sum of the earlier tests' times, which hidden tests hide."""
        return M.RUN_BUDGET_SPENT(budget=f"{self.total_s:g}", limit=f"{time_limit_s:g}")

    def restate(self, outcome: RunOutcome, time_limit_s: float) -> None:
        """Make a run the budget stopped say so: its message and its time-limit findings (their lines kept)
        name the budget, not the cut limit it ran past."""
        said = self.message(time_limit_s)
        outcome.message = said
        for d in outcome.diagnostics:
            if d.kind is DiagnosticKind.TIMEOUT:
                d.message = said
        if not any(d.kind is DiagnosticKind.TIMEOUT for d in outcome.diagnostics):
            outcome.diagnostics.append(Diagnostic(DiagnosticKind.TIMEOUT, message=said))

    def finding(self, time_limit_s: float, test_name: str) -> Diagnostic:
        """The TIME_LIMIT finding of a check pass with no budget left to run in."""
        return Diagnostic(DiagnosticKind.TIMEOUT, message=self.message(time_limit_s), test=test_name, check=True)

    def report(self, time_limit_s: float, clock: str) -> dict:
        """What a result says of its limits (JudgeResult.limits): seconds per test and for all the runs
        (None: no budget), the seconds the runs used, and the clock they count on (Backend.time_limit_clock)."""
        budget = None if self.total_s == float("inf") else self.total_s
        return {"per_test_s": time_limit_s, "budget_s": budget, "used_s": round(self.used_s, 3), "clock": clock}


def spent_before(test, budget: RunBudget, time_limit_s: float) -> TestResult:
    """The row of a test not started because the budget was spent by the tests before it: TIME_LIMIT."""
    return TestResult(name=test.name, sample=test.sample, verdict=Verdict.TIME_LIMIT, params=dict(test.params),
                      message=budget.message(time_limit_s), time_limit_s=time_limit_s)
