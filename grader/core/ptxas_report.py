"""The judge's resources stage: ptxas's resource report of the kernel (for a backend without a
report of its own, the emulator), its nvcc started before the compile and collected at the end,
and the occupancy of the judged launch on the course's GPU.

No thread: nvcc's sandboxed process is started on the judge's thread (before any harness call) and
only read and reaped afterwards, so nothing forks beside the harness's BLAS threads (issue 11,
tests/grader/test_blas_fork.py). Plain Python (no Django).
"""
from __future__ import annotations

import logging

from .backends.base import Build
from .kernel import KernelSpec, LaunchConfig

log = logging.getLogger(__name__)


class PtxasReport:
    """ptxas's resource report of the kernel: nvcc starts in the `backend`'s sandbox when this is made
    (on the calling thread; its result cached in the backend's cache root) and runs while the caller
    works; wait() collects it. Either wait() or close() is called; both may be, in that order."""

    def __init__(self, source: str, spec: KernelSpec, cc: str, backend=None):
        self._pending = None
        self._value = None
        try:
            from .resources import start_ptxas

            self._pending = start_ptxas(source, spec, cc, sandbox=getattr(backend, "sandbox", None),
                                        cache_root=getattr(backend, "cache_root", None))
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


def judged_resources(build: Build, launch: LaunchConfig, target_cc: str):
    """The build's resource report with the occupancy of the judged launch, when registers are known."""
    res = build.resources
    if res is None:
        return None
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
