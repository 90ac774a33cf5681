"""Per-compute-capability SM limits and named GPUs, for the occupancy model.

Plain data, no Django. Sources, cited per value below:
  [PG]    CUDA C++ Programming Guide, "Compute Capabilities" -> "Technical Specifications per Compute
          Capability" and the per-architecture "Shared Memory" sections (7.x, 8.x, 9.0).
  [OCC]   CUDA 13.0 `cuda_occupancy.h`: register allocation unit (cudaOccRegAllocationGranularity),
          sub-partitions (cudaOccSubPartitionsPerMultiprocessor), shared-memory allocation unit
          (cudaOccSMemAllocationGranularity), carveout sizes (cudaOccAlignUpShmemSizeVoltaPlus),
          block barriers per block slot (cudaOccMaxBlocksPerSMBlockBarrierLimit).
  [H200]  cudaGetDeviceProperties on an H200 (2026-11-29), stored in tests/fixtures/occupancy_h200_2026-11-29.json.
  [WP]    NVIDIA architecture whitepapers and product datasheets (SM counts of shipping products).
"""
from __future__ import annotations

from dataclasses import dataclass

KIB = 1024


class UnknownGPUError(ValueError):
    """The compute capability or GPU name is not in our tables."""


@dataclass(frozen=True)
class ComputeCapability:
    """The per-SM and per-block limits that decide occupancy on one compute capability."""

    cc: str  # "8.6"
    architecture: str  # marketing name of the SM generation
    max_threads_per_sm: int
    max_blocks_per_sm: int
    regs_per_sm: int  # 32-bit registers in the SM's register file
    regs_per_block: int  # most registers one block may hold
    smem_per_sm: int  # bytes of shared memory per SM at the largest carveout
    smem_per_block_optin: int  # bytes one block may use after cudaFuncAttributeMaxDynamicSharedMemorySize
    smem_reserved_per_block: int  # bytes the driver reserves per block (cudaDevAttrReservedSharedMemoryPerBlock)
    smem_alloc_unit: int  # shared memory is allocated per block in multiples of this
    carveouts_kib: tuple[int, ...]  # shared-memory capacities per SM the L1/shared split can take
    barriers_per_block_slot: int  # hardware block barriers per block slot (used from cc 9.0 on)
    smem_per_block_default: int = 48 * KIB  # without the opt-in attribute (all cc >= 7.0) [PG]
    max_threads_per_block: int = 1024  # [PG]
    max_regs_per_thread: int = 255  # [PG]
    reg_alloc_unit: int = 256  # registers are allocated per warp in multiples of 256 [OCC]
    sub_partitions: int = 4  # SM sub-partitions (schedulers), each with a quarter of the register file [OCC]
    warp_size: int = 32

    @property
    def max_warps_per_sm(self) -> int:
        return self.max_threads_per_sm // self.warp_size

    @property
    def major(self) -> int:
        return int(self.cc.split(".")[0])


# Values per cc; each line names its source. Shared memory sizes in bytes.
CAPABILITIES: dict[str, ComputeCapability] = {
    cap.cc: cap
    for cap in (
        ComputeCapability(
            cc="7.0", architecture="Volta",
            max_threads_per_sm=2048,  # 64 warps [PG]
            max_blocks_per_sm=32,  # [PG] [OCC]
            regs_per_sm=64 * KIB, regs_per_block=64 * KIB,  # [PG]
            smem_per_sm=96 * KIB,  # [PG] "Shared Memory" 7.x: up to 96 KB per SM
            smem_per_block_optin=96 * KIB,  # [PG] 7.x: 96 KB per block with opt-in
            smem_reserved_per_block=0,  # the reservation starts with cc 8.0 [OCC]
            smem_alloc_unit=256,  # [OCC]
            carveouts_kib=(0, 8, 16, 32, 64, 96),  # [PG] 7.x, [OCC]
            barriers_per_block_slot=2,  # [OCC]
        ),
        ComputeCapability(
            cc="7.5", architecture="Turing",
            max_threads_per_sm=1024,  # 32 warps [PG]
            max_blocks_per_sm=16,  # [PG] [OCC]
            regs_per_sm=64 * KIB, regs_per_block=64 * KIB,  # [PG]
            smem_per_sm=64 * KIB,  # [PG] 7.5: 32 or 64 KB per SM
            smem_per_block_optin=64 * KIB,  # [PG] 7.5: 64 KB per block with opt-in
            smem_reserved_per_block=0,  # [OCC]
            smem_alloc_unit=256,  # [OCC]
            carveouts_kib=(32, 64),  # [PG] [OCC]
            barriers_per_block_slot=2,  # [OCC]
        ),
        ComputeCapability(
            cc="8.0", architecture="Ampere (GA100)",
            max_threads_per_sm=2048,  # 64 warps [PG]
            max_blocks_per_sm=32,  # [PG] [OCC]
            regs_per_sm=64 * KIB, regs_per_block=64 * KIB,  # [PG]
            smem_per_sm=164 * KIB,  # [PG] 8.0: 164 KB per SM
            smem_per_block_optin=163 * KIB,  # [PG] 8.0: 163 KB per block
            smem_reserved_per_block=1 * KIB,  # [PG] [OCC] 1 KB reserved per block from 8.0
            smem_alloc_unit=128,  # [OCC]
            carveouts_kib=(0, 8, 16, 32, 64, 100, 132, 164),  # [PG] 8.0, [OCC]
            barriers_per_block_slot=2,  # [OCC]
        ),
        ComputeCapability(
            cc="8.6", architecture="Ampere (GA10x)",
            max_threads_per_sm=1536,  # 48 warps [PG]; the seed's worked examples use this
            max_blocks_per_sm=16,  # [PG] [OCC]
            regs_per_sm=64 * KIB, regs_per_block=64 * KIB,  # [PG]
            smem_per_sm=100 * KIB,  # [PG] 8.6: 100 KB per SM
            smem_per_block_optin=99 * KIB,  # [PG] 8.6: 99 KB per block
            smem_reserved_per_block=1 * KIB,  # [PG] [OCC]
            smem_alloc_unit=128,  # [OCC]
            carveouts_kib=(0, 8, 16, 32, 64, 100),  # [PG] 8.6, [OCC]
            barriers_per_block_slot=1,  # [OCC]
        ),
        ComputeCapability(
            cc="8.9", architecture="Ada Lovelace",
            max_threads_per_sm=1536,  # 48 warps [PG]
            max_blocks_per_sm=24,  # [PG] [OCC] (not 16: the seed's post (1) errs here)
            regs_per_sm=64 * KIB, regs_per_block=64 * KIB,  # [PG]
            smem_per_sm=100 * KIB,  # [PG] 8.9: 100 KB per SM
            smem_per_block_optin=99 * KIB,  # [PG]
            smem_reserved_per_block=1 * KIB,  # [PG] [OCC]
            smem_alloc_unit=128,  # [OCC]
            carveouts_kib=(0, 8, 16, 32, 64, 100),  # [PG] 8.9, [OCC]
            barriers_per_block_slot=1,  # [OCC]
        ),
        ComputeCapability(
            cc="9.0", architecture="Hopper",
            max_threads_per_sm=2048,  # 64 warps [PG] [H200]
            max_blocks_per_sm=32,  # [PG] [OCC] [H200]
            regs_per_sm=64 * KIB, regs_per_block=64 * KIB,  # [PG] [H200]
            smem_per_sm=228 * KIB,  # 233472 B [PG] [H200]
            smem_per_block_optin=227 * KIB,  # 232448 B [PG] [H200]
            smem_reserved_per_block=1 * KIB,  # [H200] cudaDevAttrReservedSharedMemoryPerBlock = 1024
            smem_alloc_unit=128,  # [OCC]
            carveouts_kib=(0, 8, 16, 32, 64, 100, 132, 164, 196, 228),  # [PG] 9.0, [OCC]
            barriers_per_block_slot=2,  # [OCC]
        ),
    )
}


@dataclass(frozen=True)
class GPU:
    """A product: a name students recognise, its compute capability and SM count."""

    key: str  # stable id used in URLs and stored params ("h100-sxm")
    name: str  # "NVIDIA H100 SXM"
    cc: str
    sm_count: int

    @property
    def capability(self) -> ComputeCapability:
        return CAPABILITIES[self.cc]

    @property
    def label(self) -> str:
        return f"{self.name} (cc {self.cc}, {self.sm_count} SMs)"


GPUS: tuple[GPU, ...] = (
    GPU("v100", "NVIDIA Tesla V100", "7.0", 80),  # [WP] Volta whitepaper: 80 SMs
    GPU("t4", "NVIDIA T4", "7.5", 40),  # [WP] Turing T4 datasheet: 2560 CUDA cores / 64 = 40 SMs
    GPU("rtx-2080-ti", "NVIDIA GeForce RTX 2080 Ti", "7.5", 68),  # [WP] Turing whitepaper: 68 SMs
    GPU("a100", "NVIDIA A100", "8.0", 108),  # [WP] Ampere A100 whitepaper: 108 SMs
    GPU("rtx-3090", "NVIDIA GeForce RTX 3090", "8.6", 82),  # [WP] GA102 whitepaper: 82 SMs
    GPU("rtx-a6000", "NVIDIA RTX A6000", "8.6", 84),  # [WP] RTX A6000 datasheet: 10752 cores / 128 = 84 SMs
    GPU("rtx-4090", "NVIDIA GeForce RTX 4090", "8.9", 128),  # [WP] Ada whitepaper: 128 SMs
    GPU("l4", "NVIDIA L4", "8.9", 58),  # [WP] L4 datasheet: 7424 cores / 128 = 58 SMs
    GPU("h100-sxm", "NVIDIA H100 SXM", "9.0", 132),  # [WP] Hopper whitepaper: 132 SMs (SXM5)
    GPU("h100-pcie", "NVIDIA H100 PCIe", "9.0", 114),  # [WP] Hopper whitepaper: 114 SMs (PCIe)
    GPU("h200", "NVIDIA H200", "9.0", 132),  # [H200] multiProcessorCount = 132
)
GPUS_BY_KEY: dict[str, GPU] = {g.key: g for g in GPUS}


def capability(cc: str | float | ComputeCapability) -> ComputeCapability:
    """The limits of a compute capability given as "8.6", 8.6, "86", "sm_86" or a ComputeCapability."""
    if isinstance(cc, ComputeCapability):
        return cc
    text = str(cc).strip().lower().removeprefix("sm_").removeprefix("compute_")
    if text.isdigit() and len(text) == 2:
        text = f"{text[0]}.{text[1]}"
    if text.isdigit() and len(text) == 1:
        text = f"{text}.0"
    try:
        return CAPABILITIES[text]
    except KeyError:
        known = ", ".join(CAPABILITIES)
        raise UnknownGPUError(f"Unknown compute capability {cc!r}; known: {known}.") from None


def gpu(key: str) -> GPU:
    """A GPU by key ("h100-sxm") or by its exact name."""
    if key in GPUS_BY_KEY:
        return GPUS_BY_KEY[key]
    for g in GPUS:
        if g.name.lower() == key.strip().lower():
            return g
    raise UnknownGPUError(f"Unknown GPU {key!r}; known: {', '.join(GPUS_BY_KEY)}.")


def gpus_for(cc: str) -> list[GPU]:
    """The named GPUs of one compute capability."""
    return [g for g in GPUS if g.cc == capability(cc).cc]
