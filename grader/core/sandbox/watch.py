"""Watching a running box from outside: its wall and charged clocks, its output (capped), its resident
memory, what it adds to its work directory, and killing it (or abandoning it on an exception)."""
from __future__ import annotations

import logging
import os
import selectors
import signal
import stat
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from .limits import Limits, SandboxResult

logger = logging.getLogger("grader.core.sandbox")

DISK_MAX_DEPTH = 8  # folders nested deeper than this in the work directory stop the box (see DiskWatch)
DISK_CHECK_S = 0.1  # how often the work directory is measured while the box runs
PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")
KILL_DRAIN_S = 5.0  # after a kill, how long the pipes may take to close
STRAGGLER_S = 0.5  # after the command exits, how long its leftovers may hold the pipes (unsafe mode)


class _Capped:
    """The first `cap` bytes of a stream and a count of the rest."""

    def __init__(self, cap: int):
        self.cap = cap
        self.data = bytearray()
        self.dropped = 0

    def add(self, chunk: bytes) -> None:
        room = self.cap - len(self.data)
        if room > 0:
            self.data += chunk[:room]
        self.dropped += max(0, len(chunk) - max(room, 0))

    @property
    def text(self) -> str:
        text = self.data.decode("utf-8", errors="replace")
        if self.dropped:
            text += f"\n[output truncated: {self.dropped} more bytes dropped]\n"
        return text


@dataclass
class Ending:
    """What `collect` saw of a box."""

    out: _Capped
    err: _Capped
    started: bytes  # what the box's first process wrote to the started pipe
    timed_out: bool
    memory_exceeded: bool
    disk_exceeded: bool = False
    starved: bool = False  # stopped at the wall clock before its charged clock ran out, while starved
    cpu_exceeded: bool = False  # stopped by its charged clock (CPU seconds)
    cpu_s: float | None = None  # the charged clock's last sample; None without one

    def result(self, returncode: int, elapsed: float, sandboxed: bool) -> SandboxResult:
        _count_kill(self)
        return SandboxResult(returncode, self.out.text, self.err.text, self.timed_out, elapsed, sandboxed,
                             bool(self.out.dropped or self.err.dropped), self.memory_exceeded, self.disk_exceeded,
                             self.starved, self.cpu_exceeded, self.cpu_s)


# A box stopped at the wall clock is starved (the platform's fault) when its threads waited this
# fraction of its wall time on a run queue; one that slept instead waited for no CPU.
STARVED_FRACTION = 0.2
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


@dataclass
class Charge:
    """The charged clock of a box: the CPU seconds of all its processes (user + system, reaped children
    included), sampled every DISK_CHECK_S. A limit on it does not depend on the machine's load (a
    starved box is charged only what it ran); a box that sleeps is charged nothing for it, and only the
    wall clock (Limits.time_s) ends it, `starved` (the platform's fault) if its threads mostly waited."""

    start: float  # time.monotonic() when the box started
    limit_s: float  # CPU seconds allowed
    used_s: float = 0.0  # CPU seconds at the last sample

    def sample(self, pid: int) -> float:
        """The box's CPU seconds now, kept as `used_s` (never less than an earlier sample)."""
        self.used_s = max(self.used_s, _tree_cpu_s(pid))
        return self.used_s

    def exceeded(self, pid: int, now: float) -> bool:
        """Past the limit in CPU seconds (sampled now)."""
        return self.sample(pid) > self.limit_s

    def starved(self, pid: int, now: float) -> bool:
        """True when the box, about to be stopped at the wall clock, has not used its CPU seconds and
        its threads waited for a CPU for at least STARVED_FRACTION of its wall time."""
        elapsed = now - self.start
        return self.sample(pid) <= self.limit_s and _tree_run_delay_s(pid) >= STARVED_FRACTION * elapsed


def collect(proc: subprocess.Popen, deadline: float, cap: int, started_fd: int | None,
             rss_bytes: int | None, disk: DiskWatch | None = None, charge: Charge | None = None) -> Ending:
    """Read stdout/stderr (capped) until both close, killing the process group at `deadline`
    (or when the box's resident memory passes `rss_bytes`, its work directory passes `disk`, or its
    CPU seconds pass `charge`'s limit).

    The pipes close only when every process that holds them is gone, so this also waits out the
    box's last process.
    """
    out, err, started = _Capped(cap), _Capped(cap), bytearray()
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ, out)
    sel.register(proc.stderr, selectors.EVENT_READ, err)
    if started_fd is not None:
        sel.register(started_fd, selectors.EVENT_READ, None)
    timed_out = memory_exceeded = disk_exceeded = starved = cpu_exceeded = False
    killed_at = exited_at = None
    next_disk_check = time.monotonic() + DISK_CHECK_S
    next_charge = time.monotonic()  # the charged clock is sampled at once, then every DISK_CHECK_S
    streams = 2  # stdout and stderr still open; the started pipe is read only while they are
    try:
        while streams:
            now = time.monotonic()
            if proc.poll() is not None and exited_at is None:
                exited_at = now
            charged_out = False
            if charge is not None and killed_at is None and exited_at is None and now >= next_charge:
                next_charge = now + DISK_CHECK_S
                charged_out = charge.exceeded(proc.pid, now)
            if killed_at is None and (now >= deadline or charged_out
                                      or (exited_at is not None and now - exited_at > STRAGGLER_S)):
                timed_out = exited_at is None
                cpu_exceeded = charged_out
                starved = timed_out and not charged_out and charge is not None and charge.starved(proc.pid, now)
                _kill_group(proc)
                killed_at = now
            if killed_at is not None and now - killed_at > KILL_DRAIN_S:
                logger.error("sandbox: output pipes still open %.0f s after the kill; abandoning them", KILL_DRAIN_S)
                break
            if rss_bytes is not None and killed_at is None and exited_at is None and _tree_rss(proc.pid) > rss_bytes:
                memory_exceeded = True
                _kill_group(proc)
                killed_at = now
            if disk is not None and killed_at is None and exited_at is None and now >= next_disk_check:
                next_disk_check = now + DISK_CHECK_S
                if disk.exceeded():
                    disk_exceeded = True
                    _kill_group(proc)
                    killed_at = now
            busy = (killed_at is not None or exited_at is not None or rss_bytes is not None or disk is not None
                    or charge is not None)
            wait = 0.1 if busy else max(0.0, min(deadline - now, 0.5))
            for key, _ in sel.select(wait):
                data = os.read(key.fd, 65536)
                if not data:
                    sel.unregister(key.fileobj)
                    streams -= key.data is not None
                elif key.data is None:
                    started += data
                else:
                    key.data.add(data)
        if started_fd is not None and not started and started_fd in sel.get_map():
            os.set_blocking(started_fd, False)  # its one byte may have come with the last output
            try:
                started += os.read(started_fd, 16)
            except BlockingIOError:
                pass
    finally:
        sel.close()
        proc.stdout.close()
        proc.stderr.close()
    try:
        proc.wait(timeout=max(1.0, deadline - time.monotonic()) if killed_at is None else KILL_DRAIN_S)
    except subprocess.TimeoutExpired:
        timed_out = True
        _kill_group(proc)
        proc.wait()
    if disk is not None and not (timed_out or memory_exceeded or disk_exceeded) and disk.exceeded():
        disk_exceeded = True  # written between the last check and the exit: still past the cap
    return Ending(out, err, bytes(started), timed_out, memory_exceeded, disk_exceeded, starved, cpu_exceeded,
                  None if charge is None else round(charge.used_s, 3))


@dataclass
class DiskWatch:
    """What a box may add to its work directory, measured against what was there at the start.

    The directory is walked without following links, counting allocated bytes (st_blocks, so a
    sparse file counts what it really uses) and entries. The walk stops as soon as a cap is passed,
    so a box that creates a million files costs the worker one cap's worth of work per check.
    Folders deeper than DISK_MAX_DEPTH count as passing the cap: no run needs them, and a walk
    that followed them would need ever longer paths (past PATH_MAX, where it would see nothing).
    """

    root: str
    max_bytes: int | None  # allocated bytes allowed in all: those at the start plus the cap
    max_entries: int | None  # entries allowed in all

    @classmethod
    def for_limits(cls, workdir: Path, limits: Limits) -> DiskWatch | None:
        """A watch over `workdir` with the limits' caps on top of what it holds now; None without caps."""
        if limits.disk_bytes is None and limits.disk_entries is None:
            return None
        used, entries, _ = directory_usage(workdir)
        return cls(str(workdir), None if limits.disk_bytes is None else used + limits.disk_bytes,
                   None if limits.disk_entries is None else entries + limits.disk_entries)

    def exceeded(self) -> bool:
        used, entries, too_deep = directory_usage(self.root, self.max_bytes, self.max_entries)
        return (too_deep or (self.max_bytes is not None and used > self.max_bytes)
                or (self.max_entries is not None and entries > self.max_entries))


def directory_usage(root: str | Path, stop_bytes: int | None = None,
                    stop_entries: int | None = None) -> tuple[int, int, bool]:
    """(bytes allocated, entries, nested deeper than DISK_MAX_DEPTH) under `root`, links not followed.

    Bytes are st_blocks × 512 of every file and folder below `root` (not `root` itself). The walk
    stops early, with counts past the cap, once `stop_bytes` or `stop_entries` is passed. Entries
    that vanish during the walk are skipped; a folder that cannot be read counts as empty.
    """
    used = entries = 0
    todo = [(str(root), 0)]
    while todo:
        path, depth = todo.pop()
        try:
            with os.scandir(path) as it:
                for entry in it:
                    try:
                        st = entry.stat(follow_symlinks=False)
                    except OSError:
                        continue
                    used += st.st_blocks * 512
                    entries += 1
                    if stat.S_ISDIR(st.st_mode):
                        if depth + 1 > DISK_MAX_DEPTH:
                            return used, entries, True
                        todo.append((entry.path, depth + 1))
                    if (stop_bytes is not None and used > stop_bytes) or (stop_entries is not None and entries > stop_entries):
                        return used, entries, False
        except OSError:
            continue
    return used, entries, False


def _tree_run_delay_s(root: int) -> float:
    """The longest time (seconds) any thread of `root`'s process tree has waited on a run queue for a
    CPU (the second field of /proc/PID/task/TID/schedstat, in ns); 0 where schedstat is unavailable."""
    longest = 0
    for pid in [root, *_descendants(root)]:
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tids:
            try:
                fields = Path(f"/proc/{pid}/task/{tid}/schedstat").read_text().split()
                longest = max(longest, int(fields[1]))
            except (OSError, IndexError, ValueError):
                continue
    return longest / 1e9


def _tree_cpu_s(root: int) -> float:
    """CPU seconds (user + system, of reaped children too) of `root` and every live process below it,
    from /proc/PID/stat; those gone are skipped."""
    ticks = 0
    for pid in [root, *_descendants(root)]:
        try:
            stat = Path(f"/proc/{pid}/stat").read_bytes()
            fields = stat[stat.rindex(b")") + 2:].split()
            ticks += sum(int(f) for f in fields[11:15])  # utime stime cutime cstime (fields 14-17)
        except (OSError, ValueError):
            continue
    return ticks / CLOCK_TICKS


def _children_map() -> dict[int, list[int]]:
    """{parent pid: [child pids]} of every process on the machine, from /proc."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_bytes()
            except OSError:
                continue
            ppid = int(stat[stat.rindex(b")") + 2:].split()[1])
            children.setdefault(ppid, []).append(int(entry))
    return children


def _children_of(pid: int) -> list[int] | None:
    """The children of `pid` from /proc/PID/task/TID/children ([] for a process gone), or None where
    the kernel has no such file (CONFIG_PROC_CHILDREN): then only _children_map finds them."""
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    found: list[int] = []
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/children", "rb") as f:
                found.extend(int(c) for c in f.read().split())
        except FileNotFoundError:
            if os.path.exists(f"/proc/{pid}/task/{tid}"):
                return None  # the thread is there, its children file is not: not in this kernel
        except (OSError, ValueError):
            continue
    return found


def _tree_rss(root: int) -> int:
    """Resident bytes of `root` and every process below it, from /proc (0 for those gone)."""
    total = 0
    for pid in [root, *_descendants(root)]:
        try:
            with open(f"/proc/{pid}/statm", "rb") as f:
                total += int(f.read().split()[1]) * PAGE_BYTES
        except (OSError, IndexError, ValueError):
            pass
    return total


def abandon(proc: subprocess.Popen) -> None:
    """Kill a box whose run is being left by an exception, and reap bubblewrap.

    SIGKILL to the process group takes bubblewrap, and with it the box's PID namespace (its init
    dies, so the kernel kills every process in it). The wait is bounded: an exception on its way
    out (a soft time limit) must not be held up; a process that never dies is logged.
    """
    box = _descendants(proc.pid)
    _kill_group(proc)
    # The box's processes die with its PID namespace a moment after bubblewrap (its init is in a
    # session of its own): kill them directly too, and wait until each is gone.
    for pid in box:
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    deadline = time.monotonic() + KILL_DRAIN_S
    while box and time.monotonic() < deadline:
        box = {pid for pid in box if _alive(pid)}
        if box:
            time.sleep(0.01)
    for stream in (proc.stdout, proc.stderr):
        try:
            if stream is not None:
                stream.close()
        except OSError:
            pass
    try:
        proc.wait(timeout=KILL_DRAIN_S)
    except BaseException:  # a second interruption, or a process stuck in the kernel: at least log it
        logger.error("sandbox: bubblewrap (pid %s) did not end after SIGKILL", proc.pid)


def _descendants(root: int) -> set[int]:
    """Every live process below `root`, read from /proc (the box's, seen from the worker's namespace):
    walked down the children files (0.1 ms), not by a scan of every process's stat (6 ms of CPU, 58 ms
    at load 14 on 2 cores, every 0.1 s of every run), which remains where they do not exist."""
    found, todo = set(), [root]
    children_map = None
    while todo:
        pid = todo.pop()
        children = _children_of(pid) if children_map is None else None
        if children is None:
            children_map = children_map if children_map is not None else _children_map()
            children = children_map.get(pid, ())
        for child in children:
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def _alive(pid: int) -> bool:
    """True while `pid` exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return False
    return stat[stat.rindex(b")") + 2:][:1] != b"Z"


def _kill_group(proc: subprocess.Popen) -> None:
    """SIGKILL bubblewrap's process group; the box's PID namespace dies with its init."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _count_kill(end) -> None:
    """Report a box the watchdog killed (wall clock, resident memory, disk): observe's "sandbox_kill"."""
    reason = "time" if end.timed_out else "memory" if end.memory_exceeded else "disk" if end.disk_exceeded else None
    if reason is not None:
        from .. import observe

        observe.emit("sandbox_kill", reason=reason)
