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

# The kernel vocabulary the protocol speaks in (grader/core/kernel.py); importers of these names
# from here predate the move and keep working.
from ..kernel import (C_TYPES, DEFAULT_DYNAMIC_SHARED_BYTES, ArgInit, ArgRole, ArgSpec,  # noqa: F401
                      KernelSpec, LaunchConfig)
from ..results import CompileResult, Diagnostic, Resources


@dataclass
class RunRequest:
    """One test case to run: a launch plus a value for every kernel argument.

    `inputs` maps every argument name to a NumPy array (buffers, 1-D or N-D, C-contiguous,
    of the argument's dtype; OUT buffers give shape and dtype and are poisoned by the backend)
    or to a Python/NumPy scalar (SCALAR arguments).
    """

    launch: LaunchConfig
    inputs: dict[str, Any]
    time_limit_s: float = 5.0  # seconds on the backend's time-limit clock (Backend.time_limit_clock), compilation excluded
    check: bool = False  # run the slower checking mode (races, sanitizers)
    checks: tuple[str, ...] = ()  # with check: which passes the problem asks for ("racecheck", "synccheck", "memcheck")
    test_name: str = ""
    # Seconds all the runs this request makes may use together, on the backend's time-limit clock (a
    # check pass makes several: the emulator shares it out among them); None: each run its time_limit_s.
    budget_s: float | None = None


class RunStatus(StrEnum):
    """How a run ended, before outputs are compared."""

    OK = "ok"  # the kernel finished; outputs are valid
    FAULT = "fault"  # memory fault, trap or other CUDA error; see diagnostics
    LAUNCH_ERROR = "launch_error"  # the launch was refused before running
    DEADLOCK = "deadlock"  # proven (emulator) or inferred (GPU) barrier hang
    TIMEOUT = "timeout"  # stopped at its time limit (or the wall-clock backstop)
    INTERNAL = "internal"  # the platform failed; not the student's fault


@dataclass
class RunOutcome:
    """What a backend reports for one run."""

    status: RunStatus
    outputs: dict[str, np.ndarray] = field(default_factory=dict)  # OUT/INOUT buffers after the run
    diagnostics: list[Diagnostic] = field(default_factory=list)
    log: str = ""  # the kernel's printf output, capped, with a note when truncated
    time_s: float = 0.0  # wall-clock seconds of the run
    # CPU seconds (user + system) of the run's processes, on a backend whose time limit counts them (the
    # emulator: every box the request ran, the check pass's several included); None elsewhere.
    cpu_s: float | None = None
    message: str = ""  # for FAULT/LAUNCH_ERROR/INTERNAL: what happened (CUDA error name, ...)
    # A write-map run (Backend.run_writemap): {output name: grader.core.writemap.model.WriteMap}.
    writemaps: dict = field(default_factory=dict)


@dataclass
class Build:
    """A compiled kernel, ready to run. `handle` is backend-private (paths, a cubin, ...)."""

    compile: CompileResult
    resources: Resources | None = None
    handle: Any = None
    workdir: Path | None = None
    # Where the backend's compile time went, in seconds by part (the stage log's compile_* figures, issue 17).
    stages: dict[str, float] = field(default_factory=dict)


class Backend(abc.ABC):
    """Base class of judge backends. Subclasses set the capability flags they have."""

    name: str = ""
    # The clock a run's time limit counts: "cpu" (CPU seconds of the run's process, every thread: the
    # emulator; the machine's load does not change it) or "kernel" (the kernel's own run time on the
    # device: the GPU, which runs one kernel at a time whatever the host's load).
    time_limit_clock: str = "kernel"
    # How this backend's boxes are made (a sandbox.Sandbox, set by constructors of backends that run
    # code): the judge compiles ptxas's resource report in it too. None: sandbox.box.DEFAULT.
    sandbox = None
    # The site's cache folder (each backend keeps its files in a sub-folder); None: var/cache of the checkout.
    cache_root = None
    supports_sanitizers: bool = False  # can run race/sync/memory checks
    supports_cooperative_launch: bool = False
    # LaunchConfig.coresident: runs an ordinary launch with every block resident at once (the emulator).
    supports_coresident_launch: bool = False
    # The most threads a co-resident launch (cooperative, or coresident) may hold at once on this backend;
    # None: whatever the GPU holds. A cooperative launch beyond it is the platform's limit (the judge
    # raises UnsupportedLaunchError), never the student's runtime error.
    max_coresident_threads: int | None = None
    supports_writemap: bool = False  # run_writemap records which thread wrote each output element
    # Its builds have no resource report of their own: the judge asks nvcc's ptxas for one (no GPU
    # needed), started before the compile and collected at the end (ptxas_report.py).
    wants_ptxas_report: bool = True
    # That report started only after the harness calls and waited for at the end, as before issue 17's
    # early start (the emulator's ptxas_report_late option): for comparisons.
    ptxas_report_late: bool = False
    # Who makes that report: "auto" (NVRTC in a warm compiler child where cuda-bindings is installed,
    # nvcc when NVRTC refuses the source) or "nvcc" (the emulator's ptxas_compiler option).
    ptxas_compiler: str = "nvcc"
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

    def prepare_process(self) -> None:
        """Start what this process's first grading would otherwise wait for and that belongs to the
        process (warm children), in each new prefork pool process of a backend without
        warm_per_process (whose prepare() runs in the parent). Raises PlatformError when it cannot."""

    def close(self, build: Build) -> None:
        """Release what `compile` created (work directories, child processes)."""

    def device_name(self) -> str:
        """The device that runs kernels, as its driver names it ("NVIDIA H200"); "" for a CPU backend
        or while unknown. Stored with every result so that the page can say what graded it."""
        return ""

    def check(self) -> list[str]:
        """Problems that stop this backend from grading on this machine (for system checks)."""
        return []
