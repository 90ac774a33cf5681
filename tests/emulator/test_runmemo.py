"""The check pass reuses the plain run of the same case (grader/core/emulator/runmemo.py)."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from grader.core.backends.base import LaunchConfig, RunOutcome, RunRequest, RunStatus
from grader.core.emulator import runmemo
from grader.core.results import Diagnostic
from grader.core.verdicts import DiagnosticKind

LAUNCH = LaunchConfig((1, 1, 1), (32, 1, 1), 0)


class Backend:
    """Counts its plain runs; each ends with `status` and one note."""

    def __init__(self, status=RunStatus.OK):
        self.runs, self.status = 0, status

    def _run_once(self, build, request, variant, start_aligned):
        assert (variant, start_aligned) == ("fast", False)
        self.runs += 1
        return RunOutcome(self.status, diagnostics=[Diagnostic(DiagnosticKind.NOTE, test=request.test_name)])


def request(x, check=False, launch=LAUNCH, time_limit_s=1.0):
    return RunRequest(launch, {"x": x, "n": 32}, time_limit_s=time_limit_s, check=check, test_name="small")


def test_the_check_pass_takes_a_copy_of_the_same_cases_ok_run():
    """Same launch and inputs (a longer limit): no second run, and the copy's diagnostics are its own."""
    backend, build = Backend(), SimpleNamespace(handle=SimpleNamespace(plain_runs={}))
    first = runmemo.plain_run(backend, build, request(np.arange(32, dtype=np.float32)))
    again = runmemo.plain_run(backend, build, request(np.arange(32, dtype=np.float32), check=True, time_limit_s=4.0))
    assert backend.runs == 1 and again.status is RunStatus.OK
    again.diagnostics[0].check = True  # what the judge does to the check pass's diagnostics
    assert first.diagnostics[0].check is False


def test_other_inputs_launches_failed_runs_and_the_full_pass_run_again():
    x = np.arange(32, dtype=np.float32)
    backend, build = Backend(), SimpleNamespace(handle=SimpleNamespace(plain_runs={}))
    runmemo.plain_run(backend, build, request(x))
    runmemo.plain_run(backend, build, request(x + 1, check=True))
    runmemo.plain_run(backend, build, request(x, check=True, launch=LaunchConfig((1, 1, 1), (32, 1, 1), 0, coresident=True)))
    runmemo.plain_run(backend, build, request(x, check=True), reuse=False)
    assert backend.runs == 4
    failing, build = Backend(RunStatus.FAULT), SimpleNamespace(handle=SimpleNamespace(plain_runs={}))
    runmemo.plain_run(failing, build, request(x))
    runmemo.plain_run(failing, build, request(x, check=True))
    assert failing.runs == 2 and build.handle.plain_runs == {}


def test_the_key_names_dtype_shape_and_bytes_and_skips_large_inputs():
    x = np.arange(8, dtype=np.int32)
    assert runmemo.key(LAUNCH, {"x": x}) == runmemo.key(LAUNCH, {"x": x.copy()})
    assert runmemo.key(LAUNCH, {"x": x}) != runmemo.key(LAUNCH, {"x": x.astype(np.uint32)})
    assert runmemo.key(LAUNCH, {"x": x}) != runmemo.key(LAUNCH, {"x": x.reshape(2, 4)})
    assert runmemo.key(LAUNCH, {"x": x, "n": 8}) != runmemo.key(LAUNCH, {"x": x, "n": 9})
    assert runmemo.key(LAUNCH, {"x": np.zeros(runmemo.MAX_BYTES + 1, np.uint8)}) is None
