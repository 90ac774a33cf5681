"""One function per resource that can limit resident blocks per SM, each returning the blocks it
allows and the steps of its working (the method of CUDA's cuda_occupancy.h; see the package's
docstring for each rule). `cap` is the compute capability's table (gpus.ComputeCapability)."""
from __future__ import annotations

from ..gpus import ComputeCapability
from .model import Limiter, Step, carveout_size, round_up


def by_warps(cap: ComputeCapability, threads: int, warps: int) -> tuple[int, list[Step]]:
    """Blocks the SM's warp slots hold: ⌊max warps per SM / warps per block⌋, 0 for a block over the
    per-block thread maximum (it cannot launch)."""
    if threads > cap.max_threads_per_block:
        return 0, [Step("threads_over_max", {"threads": threads, "max": cap.max_threads_per_block},
                        f"{threads} > {cap.max_threads_per_block}", Limiter.WARPS)]
    blocks = cap.max_warps_per_sm // warps
    return blocks, [Step("limit_warps", {"max_warps": cap.max_warps_per_sm, "warps": warps, "blocks": blocks},
                         f"⌊{cap.max_warps_per_sm} / {warps}⌋ = {blocks}", Limiter.WARPS)]


def by_blocks(cap: ComputeCapability) -> tuple[int, list[Step]]:
    """The hardware cap on resident blocks per SM."""
    blocks = cap.max_blocks_per_sm
    return blocks, [Step("limit_blocks", {"cc": cap.cc, "blocks": blocks}, f"{blocks}", Limiter.BLOCKS)]


def by_registers(cap: ComputeCapability, regs: int, warps: int) -> tuple[int | None, int, list[Step]]:
    """(blocks the register file holds or None for a kernel without registers, registers allocated
    per warp, steps). Registers go per warp, regs × 32 rounded up to the allocation unit; each of the
    sub-partitions holds its share of the file; a block whose warps (rounded up to a multiple of the
    sub-partitions) need more than the per-block maximum, or a thread over the per-thread maximum,
    allows 0."""
    ws, parts = cap.warp_size, cap.sub_partitions
    raw = regs * ws
    per_warp = round_up(raw, cap.reg_alloc_unit)
    if regs > cap.max_regs_per_thread:
        return 0, per_warp, [Step("regs_over_max", {"regs": regs, "max": cap.max_regs_per_thread},
                                  f"{regs} > {cap.max_regs_per_thread}", Limiter.REGISTERS)]
    if per_warp == 0:
        return None, per_warp, [Step("regs_none", {}, "", Limiter.REGISTERS)]
    steps = [Step("regs_per_warp", {"unit": cap.reg_alloc_unit, "regs": regs, "raw": raw, "per_warp": per_warp},
                  f"⌈{regs} × {ws} / {cap.reg_alloc_unit}⌉ × {cap.reg_alloc_unit} = {per_warp}", Limiter.REGISTERS)]
    warps_rounded = round_up(warps, parts)
    needed = per_warp * warps_rounded
    if needed > cap.regs_per_block or per_warp * warps > cap.regs_per_block:
        steps.append(Step("regs_block_over_max", {"per_warp": per_warp, "warps_rounded": warps_rounded,
                                                  "needed": needed, "parts": parts, "max": cap.regs_per_block},
                          f"{per_warp} × {warps_rounded} = {needed} > {cap.regs_per_block}", Limiter.REGISTERS))
        return 0, per_warp, steps
    part_regs = cap.regs_per_sm // parts
    per_part = part_regs // per_warp
    reg_warps = per_part * parts
    blocks = reg_warps // warps
    steps.append(Step("regs_warps_per_sm", {"parts": parts, "part_regs": part_regs, "per_part": per_part,
                                            "reg_warps": reg_warps},
                      f"⌊{part_regs} / {per_warp}⌋ × {parts} = {reg_warps}", Limiter.REGISTERS))
    steps.append(Step("limit_regs", {"reg_warps": reg_warps, "warps": warps, "blocks": blocks},
                      f"⌊{reg_warps} / {warps}⌋ = {blocks}", Limiter.REGISTERS))
    return blocks, per_warp, steps


def by_shared_memory(cap: ComputeCapability, smem_static: int, smem_dynamic: int, max_dynamic_smem: int | None,
                     carveout: int | None) -> tuple[int | None, int, int | None, list[Step]]:
    """(blocks the SM's shared memory holds or None for a block that needs none, bytes allocated per
    block, bytes the SM is configured with or None when the launch fails first, steps).

    A block takes static + dynamic + the driver's reservation, rounded up to the allocation unit;
    dynamic memory past the kernel's limit (`max_dynamic_smem`; None: opted in as far as the device
    allows) or a block past the per-block maximum allows 0. The SM offers the largest carveout by
    default, else `carveout` percent rounded up to a supported size, never less than one block needs.
    """
    reserved = cap.smem_reserved_per_block
    total = smem_static + smem_dynamic + reserved
    alloc = round_up(total, cap.smem_alloc_unit)
    steps = [Step("smem_per_block", {"static": smem_static, "dynamic": smem_dynamic, "reserved": reserved,
                                     "total": total, "unit": cap.smem_alloc_unit, "alloc": alloc},
                  f"⌈({smem_static} + {smem_dynamic} + {reserved}) / {cap.smem_alloc_unit}⌉ × "
                  f"{cap.smem_alloc_unit} = {alloc}", Limiter.SHARED_MEMORY)]
    max_dyn = cap.smem_per_block_optin - smem_static if max_dynamic_smem is None else max_dynamic_smem
    max_dyn = max(max_dyn, 0)
    if smem_dynamic > max_dyn:
        steps.append(Step("smem_dynamic_over_attr", {"dynamic": smem_dynamic, "max_dynamic": max_dyn},
                          f"{smem_dynamic} > {max_dyn}", Limiter.SHARED_MEMORY))
        return 0, alloc, None, steps
    wants_optin = smem_static + reserved + max_dyn > cap.smem_per_block_default
    per_block_max = (cap.smem_per_block_optin if wants_optin else cap.smem_per_block_default) + reserved
    if alloc > per_block_max:
        steps.append(Step("smem_block_over_max", {"cc": cap.cc, "max": per_block_max, "alloc": alloc},
                          f"{alloc} > {per_block_max}", Limiter.SHARED_MEMORY))
        return 0, alloc, None, steps
    if carveout is None or carveout == -1:
        smem_sm = cap.smem_per_sm
        steps.append(Step("smem_per_sm_default", {"smem_sm": smem_sm}, f"{smem_sm}", Limiter.SHARED_MEMORY))
    else:
        preferred = carveout_size(cap, carveout * cap.smem_per_sm // 100)
        if preferred >= alloc:
            smem_sm = preferred
            steps.append(Step("smem_per_sm_carveout", {"carveout": carveout, "smem_max": cap.smem_per_sm,
                                                       "smem_sm": smem_sm},
                              f"{carveout} % × {cap.smem_per_sm} → {smem_sm}", Limiter.SHARED_MEMORY))
        else:
            smem_sm = carveout_size(cap, alloc)
            steps.append(Step("smem_per_sm_grown", {"preferred": preferred, "smem_sm": smem_sm},
                              f"{preferred} < {alloc} → {smem_sm}", Limiter.SHARED_MEMORY))
    if alloc == 0:
        return None, alloc, smem_sm, steps
    blocks = smem_sm // alloc
    steps.append(Step("limit_smem", {"smem_sm": smem_sm, "alloc": alloc, "blocks": blocks},
                      f"⌊{smem_sm} / {alloc}⌋ = {blocks}", Limiter.SHARED_MEMORY))
    return blocks, alloc, smem_sm, steps


def by_barriers(cap: ComputeCapability, barriers: int, block_slots: int) -> tuple[int | None, list[Step]]:
    """Blocks the SM's hardware block barriers allow (cudaOccMaxBlocksPerSMBlockBarrierLimit): from cc
    9.0, ⌊block slots × barriers per slot / barriers the kernel uses⌋; None where they set no limit
    (before 9.0, or a kernel without barriers). A step only when it binds below the block slots."""
    if cap.major < 9 or barriers <= 0:
        return None, []
    available = block_slots * cap.barriers_per_block_slot
    blocks = available // barriers
    if blocks >= block_slots:
        return blocks, []
    return blocks, [Step("limit_barriers", {"barriers": barriers, "cc": cap.cc, "available": available,
                                            "blocks": blocks},
                         f"⌊{available} / {barriers}⌋ = {blocks}", Limiter.BARRIERS)]
