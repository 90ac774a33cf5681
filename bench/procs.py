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


def machine_cpu() -> tuple[int, int]:
    """(busy, total) clock ticks of every core since boot, from the first line of /proc/stat: busy is
    everything but idle and iowait."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return sum(fields) - fields[3] - (fields[4] if len(fields) > 4 else 0), sum(fields)


def role_of(pid: int, pool: set[int]) -> str:
    """What a process of a grading worker's tree is, from its command line: "pool" (a pool process),
    "sanitizer" (a GPU child under compute-sanitizer), "compiler" (the NVRTC child), "gpu child" (a main
    GPU child), "sandbox" (bubblewrap itself) or "other" (nvcc, g++, an emulator run, ...)."""
    if pid in pool:
        return "pool"
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return "other"
    text = b" ".join(argv)
    if b"compute-sanitizer" in text or b"--sanitizer" in text:
        return "sanitizer"
    if b"grader.core.gpu.child" in text:
        return "compiler" if b"--compiler" in text else "gpu child"
    if argv and argv[0].endswith(b"bwrap"):
        return "sandbox"
    return "other"


class UtilSampler:
    """Samples, every `every_s` in a thread, how busy the machine's cores are (/proc/stat), the CPU
    seconds of each process in a worker's tree (the processes whose parent is `session`, the pool
    processes, and their descendants) and, where nvidia-smi is installed, the GPU's utilisation
    (the share of time a kernel ran, %). stop() returns the figures of the time in between."""

    def __init__(self, session: int, every_s: float = 0.5):
        import shutil
        import subprocess
        import threading

        self.session, self.every_s = session, every_s
        self.busy: list[float] = []  # % of all cores, per interval
        self.first: dict[int, tuple[str, int]] = {}  # pid -> (role, ticks when first seen)
        self.last: dict[int, int] = {}
        self._cpu = machine_cpu()
        self._smi = None
        if shutil.which("nvidia-smi"):
            self._smi = subprocess.Popen(["nvidia-smi", "--query-gpu=utilization.gpu", "--format=csv,noheader,nounits",
                                          "-lms", str(int(every_s * 1000))],
                                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        busy, total = machine_cpu()
        if total > self._cpu[1]:
            self.busy.append(100.0 * (busy - self._cpu[0]) / (total - self._cpu[1]))
        self._cpu = (busy, total)
        stats = {int(e): f for e in os.listdir("/proc") if e.isdigit() and (f := _stat(int(e))) is not None}
        parents: dict[int, list[int]] = defaultdict(list)
        for pid, fields in stats.items():
            parents[int(fields[1])].append(pid)
        pool = set(parents.get(self.session, []))
        tree, todo = [], list(pool)
        while todo:
            pid = todo.pop()
            tree.append(pid)
            todo += parents.get(pid, [])
        for pid in tree:
            fields = stats[pid]
            ticks = int(fields[11]) + int(fields[12])
            if pid not in self.first:
                self.first[pid] = (role_of(pid, pool), ticks)
            self.last[pid] = ticks

    def _run(self) -> None:
        while not self._stop.wait(self.every_s):
            self._sample()

    def stop(self) -> dict:
        """{"cores", "cpu_busy_mean_pct", "cpu_busy_p95_pct", "cpu_s_by_role": {role: seconds},
        "gpu_util_mean_pct" (None without nvidia-smi), "samples"}."""
        self._stop.set()
        self._thread.join()
        gpu = []
        if self._smi is not None:  # nvidia-smi may not answer a SIGTERM when the driver is busy: killed then
            import subprocess

            self._smi.terminate()
            try:
                out, _ = self._smi.communicate(timeout=5)
            except subprocess.TimeoutExpired:
                self._smi.kill()
                try:
                    out, _ = self._smi.communicate(timeout=5)
                except subprocess.TimeoutExpired:
                    out = ""
            gpu = [float(x) for x in (out or "").split() if x.strip().replace(".", "", 1).isdigit()]
        by_role: dict[str, float] = defaultdict(float)
        for pid, (role, ticks) in self.first.items():
            by_role[role] += (self.last[pid] - ticks) / os.sysconf("SC_CLK_TCK")
        busy = sorted(self.busy)
        return {"cores": os.cpu_count(), "samples": len(busy),
                "cpu_busy_mean_pct": round(sum(busy) / len(busy), 1) if busy else None,
                "cpu_busy_p95_pct": round(busy[int(0.95 * (len(busy) - 1))], 1) if busy else None,
                "cpu_s_by_role": {k: round(v, 1) for k, v in sorted(by_role.items())},
                "gpu_util_mean_pct": round(sum(gpu) / len(gpu), 1) if gpu else None}
