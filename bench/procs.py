"""The benches' view of processes on this machine, from /proc: descendants, CPU seconds, niceness.

Linux only (the benches run the stack on one Linux machine). A process that is gone, or that this
user cannot see (another user's in a hardened /proc, a container's), counts as absent: CPU 0,
niceness None.
"""
from __future__ import annotations

import os
from collections import defaultdict
from pathlib import Path


def _stat(pid: int, tid: int | None = None) -> list[str] | None:
    """The fields of /proc/PID/stat (or of one thread's) after the command name, or None if gone.
    Index 0 is the state (field 3 of proc(5)), so field k of proc(5) is index k - 3."""
    path = f"/proc/{pid}/task/{tid}/stat" if tid is not None else f"/proc/{pid}/stat"
    try:
        return Path(path).read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def children_of(pid: int) -> list[int]:
    """Every descendant pid of `pid` (from /proc/*/stat), parents before their children."""
    parents: dict[int, list[int]] = defaultdict(list)
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat(int(entry))) is not None:
            parents[int(fields[1])].append(int(entry))
    out, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds the processes have used so far, all their threads together
    (utime and stime, fields 14 and 15 of /proc/PID/stat; gone ones count 0)."""
    total = 0
    for pid in pids:
        if (fields := _stat(pid)) is not None:
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def threads_of(pid: int) -> list[int]:
    """The thread ids of a process (its pid first: the main thread), [] if it is gone."""
    try:
        return sorted(int(t) for t in os.listdir(f"/proc/{pid}/task"))
    except OSError:
        return []


def niceness(pid: int, tid: int | None = None) -> int | None:
    """The niceness (-20..19) of a process's main thread, or of one of its threads; None if gone.
    On Linux niceness is per thread: a thread inherits its creator's when it starts."""
    fields = _stat(pid, tid)
    return int(fields[16]) if fields is not None else None


def niceness_of(pids: list[int]) -> list[int]:
    """The distinct niceness values of every thread of the processes, sorted ([] if all are gone):
    one value when they all run at the same priority."""
    return sorted({n for pid in pids for tid in threads_of(pid) if (n := niceness(pid, tid)) is not None})


def renice_self(value: int) -> list[int]:
    """Set every thread of this process to niceness `value` (threads started later inherit it from
    the thread that starts them) and return the distinct values now held (niceness_of).

    Only the calling process changes: children already started keep the niceness they had (the
    benches start their servers first, then renice their clients). Raises PermissionError when
    `value` is below a thread's present niceness and the process may not raise its priority
    (no CAP_SYS_NICE, RLIMIT_NICE): unprivileged, niceness only goes up.
    """
    for tid in threads_of(os.getpid()):
        os.setpriority(os.PRIO_PROCESS, tid, value)
    return niceness_of([os.getpid()])
