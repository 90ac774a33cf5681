"""What one box may use (`Limits`) and how it ended (`SandboxResult`)."""
from __future__ import annotations

import math
import resource
from dataclasses import dataclass

OUTPUT_CAP = 64 * 1024  # bytes of stdout/stderr kept, each
DEFAULT_MEMORY_BYTES = 2 << 30  # address space per process
DEFAULT_FILE_BYTES = 256 << 20  # largest file a process may write
DEFAULT_PROCESSES = 64  # processes + threads of one box (the emulator uses up to 9 threads)
DEFAULT_OPEN_FILES = 64
DEFAULT_TMP_BYTES = 64 << 20  # /tmp and /dev/shm are tmpfs, i.e. memory: each is capped
# The work directory is on the host's disk. RLIMIT_FSIZE caps each file, not their number, so the
# box's additions to it are capped as a whole: bytes allocated and entries (files, folders) created.
DEFAULT_DISK_BYTES = 256 << 20
DEFAULT_DISK_ENTRIES = 1024
DEFAULT_RSS_BYTES = 4 << 30  # resident memory of a whole box without an address-space limit
RSS_SLACK_BYTES = 512 << 20  # over one process's address-space limit: the box's other processes
UNLIMITED = math.inf  # for cpu_s: no CPU-time limit (a long-lived child that has no wall clock either)


def default_rss_bytes(memory_bytes: int | None) -> int:
    """The resident-memory cap of a box (bytes, all its processes together) when the caller names none.

    RLIMIT_AS bounds each process, so 64 processes could hold 64 times it; the whole box gets
    `memory_bytes` + RSS_SLACK_BYTES, or DEFAULT_RSS_BYTES when there is no address-space limit.
    """
    if memory_bytes is None or memory_bytes == resource.RLIM_INFINITY:
        return DEFAULT_RSS_BYTES
    return int(memory_bytes) + RSS_SLACK_BYTES


@dataclass(frozen=True)
class Limits:
    """Resource limits of one box. Times in seconds, sizes in bytes.

    `time_s` is the wall clock, enforced from outside: the whole box is killed. The rlimits are set
    inside the box by prlimit(1) and count per process: `cpu_s` CPU seconds (None: `time_s`;
    UNLIMITED: none) plus one, SIGXCPU there and SIGKILL a second later; `memory_bytes` of address
    space (None or RLIM_INFINITY: none); `file_bytes` per file written (SIGXFSZ beyond); `processes`
    processes and threads (RLIMIT_NPROC, per box: it has its own user namespace); `open_files`.
    Watched from outside, ten times a second: `rss_bytes`, the resident memory of the whole box
    (None: `default_rss_bytes(memory_bytes)`, so every box has one; an address-space limit is per
    process, and runs that cannot have one, ThreadSanitizer's shadow memory, rely on it), and
    `disk_bytes` (bytes allocated) and `disk_entries` (files and folders) the box adds to its work
    directory (None: unchecked); past either, or with folders nested deeper than watch.DISK_MAX_DEPTH,
    the box is killed and `disk_exceeded` is set (it may overshoot by what it writes in
    watch.DISK_CHECK_S). `charged_s` is the box's limit in CPU seconds, all its processes together
    (watch.Charge, sampled every watch.DISK_CHECK_S): past it the box is stopped (`timed_out` and
    `cpu_exceeded`), however long the wall clock says it ran, so its outcome does not depend on the
    machine's load; `time_s` is then the wall-clock backstop (a box that sleeps, or one that other
    work keeps from a CPU), and a box stopped there whose threads mostly waited for a CPU is
    `starved` (None: `time_s` alone). stdout and stderr are kept up to
    `output_bytes` each.
    """

    time_s: float
    memory_bytes: int | None = DEFAULT_MEMORY_BYTES
    file_bytes: int = DEFAULT_FILE_BYTES
    cpu_s: float | None = None
    processes: int = DEFAULT_PROCESSES
    open_files: int = DEFAULT_OPEN_FILES
    tmp_bytes: int = DEFAULT_TMP_BYTES  # size of /tmp and of /dev/shm, each
    rss_bytes: int | None = None
    disk_bytes: int | None = DEFAULT_DISK_BYTES
    disk_entries: int | None = DEFAULT_DISK_ENTRIES
    charged_s: float | None = None
    output_bytes: int = OUTPUT_CAP

    @property
    def watched_rss_bytes(self) -> int:
        """The resident-memory cap the watchdog applies (rss_bytes, else the default for memory_bytes)."""
        return self.rss_bytes if self.rss_bytes is not None else default_rss_bytes(self.memory_bytes)

    def prlimit_args(self, with_nproc: bool = True) -> list[str]:
        """prlimit(1)'s options for these limits (`with_nproc=False` where no user namespace counts them)."""
        def value(v) -> str:
            return "unlimited" if v is None or v == resource.RLIM_INFINITY else str(int(v))

        cpu_s = self.time_s if self.cpu_s is None else self.cpu_s
        cpu = None if cpu_s == UNLIMITED else int(cpu_s) + 1
        args = [f"--cpu={value(cpu)}:{value(None if cpu is None else cpu + 1)}",
                f"--as={value(self.memory_bytes)}", f"--fsize={value(self.file_bytes)}",
                f"--nofile={self.open_files}", "--core=0"]
        if with_nproc:
            args.append(f"--nproc={self.processes}")
        return args


@dataclass
class SandboxResult:
    """How a sandboxed command ended."""

    returncode: int  # exit status; a signal N is 128+N through bubblewrap, -N in unsafe mode
    stdout: str  # captured standard output, capped at the output cap with a note when truncated
    stderr: str  # captured standard error, capped the same way
    timed_out: bool  # True when the wall-clock limit killed the box
    time_s: float  # wall-clock seconds from start to exit
    sandboxed: bool = True  # False only in unsafe mode (Sandbox.allow_unsafe) without bwrap
    truncated: bool = False  # True when stdout or stderr went past the cap
    memory_exceeded: bool = False  # True when the resident-memory watchdog killed the box
    disk_exceeded: bool = False  # True when the box wrote past its disk limit and was killed
    starved: bool = False  # True when the wall clock stopped a box that other work kept from a CPU
    cpu_exceeded: bool = False  # True when the box was stopped at its limit in CPU seconds (Limits.charged_s)
    # CPU seconds (user + system) of the box's processes, sampled every watch.DISK_CHECK_S while it ran
    # (the last tenth of a second may go uncounted); None for a box without Limits.charged_s.
    cpu_s: float | None = None
