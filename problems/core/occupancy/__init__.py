"""The occupancy model: how many blocks of a kernel fit on one SM, and what limits them.

Plain Python, no Django. The method is that of CUDA's `cuda_occupancy.h` (CUDA 13.0), written anew:

- warps:      a block takes ceil(threads / 32) warp slots; blocks <= max warps per SM // warps per block;
              a block over 1024 threads cannot launch.
- blocks:     at most `max_blocks_per_sm` resident blocks.
- registers:  registers are allocated per warp, regs x 32 rounded up to 256; each of the 4 SM
              sub-partitions holds a quarter of the register file, so warps per SM
              = (regs_per_sm / 4 // regs per warp) x 4. A block whose warps, rounded up to a multiple
              of 4, need more than 64 K registers cannot launch (the hardware check), nor can a
              kernel above 255 registers per thread.
- shared:     static + dynamic + the driver's per-block reservation (1 KiB from cc 8.0,
              cudaDevAttrReservedSharedMemoryPerBlock), rounded up to the allocation unit (256 B on
              7.x, 128 B from 8.0); the SM's capacity is the carveout (the largest by default, else
              the preference rounded up to a supported size, but never below one block's need);
              dynamic shared memory above the kernel's limit (48 KiB minus static unless the kernel
              opted in with cudaFuncAttributeMaxDynamicSharedMemorySize) cannot launch.
- barriers:   from cc 9.0 a block slot has a fixed number of hardware barriers (2 on 9.0), which limits
              kernels that use many named barriers.

Checked against cudaOccupancyMaxActiveBlocksPerMultiprocessor on an H200 for every row of
tests/fixtures/occupancy_h200_2026-11-29.json, and against the seed's worked examples (cc 8.6).

The package: `model.py` (Limiter, Step, OccupancyResult), `limits.py` (one function per limiting
resource: by_warps, by_blocks, by_registers, by_shared_memory, by_barriers), `text.py` (the working's
prose and the resources' names in English and Korean); `occupancy()` here takes the smallest.
"""
from __future__ import annotations

from typing import Any

from ..gpus import ComputeCapability, UnknownGPUError, capability
from . import limits as _limits
from .model import (LANGUAGES, LIMITER_ORDER, Limiter, OccupancyInputError, OccupancyResult, Step,  # noqa: F401
                    carveout_size, ceil_div, pct)
from .text import LIMITER_NAMES, STEP_TEXT  # noqa: F401


def occupancy(
    cc: str | float | ComputeCapability,
    threads: int,
    regs: int,
    smem_static: int = 0,
    smem_dynamic: int = 0,
    *,
    max_dynamic_smem: int | None = None,
    carveout: int | None = None,
    barriers: int = 1,
) -> OccupancyResult:
    """Resident blocks per SM for a kernel launch, with the limiting resource and the working.

    cc: compute capability ("8.6"); threads: threads per block (>= 1); regs: registers per thread
    (as ptxas/cudaFuncGetAttributes report it); smem_static / smem_dynamic: bytes per block.
    max_dynamic_smem: the kernel's cudaFuncAttributeMaxDynamicSharedMemorySize; None assumes the kernel
    opted in as far as needed (the device's per-block maximum minus static). carveout: the kernel's
    preferred shared-memory carveout in percent (None or -1 = default). barriers: block barriers the
    kernel uses (ptxas "used N barriers"; matters from cc 9.0).
    Raises OccupancyInputError for negative or malformed inputs, UnknownGPUError for an unknown cc.
    """
    cap = capability(cc)
    for name, value in (("threads", threads), ("regs", regs), ("smem_static", smem_static),
                        ("smem_dynamic", smem_dynamic), ("barriers", barriers)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise OccupancyInputError(f"{name} must be a whole number >= 0, not {value!r}.")
    if threads < 1:
        raise OccupancyInputError("threads must be at least 1.")
    if carveout is not None and not (-1 <= carveout <= 100):
        raise OccupancyInputError(f"carveout must be -1 (default) or a percentage 0..100, not {carveout!r}.")

    ws = cap.warp_size
    warps = ceil_div(threads, ws)
    steps: list[Step] = [Step("warps_per_block", {"threads": threads, "warps": warps}, f"⌈{threads} / {ws}⌉ = {warps}")]
    by_warps, said = _limits.by_warps(cap, threads, warps)
    steps += said
    by_blocks, said = _limits.by_blocks(cap)
    steps += said
    by_regs, per_warp, said = _limits.by_registers(cap, regs, warps)
    steps += said
    by_smem, alloc, smem_sm, said = _limits.by_shared_memory(cap, smem_static, smem_dynamic, max_dynamic_smem, carveout)
    steps += said
    limits: dict[Limiter, int | None] = {
        Limiter.WARPS: by_warps,
        Limiter.REGISTERS: by_regs,
        Limiter.SHARED_MEMORY: by_smem,
        Limiter.BLOCKS: by_blocks,
    }
    by_barriers, said = _limits.by_barriers(cap, barriers, by_blocks)
    steps += said
    if by_barriers is not None:
        limits[Limiter.BARRIERS] = by_barriers

    blocks = min(v for v in limits.values() if v is not None)
    limiters = tuple(k for k in LIMITER_ORDER if limits.get(k) == blocks)
    active = blocks * warps
    occ = active / cap.max_warps_per_sm
    if blocks > 0:
        steps.append(Step("result", {"blocks": blocks, "limiter": limiters[0], "warps": warps, "active_warps": active,
                                     "max_warps": cap.max_warps_per_sm, "occupancy_pct": pct(occ)},
                          f"min({', '.join('∞' if v is None else str(v) for v in limits.values())}) = {blocks}; "
                          f"{active} / {cap.max_warps_per_sm} = {occ:.3f}"))
    else:
        steps.append(Step("result_none", {"limiter": limiters[0]}, "0"))

    return OccupancyResult(
        cc=cap.cc, threads_per_block=threads, registers_per_thread=regs, smem_static=smem_static,
        smem_dynamic=smem_dynamic, warps_per_block=warps, blocks_per_sm=blocks, active_warps=active,
        max_warps=cap.max_warps_per_sm, occupancy=occ, limiter=limiters[0], limiters=limiters, limits=limits,
        regs_per_warp=per_warp, smem_per_block=alloc, smem_per_sm=smem_sm, steps=tuple(steps),
    )


def occupancy_for_resources(res: Any) -> dict:
    """The occupancy of a judged launch, from `grader.core.results.Resources`, as a JSON-ready dict.

    Reads res.registers, res.shared_static_bytes, res.shared_dynamic_bytes, res.threads_per_block,
    res.compute_capability and (if present) res.barriers. Missing sizes count as 0; missing registers
    or threads raise OccupancyInputError (the judge logs it and carries on).
    """
    if res.registers is None or res.threads_per_block is None:
        raise OccupancyInputError("registers and threads per block are needed for occupancy.")
    barriers = getattr(res, "barriers", None)
    result = occupancy(
        res.compute_capability or "9.0",
        int(res.threads_per_block),
        int(res.registers),
        int(res.shared_static_bytes or 0),
        int(res.shared_dynamic_bytes or 0),
        barriers=int(barriers) if barriers is not None else 1,
    )
    return result.to_dict()


# ---- searches used by the question generators and the calculator's charts -------------------


def max_registers_for(cc: str, threads: int, smem: int, min_occupancy: float) -> int | None:
    """The largest registers per thread (1..255) that keeps occupancy >= min_occupancy; None if none does.

    Occupancy never rises with more registers, so a binary search finds the edge."""
    cap = capability(cc)

    def ok(regs: int) -> bool:
        return occupancy(cap, threads, regs, smem).occupancy + 1e-12 >= min_occupancy

    if not ok(1):
        return None
    lo, hi = 1, cap.max_regs_per_thread
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if ok(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


def max_dynamic_smem_for(cc: str, threads: int, regs: int, smem_static: int, blocks: int) -> int | None:
    """The largest dynamic shared memory per block (bytes) that keeps >= `blocks` blocks per SM; None if none does."""
    cap = capability(cc)
    lo, hi = 0, cap.smem_per_block_optin - smem_static
    if hi < 0 or occupancy(cap, threads, regs, smem_static, 0).blocks_per_sm < blocks:
        return None
    while lo < hi:  # blocks_per_sm is non-increasing in dynamic shared memory
        mid = (lo + hi + 1) // 2
        if occupancy(cap, threads, regs, smem_static, mid).blocks_per_sm >= blocks:
            lo = mid
        else:
            hi = mid - 1
    return lo


def series(cc: str, threads: int, regs: int, smem: int, vary: str) -> list[tuple[int, float]]:
    """(x, occupancy) points for a chart, varying one input and holding the others.

    vary: "threads" (32..1024 step 32), "regs" (8..255) or "smem" (0..per-block max, 1 KiB steps, plus
    every point where the result changes, so cliffs are exact).
    """
    cap = capability(cc)
    if vary == "threads":
        xs = list(range(cap.warp_size, cap.max_threads_per_block + 1, cap.warp_size))
        return [(x, occupancy(cap, x, regs, smem).occupancy) for x in xs]
    if vary == "regs":
        return [(x, occupancy(cap, threads, x, smem).occupancy) for x in range(8, cap.max_regs_per_thread + 1)]
    if vary == "smem":
        top = cap.smem_per_block_optin
        step = cap.smem_alloc_unit
        pts = [(x, occupancy(cap, threads, regs, x).occupancy) for x in range(0, top + 1, step)]
        # Keep the points where the value changes (and the ends): the chart stays small and exact.
        kept = [pts[0]]
        for i in range(1, len(pts) - 1):
            if pts[i][1] != pts[i - 1][1] or pts[i][1] != pts[i + 1][1]:
                kept.append(pts[i])
        kept.append(pts[-1])
        return kept
    raise OccupancyInputError(f"vary must be threads, regs or smem, not {vary!r}.")


__all__ = [
    "Limiter", "LIMITER_NAMES", "OccupancyInputError", "OccupancyResult", "Step", "UnknownGPUError",
    "occupancy", "occupancy_for_resources", "max_registers_for", "max_dynamic_smem_for", "series", "carveout_size",
]
