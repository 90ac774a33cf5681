"""The judge's resources stage: ptxas's resource report of the kernel, computed on a background
thread while the test cases run (for a backend without a report of its own, the emulator), and the
occupancy of the judged launch on the course's GPU.

The thread forks (a sandboxed nvcc): judge.py makes every harness call before it starts (issue 11,
tests/grader/test_blas_fork.py). Plain Python (no Django).
"""
from __future__ import annotations

import logging
import threading

from .backends.base import Build
from .kernel import KernelSpec, LaunchConfig

log = logging.getLogger(__name__)


class PtxasReport:
    """ptxas's resource report of the kernel, computed on a background thread (None when unavailable)."""

    def __init__(self, source: str, spec: KernelSpec, cc: str, backend=None):
        self._value = None
        self._thread = threading.Thread(target=self._compute, args=(source, spec, cc, backend), daemon=True)
        self._thread.start()

    def _compute(self, source, spec, cc, backend):
        self._value = self.compute_now(source, spec, cc, backend)

    @staticmethod
    def compute_now(source: str, spec: KernelSpec, cc: str, backend=None):
        """The report, computed on the calling thread (None when unavailable); nvcc runs in the
        `backend`'s sandbox, its result cached in the backend's cache root."""
        try:
            from .resources import ptxas_resources

            value = ptxas_resources(source, spec, cc, sandbox=getattr(backend, "sandbox", None),
                                    cache_root=getattr(backend, "cache_root", None))
            return value if value.source else None
        except Exception as exc:  # nvcc missing or failing: the report is information, never a failure
            log.info("no ptxas resource report: %s", exc)
            return None

    def wait(self, timeout: float = 60.0):
        """The report (None when unavailable or not ready within `timeout` seconds)."""
        self._thread.join(timeout)
        return self._value


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
