"""How long and how large one emulator run may grow: the sandbox's limits of a run (Limits).

A run's time limit counts CPU seconds: those of the run's process, all its threads together (user +
system), which is what the emulated kernel costs whatever else the machine runs. The child checks
its own limit on that clock (src/report.cpp limit_clock_s, which also names the looping line), the
sandbox charges the same clock a little later (a backstop for code that never ticks), RLIMIT_CPU
ends the process past that, and the wall clock stops a run that sleeps or blocks at BACKSTOP_FACTOR
times the limit plus GRACE_S. A run stopped there while its threads mostly waited for a CPU that
other work held is a platform fault (retried, never an attempt), not a TIME_LIMIT. Plain Python (no
Django); the backend (backends/emulator.py) builds every run's Limits here.
"""
from __future__ import annotations

import dataclasses
import resource

from ..backends.base import RunRequest
from ..sandbox import Limits
from . import jobs

GRACE_S = 2.0  # seconds past the charged limit: RLIMIT_CPU's, and the wall-clock backstop's
# The sandbox charges the box's CPU seconds from the limit plus max(CPU_GRACE_S, CPU_GRACE_FRACTION of
# it): the child reports its own timeout first, with its line, at the limit itself.
CPU_GRACE_S = 1.0
CPU_GRACE_FRACTION = 0.25
# The wall clock stops a run at this factor of its limit plus GRACE_S, whatever it waited for.
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


def cpu_limit_s(time_limit_s: float, variant: str = "fast") -> float:
    """CPU seconds (the run's process, every thread) after which the sandbox stops one run of a test with
    a `time_limit_s` limit: the limit plus max(CPU_GRACE_S, CPU_GRACE_FRACTION of it); TSAN_WALL_FACTOR
    times that for the race check."""
    charged = time_limit_s + max(CPU_GRACE_S, CPU_GRACE_FRACTION * time_limit_s)
    return charged * TSAN_WALL_FACTOR if variant == "tsan" else charged


def backstop_s(time_limit_s: float, variant: str = "fast") -> float:
    """Wall-clock seconds after which a run is stopped whatever it waited for: BACKSTOP_FACTOR times the
    limit plus GRACE_S, never below the CPU limit (the race check's is longer)."""
    return max(cpu_limit_s(time_limit_s, variant), BACKSTOP_FACTOR * time_limit_s + GRACE_S)


def shared_out(request: RunRequest, plan) -> RunRequest:
    """`request` with each run's limit cut so that the runs a check pass makes (checkplan.plan's `plan`:
    the plain run, the aligned one, the race check's ThreadSanitizer run at TSAN_WALL_FACTOR times the
    limit, the initcheck) fit together in its `budget_s`; a plain request, or one without a budget, as
    it is. Never below 0.05 s."""
    if not request.check or request.budget_s is None:
        return request
    weight = 1 + bool(plan.aligned) + TSAN_WALL_FACTOR * bool(plan.race) + bool(plan.initcheck)
    share = max(0.05, round(request.budget_s / weight, 2))
    return dataclasses.replace(request, time_limit_s=min(request.time_limit_s, share)) if share < request.time_limit_s \
        else request


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


def run_limits(request: RunRequest, variant: str, outputs) -> Limits:
    """The sandbox's Limits of one run of `request` on the `variant` build; `outputs` (jobs.write_job's)
    sizes the disk allowance. Seconds and bytes throughout: the CPU-second limit (cpu_limit_s, all the
    process's threads together), RLIMIT_CPU GRACE_S past it, the wall-clock backstop (backstop_s). A
    co-resident launch's address space grows by its fibers' stacks (FIBER_STACK_BYTES each, mapped but
    mostly untouched), so that the launches up to MAX_CORESIDENT_THREADS that fit on a GPU fit here too."""
    total = input_bytes(request)
    stacks = min(coresident_threads(request), MAX_CORESIDENT_THREADS) * FIBER_STACK_BYTES
    charged = cpu_limit_s(request.time_limit_s, variant)
    return Limits(
        backstop_s(request.time_limit_s, variant), charged_s=charged,
        # ThreadSanitizer reserves terabytes of shadow address space: no AS limit there,
        # the box's resident memory is watched instead (small kernels use ~0.1 GiB).
        memory_bytes=resource.RLIM_INFINITY if variant == "tsan" else (2 << 30) + 3 * total + stacks,
        rss_bytes=rss_limit_bytes(total), file_bytes=max(256 << 20, 2 * total),
        cpu_s=charged + GRACE_S, disk_bytes=jobs.disk_allowance(outputs),
    )
