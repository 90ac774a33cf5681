"""The protocol every judge backend speaks: compile a kernel once, run it per test case.

A backend knows nothing about problems or the database. The judge (judge.py) gives it the
student's source, the kernel's signature and, per test case, a launch and NumPy inputs; it gives
back raw outputs and diagnostics. Verdicts are decided by the judge (verdicts.py), not the backend.
"""
from __future__ import annotations

import abc
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

import numpy as np

from ..results import CompileResult, Diagnostic, Resources

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
    # promise it). The pipeline asks for it only to explain a spinning deadlock; grid.sync() still fails.
    coresident: bool = False

    @property
    def threads_per_block(self) -> int:
        return self.block[0] * self.block[1] * self.block[2]

    @property
    def blocks(self) -> int:
        return self.grid[0] * self.grid[1] * self.grid[2]


@dataclass
class RunRequest:
    """One test case to run: a launch plus a value for every kernel argument.

    `inputs` maps every argument name to a NumPy array (buffers, 1-D or N-D, C-contiguous,
    of the argument's dtype; OUT buffers give shape and dtype and are poisoned by the backend)
    or to a Python/NumPy scalar (SCALAR arguments).
    """

    launch: LaunchConfig
    inputs: dict[str, Any]
    time_limit_s: float = 5.0  # wall clock for the run (compilation excluded)
    check: bool = False  # run the slower checking mode (races, sanitizers)
    checks: tuple[str, ...] = ()  # with check: which passes the problem asks for ("racecheck", "synccheck", "memcheck")
    test_name: str = ""


class RunStatus(StrEnum):
    """How a run ended, before outputs are compared."""

    OK = "ok"  # the kernel finished; outputs are valid
    FAULT = "fault"  # memory fault, trap or other CUDA error; see diagnostics
    LAUNCH_ERROR = "launch_error"  # the launch was refused before running
    DEADLOCK = "deadlock"  # proven (emulator) or inferred (GPU) barrier hang
    TIMEOUT = "timeout"  # killed at the wall-clock limit
    INTERNAL = "internal"  # the platform failed; not the student's fault


@dataclass
class RunOutcome:
    """What a backend reports for one run."""

    status: RunStatus
    outputs: dict[str, np.ndarray] = field(default_factory=dict)  # OUT/INOUT buffers after the run
    diagnostics: list[Diagnostic] = field(default_factory=list)
    log: str = ""  # the kernel's printf output, capped, with a note when truncated
    time_s: float = 0.0  # wall-clock seconds of the run
    message: str = ""  # for FAULT/LAUNCH_ERROR/INTERNAL: what happened (CUDA error name, ...)
    # A write-map run (Backend.run_writemap): {output name: grader.core.writemap.WriteMap}.
    writemaps: dict = field(default_factory=dict)


@dataclass
class Build:
    """A compiled kernel, ready to run. `handle` is backend-private (paths, a cubin, ...)."""

    compile: CompileResult
    resources: Resources | None = None
    handle: Any = None
    workdir: Path | None = None


class Backend(abc.ABC):
    """Base class of judge backends. Subclasses set the capability flags they have."""

    name: str = ""
    supports_sanitizers: bool = False  # can run race/sync/memory checks
    supports_cooperative_launch: bool = False
    # LaunchConfig.coresident: runs an ordinary launch with every block resident at once (the emulator).
    supports_coresident_launch: bool = False
    supports_writemap: bool = False  # run_writemap records which thread wrote each output element
    # When a build has no resource report, the judge asks nvcc's ptxas for one (no GPU needed).
    wants_ptxas_report: bool = True
    # True when the warm state is held by the grading process itself (child processes, a CUDA
    # context): a Celery prefork worker prepares it in each pool process, never in the parent,
    # whose objects a later-forked pool process would inherit but could not use.
    warm_per_process: bool = False
    # True when a hang on it is only a TIMEOUT (it cannot tell a deadlock from a slow kernel): the
    # shell then gives the judge an explainer backend to ask (explainer.HangExplainer).
    hangs_need_explaining: bool = False

    @abc.abstractmethod
    def compile(self, source: str, spec: KernelSpec) -> Build:
        """Compile the student's source for `spec`. A compile error is a result, not an exception.

        Raises PlatformError when the compiler or sandbox itself is unavailable.
        """

    @abc.abstractmethod
    def run(self, build: Build, request: RunRequest) -> RunOutcome:
        """Run one test case with a successful build. Raises PlatformError on platform faults."""

    def run_writemap(self, build: Build, request: RunRequest) -> RunOutcome:
        """Run one test case recording, for each output element, the thread that wrote it last
        (RunOutcome.writemaps). Only for backends with supports_writemap."""
        raise NotImplementedError(f"the {self.name} backend records no write map")

    def prepare(self) -> None:
        """Build or load what the first submission would otherwise wait for (runtimes, contexts).

        Idempotent and safe to call from several processes. Raises PlatformError when the
        backend cannot work on this machine.
        """

    def close(self, build: Build) -> None:
        """Release what `compile` created (work directories, child processes)."""

    def device_name(self) -> str:
        """The device that runs kernels, as its driver names it ("NVIDIA H200"); "" for a CPU backend
        or while unknown. Stored with every result so that the page can say what graded it."""
        return ""

    def check(self) -> list[str]:
        """Problems that stop this backend from grading on this machine (for system checks)."""
        return []
