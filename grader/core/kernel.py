"""The kernel vocabulary: a kernel's parameters (ArgSpec, ArgRole, ArgInit, C_TYPES), its signature
(KernelSpec), a launch (LaunchConfig) and the checking passes a problem may ask for (Check).

Plain data, no behaviour of any backend: the package parser (problems/core/package/), the launch
rules (launch.py), the playground and the backend protocol (backends/base.py) all speak it.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

# dtype names accepted in problem.yaml and their C types.
C_TYPES = {
    "float32": "float",
    "float64": "double",
    "int32": "int",
    "uint32": "unsigned int",
    "int64": "long long",
    "uint64": "unsigned long long",
    "int8": "signed char",
    "uint8": "unsigned char",
    "int16": "short",
    "uint16": "unsigned short",
}


class ArgRole(StrEnum):
    """How a kernel argument is used."""

    IN = "in"  # device buffer read by the kernel (copied to the device)
    OUT = "out"  # device buffer written by the kernel (poisoned before the launch, copied back)
    INOUT = "inout"  # device buffer read and written (copied both ways)
    SCALAR = "scalar"  # passed by value


class ArgInit(StrEnum):
    """What an OUT buffer holds when the kernel starts."""

    POISON = "poison"  # all-ones bytes (NaN for floats, 0xCD.. for integers): reading it before writing shows
    ZEROS = "zeros"  # zero bytes: for kernels that accumulate into it (atomics on a histogram or a counter)


@dataclass(frozen=True)
class ArgSpec:
    """One kernel parameter."""

    name: str
    role: ArgRole
    dtype: str  # a key of C_TYPES
    init: ArgInit = ArgInit.POISON  # OUT buffers only: how the buffer starts (problem.yaml `init: zeros`)

    @property
    def is_buffer(self) -> bool:
        return self.role is not ArgRole.SCALAR

    @property
    def c_type(self) -> str:
        """The C type of the parameter as the harness passes it (a pointer for buffers)."""
        base = C_TYPES[self.dtype]
        if self.role is ArgRole.IN:
            return f"const {base}*"
        if self.is_buffer:
            return f"{base}*"
        return base


@dataclass(frozen=True)
class KernelSpec:
    """The kernel the student must write: its name and parameters, in order."""

    name: str
    args: tuple[ArgSpec, ...]

    def signature(self) -> str:
        """The C parameter list, e.g. 'const float* a, float* c, int n'."""
        return ", ".join(f"{a.c_type} {a.name}" for a in self.args)


# Dynamic shared memory a kernel may use without the opt-in attribute (every compute capability).
DEFAULT_DYNAMIC_SHARED_BYTES = 48 * 1024


@dataclass(frozen=True)
class LaunchConfig:
    """A kernel launch: grid and block in blocks/threads per dimension, dynamic smem in bytes."""

    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    shared_bytes: int = 0
    # Bytes of dynamic shared memory the kernel may use: 48 KiB unless the problem opts in
    # (problem.yaml `launch.max_dynamic_shared_bytes`; cudaFuncAttributeMaxDynamicSharedMemorySize).
    max_dynamic_shared_bytes: int = DEFAULT_DYNAMIC_SHARED_BYTES
    # A cooperative launch (cudaLaunchCooperativeKernel): every block co-resident; grid.sync() is a
    # grid-wide barrier (without it grid.sync() fails the launch, as on a GPU). The emulator gets
    # it as the job's `cooperative 1` (emulator/jobs.py).
    cooperative: bool = False
    # Every block co-resident in an ordinary launch (the emulator's job key `coresident 1`): how a GPU
    # runs a grid that fits on it at once, which an inter-block spin barrier relies on (CUDA does not
    # promise it). The judge asks for it only to explain a spinning deadlock; grid.sync() still fails.
    coresident: bool = False

    @property
    def threads_per_block(self) -> int:
        return self.block[0] * self.block[1] * self.block[2]

    @property
    def blocks(self) -> int:
        return self.grid[0] * self.grid[1] * self.grid[2]


class Check(StrEnum):
    """Checking passes a problem may require on its smallest test case (problem.yaml `checks`); on
    the GPU each is the compute-sanitizer tool of that name (grader/core/gpu/sanitizer.py)."""

    RACECHECK = "racecheck"  # shared-memory hazards
    SYNCCHECK = "synccheck"  # divergent barriers, warp-mask errors
    MEMCHECK = "memcheck"  # out-of-bounds and misaligned accesses
