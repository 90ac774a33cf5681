"""Inter-block spin barriers in an ordinary launch: a SYNC_ERROR that explains co-residency, not a DEADLOCK.

Blocks that spin on a global counter or flag until every block has arrived complete on a GPU
when the whole grid is resident at once, and hang when it is not: CUDA promises co-residency
only to a cooperative launch. The emulator runs the blocks of an ordinary launch one after
another, so the first block spins forever and the run ends as an unproven DEADLOCK. When the grid
fits on the target GPU at once (the occupancy model), the case is run again with every block
co-resident (LaunchConfig.coresident); if it completes there, the finding is a SYNC_ERROR that
names the number of blocks beyond which it hangs (docs/synchronization.md).
"""
from __future__ import annotations

import dataclasses
from typing import Callable

from . import messages as M
from .backends.base import LaunchConfig, RunOutcome, RunRequest, RunStatus
from .errors import UnsupportedLaunchError
from .results import Diagnostic, Resources
from .verdicts import DiagnosticKind


def resident_blocks(launch: LaunchConfig, gpu, registers: int | None, shared_static_bytes: int | None) -> tuple[int, int]:
    """(blocks per SM, blocks of the grid resident at once) for `launch` on `gpu`
    (problems.core.gpus.GPU) by the occupancy model; unknown registers count as 0."""
    from problems.core.occupancy import occupancy  # plain data, imported late: problems imports grader.core

    result = occupancy(gpu.cc, launch.threads_per_block, int(registers or 0), int(shared_static_bytes or 0),
                       int(launch.shared_bytes))
    return result.blocks_per_sm, result.blocks_per_sm * gpu.sm_count


def spins_on_other_blocks(outcome: RunOutcome, launch: LaunchConfig) -> bool:
    """True when `outcome` is the emulator's unproven deadlock of an ordinary multi-block launch with
    threads spinning: the shape an inter-block spin barrier gives when its blocks run one at a time."""
    if outcome.status is not RunStatus.DEADLOCK or launch.cooperative or launch.coresident or launch.blocks < 2:
        return False
    deadlock = next((d for d in outcome.diagnostics if d.kind is DiagnosticKind.DEADLOCK), None)
    return bool(deadlock and deadlock.detail.get("proven") is False and deadlock.detail.get("spinning"))


def explain(backend, build, request: RunRequest, outcome: RunOutcome, gpu,
            resources: Callable[[], Resources | None]) -> tuple[RunOutcome, LaunchConfig | None]:
    """The outcome to grade a case by, and the co-resident launch when it replaced a spinning deadlock.

    When the deadlock is an inter-block wait (spins_on_other_blocks) and the grid fits at once both on
    `gpu` (by the registers and static shared memory of `resources()`, called only then: it may wait
    for ptxas's report; None counts as 0 of each) and on the backend (at most its
    max_coresident_threads threads), the case runs again with every block co-resident: if that
    completes, the returned outcome is that run's, with a DIVERGENT_BARRIER diagnostic (a SYNC_ERROR,
    detail shape "co_residency") that says the kernel relies on co-residency and hangs beyond `fit`
    blocks. Otherwise `outcome` itself and None.
    """
    launch = request.launch
    if not (backend.supports_coresident_launch and spins_on_other_blocks(outcome, launch)):
        return outcome, None
    res = resources()
    per_sm, fit = resident_blocks(launch, gpu, res.registers if res else None, res.shared_static_bytes if res else None)
    cap = getattr(backend, "max_coresident_threads", None)
    if launch.blocks > fit or (cap is not None and launch.blocks * launch.threads_per_block > cap):
        # Beyond the GPU (row 17b's deadlock), or beyond what the backend holds at once: the re-run
        # cannot show that the blocks wait for each other, so the deadlock stands (docs/synchronization.md).
        return outcome, None
    resident = dataclasses.replace(launch, coresident=True)
    rerun = backend.run(build, dataclasses.replace(request, launch=resident))
    if rerun.status is not RunStatus.OK:
        return outcome, None
    deadlock = next(d for d in outcome.diagnostics if d.kind is DiagnosticKind.DEADLOCK)
    line = deadlock.detail.get("spin_line") or deadlock.line
    params = {"line": line, "fit": fit, "gpu": gpu.name, "per_sm": per_sm, "sms": gpu.sm_count,
              "blocks": launch.blocks}
    rerun.diagnostics.insert(0, Diagnostic(
        DiagnosticKind.DIVERGENT_BARRIER, line=line, block=deadlock.block, thread=deadlock.thread,
        test=request.test_name or None, message=M.CO_RESIDENT_SPIN(**params),
        detail={"shape": "co_residency", "coresident_blocks": fit, "blocks": launch.blocks, "spin_line": line,
                "waiting": deadlock.detail.get("waiting"), "spinning": deadlock.detail.get("spinning")}))
    return rerun, resident


def check_capacity(backend, cooperative: bool, launches: list[LaunchConfig], refusals: list) -> None:
    """Raise UnsupportedLaunchError when a cooperative launch that CUDA would make (its refusal None)
    holds more threads at once than `backend` can (its max_coresident_threads): the platform's limit,
    which a GPU worker does not have, never the student's runtime error."""
    cap = getattr(backend, "max_coresident_threads", None)
    if not cooperative or cap is None:
        return
    for launch, refused in zip(launches, refusals):
        if refused is not None:
            continue
        threads = launch.blocks * launch.threads_per_block
        if threads > cap:
            raise UnsupportedLaunchError(f"the {backend.name} backend holds at most {cap} co-resident threads; this "
                                         f"cooperative launch has {threads} ({launch.blocks} blocks)")
