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
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from .gpus import ComputeCapability, UnknownGPUError, capability

LANGUAGES = ("en", "ko")


class OccupancyInputError(ValueError):
    """An input to the model is out of range (negative sizes, a carveout outside -1..100, ...)."""


class Limiter(enum.StrEnum):
    """The resource that caps the number of resident blocks per SM."""

    WARPS = "warps"  # warp slots per SM (max threads per SM), or a block larger than 1024 threads
    REGISTERS = "registers"  # the register file (per-warp allocation over 4 sub-partitions)
    SHARED_MEMORY = "shared_memory"  # shared memory per SM (or a block needing more than allowed)
    BLOCKS = "blocks"  # the hardware cap on resident blocks per SM
    BARRIERS = "barriers"  # hardware block barriers per SM (cc 9.0+, kernels using several named barriers)


# Order used to name one limiter when several bind equally (the order of cuda_occupancy.h's flags).
LIMITER_ORDER = (Limiter.WARPS, Limiter.REGISTERS, Limiter.SHARED_MEMORY, Limiter.BLOCKS, Limiter.BARRIERS)

LIMITER_NAMES = {
    Limiter.WARPS: {"en": "warps (threads per SM)", "ko": "warp 수 (SM당 thread)"},
    Limiter.REGISTERS: {"en": "registers", "ko": "register"},
    Limiter.SHARED_MEMORY: {"en": "shared memory", "ko": "shared memory"},
    Limiter.BLOCKS: {"en": "max blocks per SM", "ko": "SM당 최대 block 수"},
    Limiter.BARRIERS: {"en": "block barriers", "ko": "block barrier"},
}

# The working, one template per step code, in every language. Values are filled with str.format.
STEP_TEXT: dict[str, dict[str, str]] = {
    "warps_per_block": {
        "en": "A block of {threads} threads occupies {warps} warps: warps are allocated whole, 32 threads each.",
        "ko": "{threads}개 thread로 된 block은 warp {warps}개를 차지합니다. warp는 32 thread 단위로 통째로 할당됩니다.",
    },
    "threads_over_max": {
        "en": "{threads} threads per block is more than the {max} a block may have: the launch fails.",
        "ko": "block당 {threads} thread는 허용 최대치 {max}를 넘습니다. launch가 실패합니다.",
    },
    "limit_warps": {
        "en": "Warp slots: the SM holds {max_warps} warps, so at most {blocks} blocks of {warps} warps.",
        "ko": "warp 한도: SM에는 warp {max_warps}개가 들어가므로 warp {warps}개짜리 block은 최대 {blocks}개입니다.",
    },
    "limit_blocks": {
        "en": "Block slots: cc {cc} allows at most {blocks} resident blocks per SM.",
        "ko": "block 한도: cc {cc}에서는 SM당 최대 {blocks}개의 block이 상주할 수 있습니다.",
    },
    "regs_none": {
        "en": "The kernel uses no registers, so registers set no limit.",
        "ko": "kernel이 register를 쓰지 않으므로 register 제한은 없습니다.",
    },
    "regs_over_max": {
        "en": "{regs} registers per thread is more than the {max} a thread may use: the kernel cannot launch.",
        "ko": "thread당 register {regs}개는 최대치 {max}개를 넘으므로 kernel을 launch할 수 없습니다.",
    },
    "regs_per_warp": {
        "en": "Registers are allocated per warp in units of {unit}: {regs} × 32 = {raw}, rounded up to {per_warp}.",
        "ko": "register는 warp 단위로 {unit}개씩 할당됩니다: {regs} × 32 = {raw}, 올림하면 {per_warp}개입니다.",
    },
    "regs_block_over_max": {
        "en": "One block needs {per_warp} × {warps_rounded} = {needed} registers (warps rounded up to a multiple of "
              "{parts} for the hardware check), more than the {max} a block may hold: it cannot launch "
              "(blocks per SM = 0).",
        "ko": "block 하나에 register {per_warp} × {warps_rounded} = {needed}개가 필요합니다 (hardware 검사는 warp 수를 "
              "{parts}의 배수로 올림). block당 최대 {max}개를 넘으므로 launch할 수 없습니다 (SM당 block 0개).",
    },
    "regs_warps_per_sm": {
        "en": "Each of the {parts} sub-partitions has {part_regs} registers, enough for {per_part} such warps: "
              "{reg_warps} warps per SM.",
        "ko": "SM의 sub-partition {parts}개는 각각 register {part_regs}개를 가지므로 이런 warp를 {per_part}개씩, "
              "SM 전체로 warp {reg_warps}개를 올릴 수 있습니다.",
    },
    "limit_regs": {
        "en": "Registers allow {reg_warps} warps, so at most {blocks} blocks of {warps} warps.",
        "ko": "register로는 warp {reg_warps}개가 가능하므로 warp {warps}개짜리 block은 최대 {blocks}개입니다.",
    },
    "smem_per_block": {
        "en": "Shared memory per block: {static} static + {dynamic} dynamic + {reserved} reserved by the driver "
              "= {total} bytes, allocated in units of {unit} B: {alloc} bytes.",
        "ko": "block당 shared memory: static {static} + dynamic {dynamic} + driver 예약 {reserved} = {total} byte, "
              "{unit} B 단위로 할당하면 {alloc} byte입니다.",
    },
    "smem_dynamic_over_attr": {
        "en": "{dynamic} bytes of dynamic shared memory is more than the kernel's limit of {max_dynamic} bytes "
              "(above 48 KiB a kernel must opt in with cudaFuncAttributeMaxDynamicSharedMemorySize): "
              "the launch fails.",
        "ko": "dynamic shared memory {dynamic} byte는 kernel의 한도 {max_dynamic} byte를 넘습니다 (48 KiB를 넘으려면 "
              "cudaFuncAttributeMaxDynamicSharedMemorySize로 opt-in해야 합니다). launch가 실패합니다.",
    },
    "smem_block_over_max": {
        "en": "A block may use at most {max} bytes of shared memory on cc {cc}; {alloc} bytes do not fit "
              "(blocks per SM = 0).",
        "ko": "cc {cc}에서 block 하나는 shared memory를 최대 {max} byte까지 쓸 수 있으므로 {alloc} byte는 들어가지 "
              "않습니다 (SM당 block 0개).",
    },
    "smem_per_sm_default": {
        "en": "With the default carveout the SM offers {smem_sm} bytes of shared memory.",
        "ko": "기본 carveout에서 SM의 shared memory는 {smem_sm} byte입니다.",
    },
    "smem_per_sm_carveout": {
        "en": "A carveout preference of {carveout} % of {smem_max} bytes is rounded up to a supported size: "
              "{smem_sm} bytes per SM.",
        "ko": "carveout 선호값 {carveout} % × {smem_max} byte를 지원되는 크기로 올림하면 SM당 {smem_sm} byte입니다.",
    },
    "smem_per_sm_grown": {
        "en": "The carveout preference ({preferred} bytes) is smaller than one block needs, so the driver uses the "
              "next supported size, {smem_sm} bytes per SM.",
        "ko": "carveout 선호값({preferred} byte)이 block 하나보다 작아서 driver는 다음 지원 크기인 SM당 {smem_sm} "
              "byte를 씁니다.",
    },
    "limit_smem": {
        "en": "Shared memory allows ⌊{smem_sm} / {alloc}⌋ = {blocks} blocks.",
        "ko": "shared memory로는 ⌊{smem_sm} / {alloc}⌋ = {blocks}개 block이 가능합니다.",
    },
    "limit_barriers": {
        "en": "The kernel uses {barriers} block barriers; cc {cc} has {available} per SM, so at most {blocks} blocks.",
        "ko": "kernel이 block barrier {barriers}개를 씁니다. cc {cc}의 SM에는 {available}개가 있으므로 최대 "
              "{blocks}개 block입니다.",
    },
    "result": {
        "en": "Blocks per SM = the smallest limit = {blocks} ({limiter}); active warps = {blocks} × {warps} = "
              "{active_warps} of {max_warps}; occupancy = {active_warps} / {max_warps} = {occupancy_pct}.",
        "ko": "SM당 block = 가장 작은 한도 = {blocks}개 ({limiter}); active warp = {blocks} × {warps} = "
              "{active_warps}개 / 최대 {max_warps}개; occupancy = {active_warps} / {max_warps} = {occupancy_pct}.",
    },
    "result_none": {
        "en": "No block fits ({limiter}): the launch fails, occupancy 0.",
        "ko": "block이 하나도 들어가지 않습니다 ({limiter}). launch가 실패하고 occupancy는 0입니다.",
    },
}


@dataclass(frozen=True)
class Step:
    """One line of the working: a text template code, its values and a language-neutral formula."""

    code: str  # key into STEP_TEXT
    values: dict[str, Any] = field(default_factory=dict, compare=False)
    formula: str = ""  # e.g. "⌈41 × 32 / 256⌉ × 256 = 1536"
    resource: Limiter | None = None  # the resource this step computes a limit for, if any

    def text(self, lang: str = "en") -> str:
        templates = STEP_TEXT[self.code]
        values = dict(self.values)
        if isinstance(values.get("limiter"), Limiter):
            values["limiter"] = LIMITER_NAMES[values["limiter"]].get(lang, LIMITER_NAMES[values["limiter"]]["en"])
        return templates.get(lang, templates["en"]).format(**values)

    def to_dict(self) -> dict:
        values = {k: (str(v) if isinstance(v, Limiter) else v) for k, v in self.values.items()}
        return {"code": self.code, "values": values, "formula": self.formula,
                "resource": str(self.resource) if self.resource else None, "text": self.text("en")}


@dataclass(frozen=True)
class OccupancyResult:
    """Blocks per SM, occupancy and the working for one launch configuration on one compute capability."""

    cc: str
    threads_per_block: int
    registers_per_thread: int
    smem_static: int  # bytes
    smem_dynamic: int  # bytes
    warps_per_block: int
    blocks_per_sm: int  # resident blocks per SM; 0 when the launch cannot fit at all
    active_warps: int  # blocks_per_sm x warps_per_block
    max_warps: int  # warp slots per SM
    occupancy: float  # active_warps / max_warps, 0..1
    limiter: Limiter  # the binding resource (first of `limiters` in LIMITER_ORDER)
    limiters: tuple[Limiter, ...]  # every resource whose limit equals blocks_per_sm
    limits: dict[Limiter, int | None]  # blocks per SM each resource allows; None = no limit
    regs_per_warp: int  # registers allocated per warp
    smem_per_block: int  # shared memory allocated per block, bytes (reservation and rounding included)
    smem_per_sm: int | None  # shared memory the SM is configured with for this launch, bytes
    steps: tuple[Step, ...] = field(compare=False)

    @property
    def fits(self) -> bool:
        return self.blocks_per_sm > 0

    def explain(self, lang: str = "en") -> list[str]:
        """The working as sentences in one language."""
        return [s.text(lang) for s in self.steps]

    def to_dict(self) -> dict:
        return {
            "cc": self.cc,
            "threads_per_block": self.threads_per_block,
            "registers_per_thread": self.registers_per_thread,
            "smem_static": self.smem_static,
            "smem_dynamic": self.smem_dynamic,
            "warps_per_block": self.warps_per_block,
            "blocks_per_sm": self.blocks_per_sm,
            "active_warps": self.active_warps,
            "max_warps": self.max_warps,
            "occupancy": self.occupancy,
            "limiter": str(self.limiter),
            "limiters": [str(x) for x in self.limiters],
            "limits": {str(k): v for k, v in self.limits.items()},
            "regs_per_warp": self.regs_per_warp,
            "smem_per_block": self.smem_per_block,
            "smem_per_sm": self.smem_per_sm,
            "fits": self.fits,
            "steps": [s.to_dict() for s in self.steps],
        }


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def _round_up(a: int, unit: int) -> int:
    return _ceil_div(a, unit) * unit


def carveout_size(cap: ComputeCapability, nbytes: int) -> int:
    """The smallest supported shared-memory capacity per SM that holds `nbytes` (cudaOccAlignUpShmemSizeVoltaPlus)."""
    for kib in cap.carveouts_kib:
        if kib * 1024 >= nbytes:
            return kib * 1024
    raise OccupancyInputError(f"{nbytes} bytes is more shared memory than an SM of cc {cap.cc} has.")


def _pct(x: float) -> str:
    return f"{x * 100:.1f} %"


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

    steps: list[Step] = []
    ws = cap.warp_size
    warps = _ceil_div(threads, ws)
    steps.append(Step("warps_per_block", {"threads": threads, "warps": warps}, f"⌈{threads} / {ws}⌉ = {warps}"))

    # Warp slots.
    if threads > cap.max_threads_per_block:
        by_warps = 0
        steps.append(Step("threads_over_max", {"threads": threads, "max": cap.max_threads_per_block},
                          f"{threads} > {cap.max_threads_per_block}", Limiter.WARPS))
    else:
        by_warps = cap.max_warps_per_sm // warps
        steps.append(Step("limit_warps", {"max_warps": cap.max_warps_per_sm, "warps": warps, "blocks": by_warps},
                          f"⌊{cap.max_warps_per_sm} / {warps}⌋ = {by_warps}", Limiter.WARPS))

    # Block slots.
    by_blocks = cap.max_blocks_per_sm
    steps.append(Step("limit_blocks", {"cc": cap.cc, "blocks": by_blocks}, f"{by_blocks}", Limiter.BLOCKS))

    # Registers.
    raw = regs * ws
    per_warp = _round_up(raw, cap.reg_alloc_unit)
    parts = cap.sub_partitions
    warps_rounded = _round_up(warps, parts)
    by_regs: int | None
    if regs > cap.max_regs_per_thread:
        by_regs = 0
        steps.append(Step("regs_over_max", {"regs": regs, "max": cap.max_regs_per_thread},
                          f"{regs} > {cap.max_regs_per_thread}", Limiter.REGISTERS))
    elif per_warp == 0:
        by_regs = None
        steps.append(Step("regs_none", {}, "", Limiter.REGISTERS))
    else:
        steps.append(Step("regs_per_warp", {"unit": cap.reg_alloc_unit, "regs": regs, "raw": raw, "per_warp": per_warp},
                          f"⌈{regs} × {ws} / {cap.reg_alloc_unit}⌉ × {cap.reg_alloc_unit} = {per_warp}",
                          Limiter.REGISTERS))
        needed = per_warp * warps_rounded
        if needed > cap.regs_per_block or per_warp * warps > cap.regs_per_block:
            by_regs = 0
            steps.append(Step("regs_block_over_max", {"per_warp": per_warp, "warps_rounded": warps_rounded,
                                                      "needed": needed, "parts": parts, "max": cap.regs_per_block},
                              f"{per_warp} × {warps_rounded} = {needed} > {cap.regs_per_block}", Limiter.REGISTERS))
        else:
            part_regs = cap.regs_per_sm // parts
            per_part = part_regs // per_warp
            reg_warps = per_part * parts
            by_regs = reg_warps // warps
            steps.append(Step("regs_warps_per_sm", {"parts": parts, "part_regs": part_regs, "per_part": per_part,
                                                    "reg_warps": reg_warps},
                              f"⌊{part_regs} / {per_warp}⌋ × {parts} = {reg_warps}", Limiter.REGISTERS))
            steps.append(Step("limit_regs", {"reg_warps": reg_warps, "warps": warps, "blocks": by_regs},
                              f"⌊{reg_warps} / {warps}⌋ = {by_regs}", Limiter.REGISTERS))

    # Shared memory.
    reserved = cap.smem_reserved_per_block
    total = smem_static + smem_dynamic + reserved
    alloc = _round_up(total, cap.smem_alloc_unit)
    steps.append(Step("smem_per_block", {"static": smem_static, "dynamic": smem_dynamic, "reserved": reserved,
                                         "total": total, "unit": cap.smem_alloc_unit, "alloc": alloc},
                      f"⌈({smem_static} + {smem_dynamic} + {reserved}) / {cap.smem_alloc_unit}⌉ × "
                      f"{cap.smem_alloc_unit} = {alloc}", Limiter.SHARED_MEMORY))
    max_dyn = cap.smem_per_block_optin - smem_static if max_dynamic_smem is None else max_dynamic_smem
    max_dyn = max(max_dyn, 0)
    by_smem: int | None
    smem_sm: int | None = None
    if smem_dynamic > max_dyn:
        by_smem = 0
        steps.append(Step("smem_dynamic_over_attr", {"dynamic": smem_dynamic, "max_dynamic": max_dyn},
                          f"{smem_dynamic} > {max_dyn}", Limiter.SHARED_MEMORY))
    else:
        wants_optin = smem_static + reserved + max_dyn > cap.smem_per_block_default
        per_block_max = (cap.smem_per_block_optin if wants_optin else cap.smem_per_block_default) + reserved
        if alloc > per_block_max:
            by_smem = 0
            steps.append(Step("smem_block_over_max", {"cc": cap.cc, "max": per_block_max, "alloc": alloc},
                              f"{alloc} > {per_block_max}", Limiter.SHARED_MEMORY))
        else:
            if carveout is None or carveout == -1:
                smem_sm = cap.smem_per_sm
                steps.append(Step("smem_per_sm_default", {"smem_sm": smem_sm}, f"{smem_sm}", Limiter.SHARED_MEMORY))
            else:
                preferred = carveout_size(cap, carveout * cap.smem_per_sm // 100)
                if preferred >= alloc:
                    smem_sm = preferred
                    steps.append(Step("smem_per_sm_carveout",
                                      {"carveout": carveout, "smem_max": cap.smem_per_sm, "smem_sm": smem_sm},
                                      f"{carveout} % × {cap.smem_per_sm} → {smem_sm}", Limiter.SHARED_MEMORY))
                else:
                    smem_sm = carveout_size(cap, alloc)
                    steps.append(Step("smem_per_sm_grown", {"preferred": preferred, "smem_sm": smem_sm},
                                      f"{preferred} < {alloc} → {smem_sm}", Limiter.SHARED_MEMORY))
            by_smem = smem_sm // alloc if alloc > 0 else None
            if by_smem is not None:
                steps.append(Step("limit_smem", {"smem_sm": smem_sm, "alloc": alloc, "blocks": by_smem},
                                  f"⌊{smem_sm} / {alloc}⌋ = {by_smem}", Limiter.SHARED_MEMORY))

    limits: dict[Limiter, int | None] = {
        Limiter.WARPS: by_warps,
        Limiter.REGISTERS: by_regs,
        Limiter.SHARED_MEMORY: by_smem,
        Limiter.BLOCKS: by_blocks,
    }
    # Hardware block barriers (cudaOccMaxBlocksPerSMBlockBarrierLimit), from cc 9.0 only.
    if cap.major >= 9 and barriers > 0:
        available = by_blocks * cap.barriers_per_block_slot
        by_barriers = available // barriers
        limits[Limiter.BARRIERS] = by_barriers
        if by_barriers < by_blocks:
            steps.append(Step("limit_barriers", {"barriers": barriers, "cc": cap.cc, "available": available,
                                                 "blocks": by_barriers},
                              f"⌊{available} / {barriers}⌋ = {by_barriers}", Limiter.BARRIERS))

    blocks = min(v for v in limits.values() if v is not None)
    limiters = tuple(k for k in LIMITER_ORDER if limits.get(k) == blocks)
    active = blocks * warps
    occ = active / cap.max_warps_per_sm
    if blocks > 0:
        steps.append(Step("result", {"blocks": blocks, "limiter": limiters[0], "warps": warps, "active_warps": active,
                                     "max_warps": cap.max_warps_per_sm, "occupancy_pct": _pct(occ)},
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
