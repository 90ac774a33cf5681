"""What the occupancy question families share: the GPUs, launches and register counts each difficulty
draws, the facts block of a compute capability and the worked lines of an occupancy calculation."""
from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import Any

from problems.core.gpus import GPUS, GPU, ComputeCapability, gpu as gpu_by_key, gpus_for
from problems.core.occupancy import LIMITER_NAMES, Limiter, occupancy

from ..answers import Choice
from .base import TARGET_CC, Block, Family, items, math, p, t

# Which GPUs each difficulty draws from (keys of problems.core.gpus.GPUS).
GPU_POOL = {
    1: ["rtx-3090", "rtx-a6000", "a100", "h100-sxm"],
    2: ["t4", "a100", "rtx-3090", "rtx-4090", "l4", "h100-sxm", "h200"],
    3: [g.key for g in GPUS],
}
THREADS_POOL = {
    1: [128, 256, 512],
    2: [64, 96, 128, 192, 256, 384, 512, 768, 1024],
    3: [64, 96, 100, 128, 160, 192, 200, 256, 320, 384, 500, 512, 640, 768, 1000, 1024],
}
SMEM_POOL = {
    1: [0, 1024, 2048, 4096, 8192],
    2: [0, 2048, 4096, 8192, 12288, 16384, 24576, 32768],
    3: [0, 1000, 3000, 6144, 12288, 20000, 32768, 40960, 49152, 65536, 100000],
}


def draw_regs(rng: random.Random, difficulty: int) -> int:
    if difficulty == 1:
        return rng.choice(range(16, 72, 8))
    if difficulty == 2:
        return rng.randint(16, 128)
    return rng.randint(16, 255)


@functools.cache
def _keys_for(cc: str) -> tuple[str, ...]:
    return tuple(g.key for g in gpus_for(cc))


def target_gpu_keys(difficulty: int) -> Sequence[str]:
    """The GPUs a question of this difficulty may be drawn on: those of the course's target compute
    capability while Family.generate runs with one (base.TARGET_CC), else GPU_POOL[difficulty]."""
    cc = TARGET_CC.get()
    if cc:
        keys = _keys_for(cc)
        if keys:
            return keys
    return GPU_POOL[difficulty]


class GpuFamily(Family):
    """An occupancy family: its GPU is drawn through target_gpu_keys (a course's target GPU decides)."""

    uses_target_cc = True


def draw_launch(rng: random.Random, difficulty: int) -> dict[str, Any]:
    g = gpu_by_key(rng.choice(target_gpu_keys(difficulty)))
    threads = rng.choice([x for x in THREADS_POOL[difficulty] if x <= g.capability.max_threads_per_sm])
    smem = rng.choice([s for s in SMEM_POOL[difficulty] if s <= g.capability.smem_per_block_optin])
    return {"gpu": g.key, "threads": threads, "regs": draw_regs(rng, difficulty), "smem": smem}


def gpu_text(g: GPU) -> dict[str, str]:
    return t(f"an {g.name} (compute capability {g.cc}, {g.sm_count} SMs)",
             f"{g.name} (compute capability {g.cc}, SM {g.sm_count}개)")


def facts(cap: ComputeCapability) -> Block:
    """The per-SM limits students are given (exams print them)."""
    reserved_en = f"; the driver reserves {cap.smem_reserved_per_block} B per block" if cap.smem_reserved_per_block else ""
    reserved_ko = f"; driver가 block마다 {cap.smem_reserved_per_block} B를 예약" if cap.smem_reserved_per_block else ""
    return items(
        [
            f"cc {cap.cc}: up to {cap.max_threads_per_sm} threads ({cap.max_warps_per_sm} warps) and "
            f"{cap.max_blocks_per_sm} blocks per SM; at most 1024 threads per block",
            f"{cap.regs_per_sm} registers per SM, allocated per warp in units of 256, over 4 sub-partitions",
            f"{cap.smem_per_sm} B of shared memory per SM, allocated in units of {cap.smem_alloc_unit} B{reserved_en}",
        ],
        [
            f"cc {cap.cc}: SM당 최대 thread {cap.max_threads_per_sm}개 (warp {cap.max_warps_per_sm}개), "
            f"block {cap.max_blocks_per_sm}개; block당 thread는 최대 1024개",
            f"SM당 register {cap.regs_per_sm}개, warp 단위로 256개씩 할당, sub-partition 4개에 나뉨",
            f"SM당 shared memory {cap.smem_per_sm} B, {cap.smem_alloc_unit} B 단위로 할당{reserved_ko}",
        ],
    )


def launch_text(params: dict[str, Any]) -> Block:
    g = gpu_by_key(params["gpu"])
    gt = gpu_text(g)
    th, rg, sm = params["threads"], params["regs"], params["smem"]
    return p(
        f"A kernel runs on {gt['en']}. It is launched with {th} threads per block; ptxas reports {rg} registers "
        f"per thread, and each block uses {sm} bytes of shared memory (static + dynamic; the kernel opts in to "
        "large dynamic shared memory where needed).",
        f"커널을 {gt['ko']}에서 block당 thread {th}개로 실행합니다. ptxas 기준 thread당 register "
        f"{rg}개, block당 shared memory {sm} byte (static + dynamic; 필요하면 큰 dynamic shared memory 사용을 명시적으로 허용)를 "
        "사용합니다.",
    )


def working(params: dict[str, Any], threads: int | None = None, regs: int | None = None,
            smem: int | None = None) -> list[Block]:
    """The model's steps as solution blocks (text per language + the formula)."""
    g = gpu_by_key(params["gpu"])
    r = occupancy(g.cc, threads or params["threads"], params["regs"] if regs is None else regs,
                  params["smem"] if smem is None else smem)
    blocks: list[Block] = []
    for step in r.steps:
        blocks.append(p(step.text("en"), step.text("ko")))
        if step.formula and step.code not in ("limit_blocks", "smem_per_sm_default"):
            blocks.append(math(step.formula))
    return blocks


def limiter_choices() -> list[Choice]:
    return [Choice(str(k), dict(LIMITER_NAMES[k])) for k in (Limiter.WARPS, Limiter.REGISTERS,
                                                              Limiter.SHARED_MEMORY, Limiter.BLOCKS)]


def _result(params: dict[str, Any]):
    g = gpu_by_key(params["gpu"])
    return occupancy(g.cc, params["threads"], params["regs"], params["smem"])
