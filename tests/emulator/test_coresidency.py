"""Co-residency (docs/synchronization.md row 17): an inter-block spin barrier in an ordinary launch is a
SYNC_ERROR that names how many blocks fit at once when the grid fits on the target GPU, and stays a
DEADLOCK when it does not or when the blocks wait for something no block ever does. And a lost update
(row 14), which the plain runs cannot show, is not ACCEPTED either."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from grader.core import messages as M
from grader.core.backends.base import LaunchConfig, RunRequest, RunStatus
from grader.core.judge import judge
from grader.core.verdicts import Verdict
from tests.fidelity.cases import load_case

from .conftest import spec

CASES = Path(__file__).resolve().parents[1] / "fidelity" / "cases"
SPIN = spec("k", ("x", "in", "float32"), ("partial", "inout", "float32"), ("count", "inout", "uint32"),
            ("total", "inout", "float32"), ("n", "scalar", "int32"))


def _spin_inputs(n: int) -> dict:
    return {"x": np.ones(n, np.float32), "partial": np.zeros(n // 256, np.float32), "count": np.zeros(1, np.uint32),
            "total": np.zeros(1, np.float32), "n": n}


def test_spin_barrier_that_fits_is_a_sync_error_naming_the_resident_blocks(backend):
    """8 blocks of 256 threads on the H200 (8 per SM x 132 SMs = 1056 resident): SYNC_ERROR, not DEADLOCK,
    with the number of blocks beyond which it hangs."""
    case = load_case(CASES / "spin-grid-barrier-fits")
    result = judge(case.package(), case.source, backend, run_checks=False)
    assert result.verdict is Verdict.SYNC_ERROR, result.message
    found = [d for d in result.diagnostics if d.detail.get("shape") == "co_residency"]
    assert len(found) == 1 and found[0].message.template == M.CO_RESIDENT_SPIN
    assert found[0].detail["coresident_blocks"] == 1056 and found[0].detail["blocks"] == 8
    assert "relies on co-resident blocks, which CUDA does not promise; it hangs when the grid exceeds 1056 blocks " \
           "for this GPU" in found[0].message
    assert found[0].line == 7  # the spin loop
    assert not [d for d in result.diagnostics if str(d.kind) == "deadlock"]


def test_coresident_run_completes_the_spin_barrier(backend):
    """The emulator's co-resident launch interleaves the blocks, so every block reaches the barrier and
    block 0 sums all partials; the ordinary launch deadlocks (unproven: threads spin)."""
    source = (CASES / "spin-grid-barrier-fits" / "kernel.cu").read_text()
    build = backend.compile(source, SPIN)
    try:
        assert build.compile.ok, build.compile.log
        plain = backend.run(build, RunRequest(LaunchConfig((8, 1, 1), (256, 1, 1)), _spin_inputs(2048),
                                              time_limit_s=5.0, test_name="t"))
        assert plain.status is RunStatus.DEADLOCK
        resident = backend.run(build, RunRequest(LaunchConfig((8, 1, 1), (256, 1, 1), coresident=True),
                                                 _spin_inputs(2048), time_limit_s=5.0, test_name="t"))
        assert resident.status is RunStatus.OK, resident.message
        assert resident.outputs["total"][0] == 2048.0
        assert resident.outputs["count"][0] == 8
    finally:
        backend.close(build)


def test_blocks_spinning_on_a_flag_nobody_sets_stay_a_deadlock(backend):
    """Co-residency does not help a wait no block ends: the rerun deadlocks too, and the verdict stays DEADLOCK."""
    case = load_case(CASES / "spin-grid-barrier-fits")
    source = case.source.replace("atomicAdd((unsigned int*)count, 1u);", "")
    result = judge(case.package(), source, backend, run_checks=False)
    assert result.verdict is Verdict.DEADLOCK, result.message
    assert not [d for d in result.diagnostics if d.detail.get("shape") == "co_residency"]


def test_a_lost_update_whose_counts_come_out_right_is_not_accepted(backend):
    """`hist[v]++` without atomics: within a block the emulator's lanes run one after another and lose
    no update, so the counts often come out right (blocks on different worker threads may still lose
    some, as a GPU does: a row is then WRONG_ANSWER); either way the check pass's LOST_UPDATE race makes
    it SYNC_ERROR with the atomics advice (docs/synchronization.md row 14)."""
    case = load_case(CASES / "histogram-lost-update")
    result = judge(case.package(), case.source, backend)
    assert {str(t.verdict) for t in result.tests} <= {"ACCEPTED", "WRONG_ANSWER"}
    assert result.verdict is Verdict.SYNC_ERROR
    lost = [d for d in result.diagnostics if d.detail.get("shape") == "lost_update"]
    assert lost and "atomicAdd" in lost[0].message
