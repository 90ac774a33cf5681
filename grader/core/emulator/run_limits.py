"""How long and how large one emulator run may grow: the sandbox's limits of a run (Limits).

The child checks its own limit in CPU time; the sandbox charges the same clock (below). Plain Python
(no Django); the backend (backends/emulator.py) builds every run's Limits here.
"""
from __future__ import annotations

import resource

from ..backends.base import RunRequest
from ..sandbox import Limits
from . import jobs

GRACE_S = 2.0  # CPU seconds a run may use past its limit per worker thread (RLIMIT_CPU's backstop)
# The child checks its own limit in CPU time (its deadlock detector too, always within the limit), and
# the sandbox charges the same clock: it stops a run once the box's CPU seconds per worker pass the
# limit plus a small grace, so a verdict does not depend on the machine's load. A kernel that sleeps
# or blocks (waiting for no CPU) is charged its wall time instead: TIME_LIMIT near the limit. One the
# backstop stops while its threads mostly waited for a CPU that other work held is a platform fault
# (retried, never an attempt).
WALL_GRACE_S = 1.0
WALL_GRACE_FRACTION = 0.25
# Whatever the waits, no run outlives this factor of its limit (plus GRACE_S) in plain wall time.
BACKSTOP_FACTOR = 3.0
# The race check runs the ThreadSanitizer build, several times slower than the plain one; its
# time is not the student's (a check that runs out is a note, never TIME_LIMIT), so it gets more.
TSAN_WALL_FACTOR = 3.0
# One fiber's stack mapping (src/fiber.cpp: kStackSize + kGuard), bytes. Mapped with MAP_NORESERVE: it
# counts against the address-space limit in full, against resident memory only as far as it is used.
FIBER_STACK_BYTES = 64 * 1024 + 4096
# The most threads the emulator holds at once in a co-resident launch (a cooperative launch, or an
# ordinary one re-run co-resident: grader/core/coresidency.py). Every thread is a fiber with a guarded
# stack, two memory mappings each, and a process may hold at most vm.max_map_count (65530 by default)
# of them: 24 Ki threads stay well below that (49 Ki mappings with the blocks' shared arenas).
MAX_CORESIDENT_THREADS = 24 * 1024


def wall_limit_s(time_limit_s: float, variant: str = "fast") -> float:
    """Charged seconds (the box's CPU seconds per worker thread) that one run of a test with a
    `time_limit_s` limit may take: the limit plus max(WALL_GRACE_S, WALL_GRACE_FRACTION of it); TSAN_WALL_FACTOR times that
    for the race check."""
    wall = time_limit_s + max(WALL_GRACE_S, WALL_GRACE_FRACTION * time_limit_s)
    return wall * TSAN_WALL_FACTOR if variant == "tsan" else wall


def backstop_s(time_limit_s: float, variant: str = "fast") -> float:
    """Plain wall-clock seconds after which a run is stopped whatever it waited for."""
    return max(wall_limit_s(time_limit_s, variant), BACKSTOP_FACTOR * time_limit_s + GRACE_S)


def rss_limit_bytes(input_bytes: int) -> int:
    """Resident memory (bytes) one run's whole box may hold: 2 GiB plus 8 x its input buffers. Every
    run is watched, the race check's too, which has no address-space limit (ThreadSanitizer)."""
    return (2 << 30) + 8 * input_bytes


def input_bytes(request: RunRequest) -> int:
    """Bytes of the run's input buffers (what rss_limit_bytes scales with)."""
    return sum(int(getattr(v, "nbytes", 0)) for v in request.inputs.values())


def coresident_threads(request: RunRequest) -> int:
    """Threads the run holds at once as fibers beyond one block per worker: every thread of a
    co-resident launch (cooperative, or re-run co-resident), else 0."""
    launch = request.launch
    return launch.blocks * launch.threads_per_block if (launch.cooperative or launch.coresident) else 0


def run_limits(request: RunRequest, variant: str, workers: int, cpu_workers: int, outputs) -> Limits:
    """The sandbox's Limits of one run of `request` on the `variant` build with `workers` worker
    threads (charged per thread); `cpu_workers` threads' worth of CPU seconds is the RLIMIT_CPU backstop;
    `outputs` (jobs.write_job's) sizes the disk allowance. Seconds and bytes throughout. A co-resident
    launch's address space grows by its fibers' stacks (FIBER_STACK_BYTES each, mapped but mostly
    untouched), so that the launches up to MAX_CORESIDENT_THREADS that fit on a GPU fit here too."""
    total = input_bytes(request)
    stacks = min(coresident_threads(request), MAX_CORESIDENT_THREADS) * FIBER_STACK_BYTES
    return Limits(
        backstop_s(request.time_limit_s, variant),
        charged_s=wall_limit_s(request.time_limit_s, variant), charged_threads=workers,
        # ThreadSanitizer reserves terabytes of shadow address space: no AS limit there,
        # the box's resident memory is watched instead (small kernels use ~0.1 GiB).
        memory_bytes=resource.RLIM_INFINITY if variant == "tsan" else (2 << 30) + 3 * total + stacks,
        rss_bytes=rss_limit_bytes(total), file_bytes=max(256 << 20, 2 * total),
        cpu_s=(request.time_limit_s + GRACE_S) * cpu_workers, disk_bytes=jobs.disk_allowance(outputs),
    )
