"""The occupancy model's prose: each limiting resource's name and each step of the working, in
English and Korean (CUDA terms stay in English in the Korean, as Korean courses write them)."""
from __future__ import annotations

from .model import Limiter

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
        "ko": "block당 {threads} thread는 허용 최대치 {max}를 넘습니다. 커널 실행이 실패합니다.",
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
        "ko": "커널이 register를 쓰지 않으므로 register 제한은 없습니다.",
    },
    "regs_over_max": {
        "en": "{regs} registers per thread is more than the {max} a thread may use: the kernel cannot launch.",
        "ko": "thread당 register {regs}개는 최대치 {max}개를 넘으므로 커널을 실행할 수 없습니다.",
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
              "{parts}의 배수로 올림). block당 최대 {max}개를 넘으므로 실행할 수 없습니다 (SM당 block 0개).",
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
        "ko": "dynamic shared memory {dynamic} byte는 커널의 한도 {max_dynamic} byte를 넘습니다 (48 KiB를 넘으려면 "
              "cudaFuncAttributeMaxDynamicSharedMemorySize로 명시적으로 허용해야 합니다). 커널 실행이 실패합니다.",
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
        "ko": "커널이 block barrier {barriers}개를 씁니다. cc {cc}의 SM에는 {available}개가 있으므로 최대 "
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
        "ko": "block이 하나도 들어가지 않습니다 ({limiter}). 커널 실행이 실패하고 occupancy는 0입니다.",
    },
}
