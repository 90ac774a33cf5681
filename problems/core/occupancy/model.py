"""The occupancy model's values: the limiting resources, one step of the working, the result."""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from ..gpus import ComputeCapability

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


@dataclass(frozen=True)
class Step:
    """One line of the working: a text template code, its values and a language-neutral formula."""

    code: str  # key into STEP_TEXT
    values: dict[str, Any] = field(default_factory=dict, compare=False)
    formula: str = ""  # e.g. "⌈41 × 32 / 256⌉ × 256 = 1536"
    resource: Limiter | None = None  # the resource this step computes a limit for, if any

    def text(self, lang: str = "en") -> str:
        """The step as a sentence in `lang` (English where a language lacks it)."""
        from .text import LIMITER_NAMES, STEP_TEXT

        templates = STEP_TEXT[self.code]
        values = dict(self.values)
        if isinstance(values.get("limiter"), Limiter):
            values["limiter"] = LIMITER_NAMES[values["limiter"]].get(lang, LIMITER_NAMES[values["limiter"]]["en"])
        return templates.get(lang, templates["en"]).format(**values)

    def to_dict(self) -> dict:
        values = {k: (str(v) if isinstance(v, Limiter) else v) for k, v in self.values.items()}
        return {"code": self.code, "values": values, "formula": self.formula,
                "resource": str(self.resource) if self.resource else None, "text": self.text("en")}


def step_text(stored: dict, lang: str) -> str:
    """A step as to_dict stored it ({"code", "values", ..., "text"}), as a sentence in `lang` ("en", "ko");
    the stored (English) text where its code or values are not ours (an older or altered result)."""
    from .text import STEP_TEXT

    try:
        values = dict(stored.get("values") or {})
        if isinstance(values.get("limiter"), str) and values["limiter"] in Limiter._value2member_map_:
            values["limiter"] = Limiter(values["limiter"])
        if stored.get("code") not in STEP_TEXT:
            return str(stored.get("text", ""))
        return Step(stored["code"], values).text(lang)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError):
        return str(stored.get("text", ""))


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


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def round_up(a: int, unit: int) -> int:
    return ceil_div(a, unit) * unit


def carveout_size(cap: ComputeCapability, nbytes: int) -> int:
    """The smallest supported shared-memory capacity per SM that holds `nbytes` (cudaOccAlignUpShmemSizeVoltaPlus)."""
    for kib in cap.carveouts_kib:
        if kib * 1024 >= nbytes:
            return kib * 1024
    raise OccupancyInputError(f"{nbytes} bytes is more shared memory than an SM of cc {cap.cc} has.")


def pct(x: float) -> str:
    return f"{x * 100:.1f} %"
