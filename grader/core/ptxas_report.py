"""The judge's resources stage: ptxas's resource report of the kernel (for a backend without a
report of its own, the emulator) and the occupancy of the judged launch on the course's GPU.

The report comes from NVRTC in a warm compiler child (gpu/compiler.py, as the GPU backend compiles:
20-80 ms, where nvcc spends ≈ 0.4 s of CPU starting its processes) when the backend's
`ptxas_compiler` is "auto" and cuda-bindings is installed; otherwise, or when NVRTC refuses the
source, nvcc runs in its box, started before the compile and collected at the end.

No thread: the child and nvcc are started on the judge's thread (before any harness call), nvcc
only read and reaped afterwards, so nothing forks beside the harness's BLAS threads (issue 11,
tests/grader/test_blas_fork.py). Plain Python (no Django).
"""
from __future__ import annotations

import logging
import os

from .backends.base import Build
from .gpu.nvcc import arch_of
from .kernel import KernelSpec, LaunchConfig

log = logging.getLogger(__name__)

# The report's compile, NVRTC's or nvcc's, of a source the emulator compiled: seconds (nvcc: CPU seconds,
# the wall clock at three times that plus 2 s; NVRTC in its warm child: wall seconds). It is information,
# never a failure: a compile stopped here leaves the result without a resource report.
TIME_LIMIT_S = 10.0
# The warm NVRTC compilers of this process, by (sandbox, cache root, pid): a forked process (a
# Celery pool process) never talks to its parent's child.
_compilers: dict[tuple, object] = {}


class PtxasReport:
    """ptxas's resource report of the kernel, begun when this is made, on the calling thread: NVRTC's
    report made at once (the backend's ptxas_compiler "auto"), or nvcc started in the `backend`'s
    sandbox, running while the caller works (results cached in the backend's cache root); wait()
    collects it. Either wait() or close() is called; both may be, in that order."""

    def __init__(self, source: str, spec: KernelSpec, cc: str, backend=None):
        self._pending = None
        self._value = None
        sandbox, cache_root = getattr(backend, "sandbox", None), getattr(backend, "cache_root", None)
        if getattr(backend, "ptxas_compiler", "nvcc") == "auto":
            try:
                compiler = nvrtc_compiler(sandbox, cache_root)
                done = compiler.compile_nvrtc(source, spec, arch_of(cc)) if compiler is not None else None
            except Exception as exc:  # NVRTC failing in another way: nvcc makes the report
                log.warning("NVRTC made no ptxas report (nvcc will): %s", exc)
                done = None
            if done is not None:
                self._value = _report(done)
                return
        try:
            from .resources import start_ptxas

            self._pending = start_ptxas(source, spec, cc, sandbox=sandbox, cache_root=cache_root,
                                        time_limit_s=TIME_LIMIT_S)
        except Exception as exc:  # nvcc missing or failing: the report is information, never a failure
            log.info("no ptxas resource report: %s", exc)

    @staticmethod
    def compute_now(source: str, spec: KernelSpec, cc: str, backend=None):
        """The report, computed on the calling thread (None when unavailable)."""
        return PtxasReport(source, spec, cc, backend).wait()

    def wait(self):
        """The report (a results.Resources; None when unavailable), waiting for nvcc to end (its wall
        clock, gpu/nvcc.py's TIME_LIMIT_S from its start, bounds the wait). Forks nothing."""
        pending, self._pending = self._pending, None
        if pending is not None:
            try:
                self._value = _report(pending.result())
            except Exception as exc:
                log.info("no ptxas resource report: %s", exc)
        return self._value

    def close(self) -> None:
        """Stop nvcc when its report was not waited for (a compile error, an exception)."""
        pending, self._pending = self._pending, None
        if pending is not None:
            pending.cancel()


def _report(result):
    """The Resources of a CubinResult, None when it has no ptxas figures for the kernel."""
    from .resources import resources_of

    value = resources_of(result)
    return value if value.source else None


def nvrtc_compiler(sandbox=None, cache_root=None):
    """This process's warm NVRTC compiler (gpu/compiler.GpuCompiler, its child started on first use)
    for `sandbox` (None: the default) and `cache_root`; None without cuda-bindings."""
    from .gpu.nvrtc import available

    if not available():
        return None
    from .gpu.compiler import GpuCompiler
    from .gpu.pool import ChildPool
    from .resources import default_cache
    from .sandbox import Sandbox

    box = Sandbox.of(sandbox)
    key = (box, str(cache_root), os.getpid())
    if key not in _compilers:
        _compilers[key] = GpuCompiler(ChildPool(sandbox=box), default_cache(cache_root), box, TIME_LIMIT_S,
                                      use_nvrtc=True)
    return _compilers[key]


def judged_resources(build: Build, launch: LaunchConfig | None, target_cc: str):
    """The build's resource report with the occupancy of the judged launch, when registers are known
    (None without a report; without a launch, the report alone)."""
    res = build.resources
    if res is None or launch is None:
        return res
    res.threads_per_block = launch.threads_per_block
    res.shared_dynamic_bytes = launch.shared_bytes
    # Occupancy is the target GPU's (a course's, or the site's default), whatever the build ran on:
    # the registers and shared memory come from the build, the limits per SM from the target.
    res.compute_capability = target_cc or res.compute_capability
    if res.registers is not None:
        try:
            from problems.core.occupancy import occupancy_for_resources

            res.occupancy = occupancy_for_resources(res)
        except Exception as exc:  # occupancy is information, never a reason to fail grading
            log.warning("occupancy not computed: %s", exc)
    return res
