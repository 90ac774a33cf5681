"""How a GPU child runs: the wait for its kernel and what memcheck ends on a precise error (issue 17).

The worker's settings (WARPDRILL_GPU_SYNC, WARPDRILL_GPU_MEMCHECK_ON_ERROR in config/settings.py) reach the
GPU backend as options, a ChildSettings here; pool.spawn hands it to each child as command-line flags
(child.py --sync, --memcheck-on-error) and to compute-sanitizer's command line (sanitizer.tool_options).

- `sync`: how the child's thread waits in cuCtxSynchronize. "blocking" sleeps until the GPU's interrupt
  wakes it (CU_CTX_SCHED_BLOCKING_SYNC); "spin" keeps a core polling; "yield" polls and yields; "auto" is
  CUDA's default, which spins while a process has fewer contexts than the machine has cores, so every
  waiting child holds a core: a hung kernel's for its whole limit, each child queued behind another
  context's kernel too. Measured on an H200 (docs/gpu-validation.md, 2026-12-06): the same throughput,
  about two cores fewer busy in a burst with "blocking".
- `memcheck_on_error`: "kernel" (compute-sanitizer --destroy-on-device-error kernel) ends only the kernel
  that made a precise error (an out-of-bounds or misaligned access memcheck caught): the program sees no
  error and the warm memcheck child serves on; "context" ends the context, and the child with it, whose
  successor's start under the tool (0.5-1.4 s) the jobs behind it waited for.

This module imports only the standard library: the package folder alone is bound into a child's box.
"""
from __future__ import annotations

from dataclasses import dataclass

SYNC_MODES = ("blocking", "spin", "yield", "auto")
MEMCHECK_ON_ERROR_MODES = ("kernel", "context")
_CTX_FLAGS = {"blocking": "SCHED_BLOCKING_SYNC", "spin": "SCHED_SPIN", "yield": "SCHED_YIELD", "auto": "SCHED_AUTO"}


@dataclass(frozen=True)
class ChildSettings:
    """How the worker's GPU children run (the module docstring says what each value does)."""

    sync: str = "blocking"  # one of SYNC_MODES
    memcheck_on_error: str = "kernel"  # one of MEMCHECK_ON_ERROR_MODES

    def __post_init__(self):
        """Raises ValueError for a value outside SYNC_MODES or MEMCHECK_ON_ERROR_MODES."""
        if self.sync not in SYNC_MODES:
            raise ValueError(f"a GPU child's sync must be one of {', '.join(SYNC_MODES)}, not {self.sync!r}")
        if self.memcheck_on_error not in MEMCHECK_ON_ERROR_MODES:
            raise ValueError(f"memcheck_on_error must be kernel or context, not {self.memcheck_on_error!r}")

    def child_args(self, tool: str | None) -> list[str]:
        """The child's flags for these settings (child.py main), for a child under `tool` (None: the main child)."""
        args = ["--sync", self.sync]
        if tool == "memcheck":
            args += ["--memcheck-on-error", self.memcheck_on_error]
        return args


DEFAULT = ChildSettings()


def context_flags(drv, sync: str) -> int:
    """PyCUDA's ctx_flags (`drv`: pycuda.driver) for the wait `sync`, one of SYNC_MODES (KeyError for another)."""
    return getattr(drv.ctx_flags, _CTX_FLAGS[sync])


def context_works(drv, context) -> bool:
    """Whether `context` (PyCUDA's, current) still runs work after an error: a sticky error fails every later
    call, so a 4-byte allocation, a memset and a synchronize that succeed say it was kept (False on any error)."""
    try:
        probe = drv.mem_alloc(4)
        drv.memset_d32(probe, 0, 1)
        context.synchronize()
        probe.free()
        return True
    except Exception:
        return False
