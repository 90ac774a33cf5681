"""Run an untrusted command inside bubblewrap, with rlimits, a wall-clock limit and capped output.

Every compile and every run of a student's code goes through `run_sandboxed` (a long-lived child,
such as the GPU pool's, can build its command with `build_command` after `prepare`). The layers,
outside in:

- Namespaces (`--unshare-all`, plus an explicit user namespace with nested ones disabled): no
  network but a private loopback, a private PID space whose init takes every process with it when
  it dies, private IPC, hostname and mounts. `--die-with-parent` and `--new-session` tie the box
  to this worker and detach it from any terminal.
- An unprivileged identity: as root, the worker starts bubblewrap as WARPDRILL_SANDBOX_UID
  (default 65534, "nobody"), so nothing inside runs as host root and RLIMIT_NPROC is enforced
  (the kernel never enforces it for uid 0). Inside, the command is uid 1000 with no capabilities.
- A filesystem of its own: read-only /usr (and the /bin, /lib... links of a merged-/usr system),
  fresh /proc and /dev, size-capped private /tmp and /dev/shm, the read-only binds the step names,
  one work directory read-write at WORK_PATH, and nothing else: no /etc, no /home, no project
  (its settings, its var/ with the database and the binary cache), no other submission. Project
  paths that happen to lie under /usr are masked by empty read-only tmpfs mounts.
- rlimits set inside the box by prlimit(1), just before the command: CPU seconds, address space,
  file size, open files, processes (threads count) and no core dumps.
- A seccomp filter (grader/core/seccomp.py) refusing system calls no compiler or kernel needs.
- From outside: a wall-clock limit that kills bubblewrap's process group (the box's PID namespace
  dies with it), stdout/stderr read through pipes and capped with an "output truncated" note,
  a watchdog on what the box writes to its work directory (bytes and entries: the one writable
  host folder), and, for runs without an address-space limit, a watchdog on its resident memory.

If bubblewrap is missing or cannot set up a box, `run_sandboxed` raises SandboxUnavailableError
(a PlatformError: the submission is retried, never charged), unless WARPDRILL_ALLOW_UNSAFE_SANDBOX=1,
which runs the command directly, for development machines only, with a loud warning every time.
docs/security.md describes the threat model and what the tests prove.
"""
from __future__ import annotations

import glob
import logging
import os
import re
import resource
import selectors
import shutil
import signal
import stat
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import seccomp
from .errors import SandboxUnavailableError

logger = logging.getLogger(__name__)

# WARPDRILL_BWRAP points elsewhere only in fault tests (a missing path makes the sandbox
# unavailable: every grading attempt is then a platform fault, never a verdict).
BWRAP = os.environ.get("WARPDRILL_BWRAP", "/usr/bin/bwrap")
PRLIMIT = "/usr/bin/prlimit"  # util-linux, Essential on Debian: sets the rlimits inside the box
WORK_PATH = "/box"  # where the work directory appears inside the sandbox
OUTPUT_CAP = 64 * 1024  # bytes of stdout/stderr kept, each
UNSAFE_ENV = "WARPDRILL_ALLOW_UNSAFE_SANDBOX"
UID_ENV = "WARPDRILL_SANDBOX_UID"  # host uid (and gid) the box runs as when the worker is root
HIDE_ENV = "WARPDRILL_SANDBOX_HIDE"  # extra host paths to mask if they lie under /usr (os.pathsep list)

BOX_UID = 1000  # the command's uid and gid as seen inside the box
DEFAULT_PROCESSES = 64  # processes + threads of one box (the emulator uses up to 9 threads)
DEFAULT_OPEN_FILES = 64
DEFAULT_TMP_BYTES = 64 << 20  # /tmp and /dev/shm are tmpfs, i.e. memory: each is capped
# The work directory is on the host's disk. RLIMIT_FSIZE caps each file, not their number, so the
# box's additions to it are capped as a whole: bytes allocated and entries (files, folders) created.
DEFAULT_DISK_BYTES = 256 << 20
DEFAULT_DISK_ENTRIES = 1024
DISK_MAX_DEPTH = 8  # folders nested deeper than this in the work directory stop the box (see _DiskWatch)
DISK_CHECK_S = 0.1  # how often the work directory is measured while the box runs
PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")
KILL_DRAIN_S = 5.0  # after a kill, how long the pipes may take to close
STRAGGLER_S = 0.5  # after the command exits, how long its leftovers may hold the pipes (unsafe mode)

REPO_ROOT = Path(__file__).resolve().parents[2]
SYSTEM_DIRS = ("/usr",)
GPU_DEVICE_GLOBS = ("/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools", "/dev/nvidia-modeset",
                    "/dev/nvidia[0-9]*", "/dev/nvidia-caps")
# What the CUDA driver reads in /sys: PCI topology (bus ids, NUMA nodes, BARs) and the module's version.
GPU_SYS_PATHS = ("/sys/bus/pci", "/sys/devices", "/sys/dev/char", "/sys/module/nvidia", "/sys/module/nvidia_uvm")


@dataclass
class SandboxResult:
    """How a sandboxed command ended."""

    returncode: int  # exit status; a signal N is 128+N through bubblewrap, -N in unsafe mode
    stdout: str  # captured standard output, capped at the output cap with a note when truncated
    stderr: str  # captured standard error, capped the same way
    timed_out: bool  # True when the wall-clock limit killed the box
    time_s: float  # wall-clock seconds from start to exit
    sandboxed: bool = True  # False only under WARPDRILL_ALLOW_UNSAFE_SANDBOX=1 without bwrap
    truncated: bool = False  # True when stdout or stderr went past the cap
    memory_exceeded: bool = False  # True when the resident-memory watchdog killed the box
    disk_exceeded: bool = False  # True when the box wrote past its disk limit and was killed


@dataclass(frozen=True)
class Limits:
    """Resource limits of one box. Times in seconds, sizes in bytes; None: unlimited."""

    time_s: float  # wall clock, enforced from outside
    cpu_s: float | None  # CPU seconds per process, plus one: SIGXCPU there, SIGKILL a second later
    memory_bytes: int | None  # address space per process (RLIMIT_AS)
    file_bytes: int  # largest file a process may write (RLIMIT_FSIZE; SIGXFSZ beyond)
    processes: int = DEFAULT_PROCESSES  # RLIMIT_NPROC, counted per box (its own user namespace)
    open_files: int = DEFAULT_OPEN_FILES
    tmp_bytes: int = DEFAULT_TMP_BYTES  # size of /tmp and of /dev/shm, each
    rss_bytes: int | None = None  # resident memory of the whole box, watched from outside
    disk_bytes: int | None = None  # bytes the box may add to its work directory, watched from outside
    disk_entries: int | None = None  # files and folders the box may add there
    charged_s: float | None = None  # wall seconds less the box's waits for a CPU (None: time_s alone)

    def prlimit_args(self, with_nproc: bool = True) -> list[str]:
        def value(v) -> str:
            return "unlimited" if v is None or v == resource.RLIM_INFINITY else str(int(v))

        cpu = None if self.cpu_s is None else int(self.cpu_s) + 1
        args = [f"--cpu={value(cpu)}:{value(None if cpu is None else cpu + 1)}",
                f"--as={value(self.memory_bytes)}", f"--fsize={value(self.file_bytes)}",
                f"--nofile={self.open_files}", "--core=0"]
        if with_nproc:
            args.append(f"--nproc={self.processes}")
        return args


@dataclass
class Command:
    """A ready-to-start sandboxed command: argv for Popen and the host identity to start it as."""

    argv: list[str]
    user: int | None = None  # host uid to start bubblewrap as (root workers only)
    group: int | None = None
    pass_fds: tuple[int, ...] = ()  # the seccomp filter's descriptor, when there is one
    masks: list[str] = field(default_factory=list)  # host paths hidden under /usr


# ---- is bubblewrap usable here? ----

_probe_cache: bool | None = None
_probe_reason: str = ""
_probe_retry_at: float | None = None  # after a failed probe: when to try again
PROBE_RETRY_S = 60.0


def probe(refresh: bool = False) -> str | None:
    """Why bubblewrap cannot run a box on this machine, or None when it can.

    A success is remembered for the life of the process; a failure for PROBE_RETRY_S, so a
    worker that met a passing problem (a busy machine, a late mount) recovers by itself.
    """
    global _probe_cache, _probe_reason, _probe_retry_at
    retry = _probe_cache is False and _probe_retry_at is not None and time.monotonic() >= _probe_retry_at
    if _probe_cache is None or refresh or retry:
        _probe_reason = _probe()
        _probe_cache = not _probe_reason
        _probe_retry_at = None if _probe_cache else time.monotonic() + PROBE_RETRY_S
    return None if _probe_cache else (_probe_reason or "bubblewrap is unavailable")


def bwrap_works() -> bool:
    """True when bubblewrap exists and can create its namespaces here (probed once)."""
    return probe() is None


def _probe() -> str:
    if not Path(BWRAP).exists():
        return f"bubblewrap ({BWRAP}) is not installed"
    if not Path(PRLIMIT).exists():
        return f"{PRLIMIT} (util-linux) is missing"
    with tempfile.TemporaryDirectory(prefix="wd-probe-") as tmp:
        try:
            res = _run(["/usr/bin/true"], Path(tmp), Limits(20.0, 5, 256 << 20, 1 << 20), {}, None, False, 4096)
        except SandboxUnavailableError as exc:
            return str(exc)
        except OSError as exc:
            return f"bubblewrap cannot start: {exc}"
    if res.returncode != 0:
        return f"bubblewrap's probe exited with status {res.returncode}: {res.stderr.strip()[:300]}"
    return ""


# ---- the command line ----

def sandbox_ids() -> tuple[int, int] | None:
    """(uid, gid) bubblewrap runs as: the sandbox user when the worker is root, else None (as is)."""
    if os.geteuid() != 0:
        return None
    uid = int(os.environ.get(UID_ENV, "65534"))
    if uid == 0:
        raise SandboxUnavailableError(f"{UID_ENV}=0 would run student code as root")
    return uid, uid


def hidden_paths() -> list[str]:
    """Host paths of the project that must never be visible: masked when they lie under /usr."""
    paths = [REPO_ROOT, os.environ.get("WARPDRILL_CACHE_DIR", ""), os.environ.get("WARPDRILL_VAR_DIR", ""),
             *os.environ.get(HIDE_ENV, "").split(os.pathsep)]
    out = []
    for p in paths:
        if not p:
            continue
        real = os.path.realpath(p)
        if any(real.startswith(d + "/") for d in SYSTEM_DIRS) and os.path.isdir(real):
            out.append(real)
    return sorted(set(out))


def _system_layout() -> list[str]:
    args = []
    for d in SYSTEM_DIRS:
        args += ["--ro-bind", d, d]
    for name in ("bin", "sbin", "lib", "lib64", "lib32", "libx32"):
        path = f"/{name}"
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    return args


def gpu_device_nodes() -> list[str]:
    """The NVIDIA device nodes present on this machine."""
    return sorted({p for pattern in GPU_DEVICE_GLOBS for p in glob.glob(pattern)})


def build_command(argv: list[str], workdir: Path, limits: Limits, *, ro_binds: dict[str, str] | None = None,
                  env: dict[str, str] | None = None, gpu: bool = False, report_start: bool = False,
                  seccomp_fd: int | None = None) -> Command:
    """The bubblewrap command line that runs `argv` (paths as seen inside) in a box over `workdir`.

    Preconditions: `workdir` exists and holds only what the command may read and write; it is
    the only host path the box can write. `ro_binds` maps host paths to paths inside (read-only).
    The caller starts it with `start_new_session=True` and Command.user/group, after
    `prepare(workdir, ro_binds)` when the worker is root. With `report_start`, stdin must be the
    write end of a pipe: a shell inside the box writes one byte to it and replaces it with
    /dev/null before running the command, the proof that the box was set up (bubblewrap's own
    failures exit 1, as a command may). `seccomp_fd` holds a filter from grader.core.seccomp.
    """
    masks = hidden_paths()
    cmd = [BWRAP, "--unshare-all", "--unshare-user", "--disable-userns", "--uid", str(BOX_UID), "--gid", str(BOX_UID),
           "--die-with-parent", "--new-session", *_system_layout()]
    for m in masks:
        cmd += ["--tmpfs", m, "--remount-ro", m]
    cmd += ["--proc", "/proc", "--dev", "/dev"]
    if gpu:
        for node in gpu_device_nodes():
            cmd += ["--dev-bind", node, node]
        for path in GPU_SYS_PATHS:
            cmd += ["--ro-bind-try", path, path]
    cmd += ["--size", str(limits.tmp_bytes), "--tmpfs", "/dev/shm", "--remount-ro", "/dev",
            "--size", str(limits.tmp_bytes), "--tmpfs", "/tmp"]
    for host, inside in (ro_binds or {}).items():
        cmd += ["--ro-bind", str(host), inside]
    cmd += ["--bind", str(workdir), WORK_PATH, "--remount-ro", "/", "--chdir", WORK_PATH, "--clearenv"]
    for key, value in (env or {}).items():
        cmd += ["--setenv", key, value]
    if seccomp_fd is not None:
        cmd += ["--seccomp", str(seccomp_fd)]
    cmd.append("--")
    if report_start:
        cmd += ["/bin/sh", "-c", 'printf x >&0 && exec 0</dev/null && exec "$@"', "sh"]
    cmd += [PRLIMIT, *limits.prlimit_args(), "--", *argv]
    ids = sandbox_ids()
    fds = (seccomp_fd,) if seccomp_fd is not None else ()
    return Command(cmd, ids[0] if ids else None, ids[1] if ids else None, fds, masks)


def prepare(workdir: Path, ro_binds: dict[str, str] | None = None) -> None:
    """As root: give the sandbox user the work directory and a way to reach every bound path.

    bubblewrap runs unprivileged, so each bind source must be reachable by the sandbox user:
    directories above them that are ours get search permission for others (never read), bound
    folders of ours become readable, and the work directory's tree is handed over. Raises
    SandboxUnavailableError when a path cannot be reached. No-op when the worker is not root
    (it then owns what it binds).
    """
    ids = sandbox_ids()
    if ids is None:
        return
    uid, gid = ids
    for source in [workdir, *(ro_binds or {})]:
        _make_reachable(Path(source), uid)
    for source in ro_binds or {}:  # a bound folder is there to be read: let the sandbox user list it
        st = os.stat(source) if os.path.isdir(source) else None
        if st and st.st_uid == os.geteuid() and (st.st_mode & 0o005) != 0o005:
            os.chmod(source, (st.st_mode & 0o7777) | 0o005)
    for root, dirs, files in os.walk(workdir):
        for name in [*dirs, *files]:
            os.lchown(os.path.join(root, name), uid, gid)
    os.chown(workdir, uid, gid)


def _make_reachable(path: Path, uid: int) -> None:
    path = Path(os.path.abspath(path))
    for parent in reversed(path.parents):
        st = parent.stat()
        if st.st_mode & 0o001 or st.st_uid == uid:
            continue
        if st.st_uid != os.geteuid():
            raise SandboxUnavailableError(f"the sandbox user cannot reach {path}: {parent} is not searchable")
        os.chmod(parent, (st.st_mode & 0o7777) | 0o001)


# ---- running ----

DEFAULT_RSS_BYTES = 4 << 30  # resident memory of a whole box without an address-space limit
RSS_SLACK_BYTES = 512 << 20  # over one process's address-space limit: the box's other processes


def default_rss_bytes(memory_bytes: int | None) -> int:
    """The resident-memory cap of a box (bytes, all its processes together) when the caller names none.

    RLIMIT_AS bounds each process, so 64 processes could hold 64 times it; the whole box gets
    `memory_bytes` + RSS_SLACK_BYTES, or DEFAULT_RSS_BYTES when there is no address-space limit.
    """
    if memory_bytes is None or memory_bytes == resource.RLIM_INFINITY:
        return DEFAULT_RSS_BYTES
    return int(memory_bytes) + RSS_SLACK_BYTES


def run_sandboxed(
    argv: list[str],
    workdir: Path,
    time_limit_s: float,
    memory_bytes: int = 2 << 30,
    *,
    ro_binds: dict[str, str] | None = None,
    env: dict[str, str] | None = None,
    file_bytes: int = 256 << 20,
    cpu_s: float | None = None,
    gpu: bool = False,
    processes: int = DEFAULT_PROCESSES,
    open_files: int = DEFAULT_OPEN_FILES,
    tmp_bytes: int = DEFAULT_TMP_BYTES,
    output_cap: int = OUTPUT_CAP,
    rss_bytes: int | None = None,
    disk_bytes: int | None = DEFAULT_DISK_BYTES,
    disk_entries: int | None = DEFAULT_DISK_ENTRIES,
    charged_limit_s: float | None = None,
) -> SandboxResult:
    """Run `argv` (paths as seen inside the sandbox) with `workdir` bound read-write at WORK_PATH.

    Preconditions: `workdir` exists and holds only what the command may read and write (as root,
    its tree is handed to the sandbox user). `ro_binds` maps host paths to paths inside the box
    (read-only). Limits: wall clock `time_limit_s` (the whole box is killed), address space
    `memory_bytes` per process (RLIM_INFINITY: none), files written `file_bytes` each, CPU seconds
    `cpu_s` per process (default: the wall-clock limit) plus 1, `processes` processes and threads,
    `open_files` descriptors, `tmp_bytes` of /tmp. stdout and stderr are kept up to `output_cap`
    bytes each. `gpu=True` adds the NVIDIA device nodes and the /sys entries CUDA reads.
    `rss_bytes` caps the resident memory of the whole box, checked ten times a second from
    outside (default: `default_rss_bytes(memory_bytes)`, so every box has one): an address-space
    limit is per process, and runs that cannot have one (ThreadSanitizer's shadow memory) rely on it.
    `disk_bytes` (bytes allocated) and `disk_entries` (files and folders) cap what the box adds to
    `workdir` in all, checked every DISK_CHECK_S from outside (None: unchecked); past either, or
    with folders nested deeper than DISK_MAX_DEPTH, the box is killed and `disk_exceeded` is set.
    A box may overshoot the byte cap by what it writes in DISK_CHECK_S.
    `charged_limit_s` stops the box earlier than `time_limit_s` once its wall time, less the time
    its threads waited on a run queue for a CPU (other work on the machine held it: /proc's
    schedstat run_delay, the largest of any thread), passes it: a command that sleeps is charged its
    sleep, one starved by a busy machine is not; `time_limit_s` stays the plain wall-clock backstop.
    Either way `timed_out` is set.
    Raises SandboxUnavailableError when bubblewrap cannot run and unsafe mode is off.
    """
    workdir = Path(workdir).resolve()
    if rss_bytes is None:
        rss_bytes = default_rss_bytes(memory_bytes)
    full_env = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
    full_env.update(env or {})
    limits = Limits(time_limit_s, time_limit_s if cpu_s is None else cpu_s, memory_bytes, file_bytes,
                    processes, open_files, tmp_bytes, rss_bytes, disk_bytes, disk_entries, charged_limit_s)
    if bwrap_works():
        return _run(argv, workdir, limits, full_env, ro_binds, gpu, output_cap)
    if os.environ.get(UNSAFE_ENV) == "1":
        logger.warning("UNSAFE: bubblewrap is unavailable; running untrusted code WITHOUT a sandbox (%s=1)", UNSAFE_ENV)
        return _run_unsafe(argv, workdir, limits, full_env, ro_binds or {}, output_cap)
    raise SandboxUnavailableError(
        f"bubblewrap cannot run on this worker ({probe()}); not grading. "
        f"Set {UNSAFE_ENV}=1 only on a development machine."
    )


def _run(argv, workdir: Path, limits: Limits, env: dict, ro_binds, gpu: bool, output_cap: int) -> SandboxResult:
    prepare(workdir, ro_binds)
    disk = _DiskWatch.for_limits(workdir, limits)
    started_r, started_w = os.pipe()
    filter_fd = seccomp.program_fd()
    try:
        command = build_command(argv, workdir, limits, ro_binds=ro_binds, env=env, gpu=gpu, report_start=True,
                                seccomp_fd=filter_fd)
        start = time.monotonic()
        proc = subprocess.Popen(
            command.argv, stdin=started_w, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            cwd="/", env={}, start_new_session=True, pass_fds=command.pass_fds,
            user=command.user, group=command.group, extra_groups=[] if command.user is not None else None,
        )
    finally:
        os.close(started_w)
        if filter_fd is not None:
            os.close(filter_fd)
    try:
        end = _collect(proc, start + limits.time_s, output_cap, started_r, limits.rss_bytes, disk,
                       _Charge(start, limits.charged_s) if limits.charged_s is not None else None)
    except BaseException:
        # Any way out but a normal end (Celery's SoftTimeLimitExceeded raised by its signal
        # handler in the middle of reading, KeyboardInterrupt, a bug) must not leave the box
        # running without its wall clock and watchdogs: kill its whole process group first.
        _abandon(proc)
        raise
    finally:
        os.close(started_r)
    elapsed = time.monotonic() - start
    scrub(workdir)
    if not end.started and not end.timed_out and not end.memory_exceeded and not end.disk_exceeded:
        # The box's first process reports before starting the command: without it, the box never existed.
        raise SandboxUnavailableError(f"bubblewrap could not set up the sandbox: {end.err.text.strip()[:500]}")
    return end.result(proc.returncode, elapsed, True)


def scrub(workdir: Path) -> int:
    """Remove from `workdir` everything but regular files and folders; returns how many were removed.

    The box is gone when this runs, but what it left is read by the worker, on the host: a symlink
    named like an output (`printf.log -> /proc/self/environ` of the worker) would be followed there,
    and a FIFO would block the reader forever.
    """
    removed = 0
    for root, dirs, files in os.walk(workdir):
        for name in [*dirs, *files]:
            path = os.path.join(root, name)
            mode = os.lstat(path).st_mode
            if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
                os.unlink(path)
                removed += 1
        dirs[:] = [d for d in dirs if os.path.isdir(os.path.join(root, d))]
    return removed


def _run_unsafe(argv, workdir: Path, limits: Limits, env: dict, ro_binds: dict, output_cap: int) -> SandboxResult:
    """Development only: the same command with paths translated back to the host, rlimits, no box."""
    cmd = _unsafe_argv(argv, workdir, ro_binds)
    if Path(PRLIMIT).exists():
        cmd = [PRLIMIT, *limits.prlimit_args(with_nproc=False), "--", *cmd]
    run_env = {k: v.replace(WORK_PATH + "/", f"{workdir}/") for k, v in env.items()}
    disk = _DiskWatch.for_limits(workdir, limits)
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=workdir, env=run_env, start_new_session=True)
    try:
        end = _collect(proc, start + limits.time_s, output_cap, None, limits.rss_bytes, disk,
                       _Charge(start, limits.charged_s) if limits.charged_s is not None else None)
    except BaseException:
        _abandon(proc)
        raise
    scrub(workdir)
    return end.result(proc.returncode, time.monotonic() - start, False)


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
class _Ending:
    """What `_collect` saw of a box."""

    out: _Capped
    err: _Capped
    started: bytes  # what the box's first process wrote to the started pipe
    timed_out: bool
    memory_exceeded: bool
    disk_exceeded: bool = False

    def result(self, returncode: int, elapsed: float, sandboxed: bool) -> SandboxResult:
        _count_kill(self)
        return SandboxResult(returncode, self.out.text, self.err.text, self.timed_out, elapsed, sandboxed,
                             bool(self.out.dropped or self.err.dropped), self.memory_exceeded, self.disk_exceeded)


@dataclass
class _Charge:
    """The charged clock of a box: wall seconds since `start` less its threads' longest wait for a CPU."""

    start: float  # time.monotonic() when the box started
    limit_s: float  # charged seconds allowed

    def exceeded(self, pid: int, now: float) -> bool:
        elapsed = now - self.start
        return elapsed > self.limit_s and elapsed - _tree_run_delay_s(pid) > self.limit_s


def _collect(proc: subprocess.Popen, deadline: float, cap: int, started_fd: int | None,
             rss_bytes: int | None, disk: _DiskWatch | None = None, charge: _Charge | None = None) -> _Ending:
    """Read stdout/stderr (capped) until both close, killing the process group at `deadline`
    (or when the box's resident memory passes `rss_bytes`, or its work directory passes `disk`).

    The pipes close only when every process that holds them is gone, so this also waits out the
    box's last process.
    """
    out, err, started = _Capped(cap), _Capped(cap), bytearray()
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ, out)
    sel.register(proc.stderr, selectors.EVENT_READ, err)
    if started_fd is not None:
        sel.register(started_fd, selectors.EVENT_READ, None)
    timed_out = memory_exceeded = disk_exceeded = False
    killed_at = exited_at = None
    next_disk_check = time.monotonic() + DISK_CHECK_S
    streams = 2  # stdout and stderr still open; the started pipe is read only while they are
    try:
        while streams:
            now = time.monotonic()
            if proc.poll() is not None and exited_at is None:
                exited_at = now
            charged_out = (charge is not None and killed_at is None and exited_at is None
                           and charge.exceeded(proc.pid, now))
            if killed_at is None and (now >= deadline or charged_out
                                      or (exited_at is not None and now - exited_at > STRAGGLER_S)):
                timed_out = exited_at is None
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
    return _Ending(out, err, bytes(started), timed_out, memory_exceeded, disk_exceeded)


@dataclass
class _DiskWatch:
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
    def for_limits(cls, workdir: Path, limits: Limits) -> _DiskWatch | None:
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


def _tree_rss(root: int) -> int:
    """Resident bytes of `root` and every process below it, from /proc (0 for those gone)."""
    children = _children_map()
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        todo.extend(children.get(pid, ()))
        try:
            total += int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE_BYTES
        except (OSError, IndexError, ValueError):
            pass
    return total


def _abandon(proc: subprocess.Popen) -> None:
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
    """Every live process below `root`, read from /proc (the box's, seen from the worker's namespace)."""
    children = _children_map()
    found, todo = set(), [root]
    while todo:
        for child in children.get(todo.pop(), ()):
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


def _unsafe_argv(argv: list[str], workdir: Path, ro_binds: dict[str, str]) -> list[str]:
    """Translate sandbox paths back to host paths for the unsafe fallback."""
    mapping = {inside: host for host, inside in ro_binds.items()}
    mapping[WORK_PATH] = str(workdir)

    def host_path(arg: str) -> str:
        for inside in sorted(mapping, key=len, reverse=True):
            if arg == inside or arg.startswith(inside + "/"):
                return mapping[inside] + arg[len(inside):]
        return arg

    # A shell script (`sh -c "..."`, as the emulator's compile is) names paths inside its text.
    inside_word = re.compile(r"(?<![\w/.])(" + "|".join(re.escape(i) for i in sorted(mapping, key=len, reverse=True))
                             + r")(?=[/\s'\"]|$)")

    def in_script(arg: str) -> str:
        return inside_word.sub(lambda m: mapping[m.group(1)], arg) if " " in arg else arg

    return [in_script(host_path(a)) for a in argv]


def which(tool: str) -> str | None:
    """Where a host tool lives (for backends' `check()`)."""
    return shutil.which(tool)


def _count_kill(end) -> None:
    """Report a box the watchdog killed (wall clock, resident memory, disk): observe's "sandbox_kill"."""
    reason = "time" if end.timed_out else "memory" if end.memory_exceeded else "disk" if end.disk_exceeded else None
    if reason is not None:
        from . import observe

        observe.emit("sandbox_kill", reason=reason)
