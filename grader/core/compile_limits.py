"""The limits of one compile of a student's source, and what a compile stopped at them says.

A compile is bounded like a run (emulator/run_limits.py): in CPU seconds of its box, every process
together (g++'s driver, cc1plus, the assembler, objcopy and the linker; nvcc's cudafe, cicc and ptxas),
so that a loaded machine does not stop an ordinary compile; by the wall clock at BACKSTOP_FACTOR times
that plus GRACE_S; and in memory (address space per process, the box's resident memory). A source
stopped at any of them is the student's COMPILE_ERROR saying which limit, never a platform fault (it is
not retried, and a compile error costs no exam attempt). An ordinary kernel compiles in 0.1-0.3 s of
CPU with the emulator's precompiled prelude (1-2 s with nvcc); the security tester's template bomb
(A<440,440>) needs 5 s and a gigabyte. Plain Python (no Django).
"""
from __future__ import annotations

from . import messages as M
from .sandbox import Limits, SandboxResult

CPU_S = 4.0  # CPU seconds of one emulator compile (g++): twenty times an ordinary one
MEMORY_BYTES = 1 << 30  # address space of each compiler process (g++ sizes its heap to it)
BACKSTOP_FACTOR = 3.0  # the wall clock stops a compile at this factor of its CPU limit ...
GRACE_S = 2.0  # ... plus this
# What a compiler prints when its address space ran out (cc1plus, cicc, ptxas, the linker).
OUT_OF_MEMORY = ("virtual memory exhausted", "out of memory", "cannot allocate memory", "std::bad_alloc",
                 "memory exhausted")


def compile_limits(cpu_s: float = CPU_S, memory_bytes: int = MEMORY_BYTES) -> Limits:
    """The box of one compile: `cpu_s` CPU seconds all its processes together (the sandbox's charged
    clock; RLIMIT_CPU a second past it per process), the wall-clock backstop, `memory_bytes` of address
    space per process and the default resident-memory cap of the box above it."""
    return Limits(BACKSTOP_FACTOR * cpu_s + GRACE_S, memory_bytes, cpu_s=cpu_s + 1.0, charged_s=cpu_s)


def compile_stopped(res: SandboxResult, cpu_s: float = CPU_S, memory_bytes: int = MEMORY_BYTES) -> M.Message | None:
    """Why a compile's box `res` (run with compile_limits(cpu_s, memory_bytes)) says it was stopped at a
    limit: the message of its COMPILE_ERROR, or None when it ended by itself (its own errors, if any,
    are the compiler's)."""
    if res.memory_exceeded or (res.returncode != 0 and _out_of_memory(res.stderr + res.stdout)):
        return M.COMPILE_MEMORY_LIMIT(mib=memory_bytes >> 20)
    if res.timed_out or res.returncode in (128 + 24, -24, 128 + 9, -9):  # stopped, SIGXCPU, SIGKILL (RLIMIT_CPU)
        if res.cpu_exceeded or not res.timed_out or res.cpu_s is None:
            return M.COMPILE_TIME_LIMIT(limit=f"{cpu_s:g}")
        return M.COMPILE_WALL_LIMIT(wall=f"{res.time_s:.0f}", limit=f"{cpu_s:g}")
    return None


def _out_of_memory(log: str) -> bool:
    lowered = log.lower()
    return any(words in lowered for words in OUT_OF_MEMORY)
