"""`Sandbox`: how this worker makes boxes (bubblewrap's path, the sandbox user, the paths to mask,
unsafe mode), a value the shell builds once from its settings, and running a command in one."""
from __future__ import annotations

import logging
import os
import stat
import subprocess
import tempfile
import time
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Mapping

from ..errors import SandboxUnavailableError
from . import command as cmd
from . import probing, seccomp, watch
from .limits import Limits, SandboxResult

logger = logging.getLogger("grader.core.sandbox")

DEFAULT_BWRAP = "/usr/bin/bwrap"
DEFAULT_UID = 65534  # "nobody"
BASE_ENV = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
# Where an operator turns unsafe mode on (config/settings.py reads it): named in the refusal's message.
UNSAFE_SETTING = "WARPDRILL_ALLOW_UNSAFE_SANDBOX"


@dataclass(frozen=True)
class Sandbox:
    """How boxes are made on this worker. The shell builds one from its settings (config/settings.py:
    WARPDRILL_JUDGE["OPTIONS"]["sandbox"]) and hands it to the backends' constructors; `Sandbox()` is
    the production default."""

    bwrap: str = DEFAULT_BWRAP  # bubblewrap; elsewhere only in fault tests (missing: every grading a platform fault)
    uid: int = DEFAULT_UID  # host uid (and gid) the box runs as when the worker is root; never 0
    hide: tuple[str, ...] = ()  # more host paths to mask when they lie under /usr: the site's state and caches
    allow_unsafe: bool = False  # development machines without bubblewrap only: run directly, warned every time

    @classmethod
    def of(cls, value: Sandbox | Mapping[str, Any] | None) -> Sandbox:
        """`value` itself, a Sandbox from a settings mapping ({"bwrap", "uid", "hide", "allow_unsafe"}),
        or DEFAULT for None. Raises TypeError for a key that is not a field."""
        if value is None:
            return DEFAULT
        if isinstance(value, Sandbox):
            return value
        unknown = set(value) - {f.name for f in fields(cls)}
        if unknown:
            raise TypeError(f"unknown sandbox options: {', '.join(sorted(unknown))}")
        options = dict(value)
        if "hide" in options:
            options["hide"] = tuple(str(p) for p in options["hide"] if p)
        return cls(**options)

    # ---- is bubblewrap usable here? ----

    def probe(self, refresh: bool = False) -> str | None:
        """Why bubblewrap cannot run a box on this machine, or None when it can (probing.probe)."""
        return probing.probe(self.bwrap, cmd.PRLIMIT, self._try_box, refresh)

    def works(self) -> bool:
        """True when bubblewrap exists and can create its namespaces here (probed once)."""
        return self.probe() is None

    def sandboxed(self) -> bool:
        """True when commands run in bubblewrap, False in unsafe mode without it; raises
        SandboxUnavailableError when neither."""
        if self.works():
            return True
        if self.allow_unsafe:
            return False
        raise SandboxUnavailableError(f"bubblewrap cannot run on this worker ({self.probe()}); not grading. "
                                      f"Set {UNSAFE_SETTING}=1 only on a development machine.")

    def _try_box(self) -> str:
        with tempfile.TemporaryDirectory(prefix="wd-probe-") as tmp:
            try:
                res = self._start(["/usr/bin/true"], Path(tmp), Limits(20.0, 256 << 20, 1 << 20, cpu_s=5,
                                                                       output_bytes=4096), {}, None, False).finish()
            except SandboxUnavailableError as exc:
                return str(exc)
            except OSError as exc:
                return f"bubblewrap cannot start: {exc}"
        if res.returncode != 0:
            return f"bubblewrap's probe exited with status {res.returncode}: {res.stderr.strip()[:300]}"
        return ""

    # ---- the command line ----

    def ids(self) -> tuple[int, int] | None:
        """(uid, gid) bubblewrap runs as: the sandbox user when the worker is root, else None (as is)."""
        return cmd.sandbox_ids(self.uid)

    def hidden_paths(self) -> list[str]:
        """Host paths of the project and of `hide` that lie under /usr: masked in every box."""
        return cmd.hidden_paths(self.hide)

    def build_command(self, argv: list[str], workdir: Path, limits: Limits, **options) -> cmd.Command:
        """command.build_command with this worker's bubblewrap, identity and masks (same options)."""
        return cmd.build_command(argv, workdir, limits, bwrap=self.bwrap, ids=self.ids(), masks=self.hidden_paths(),
                                 **options)

    def prepare(self, workdir: Path, ro_binds: dict[str, str] | None = None) -> None:
        """command.prepare for this worker's sandbox user (a no-op unless the worker is root)."""
        cmd.prepare(workdir, ro_binds, self.ids())

    # ---- running ----

    def run(self, argv: list[str], workdir: Path, limits: Limits, *, ro_binds: dict[str, str] | None = None,
            env: dict[str, str] | None = None, gpu: bool = False) -> SandboxResult:
        """Run `argv` (paths as seen inside the sandbox) with `workdir` bound read-write at WORK_PATH.

        Preconditions: `workdir` exists and holds only what the command may read and write (as root,
        its tree is handed to the sandbox user). `ro_binds` maps host paths to paths inside the box
        (read-only); `env` adds to BASE_ENV (nothing of the worker's environment enters the box);
        `limits` says what the box may use (limits.Limits). `gpu=True` adds the NVIDIA device nodes
        and the /sys entries CUDA reads. Raises SandboxUnavailableError when bubblewrap cannot run
        and unsafe mode is off.
        """
        return self.start(argv, workdir, limits, ro_binds=ro_binds, env=env, gpu=gpu).finish()

    def start(self, argv: list[str], workdir: Path, limits: Limits, *, ro_binds: dict[str, str] | None = None,
              env: dict[str, str] | None = None, gpu: bool = False) -> Running:
        """Start what `run` runs (same arguments, preconditions and errors) and return at once: the box
        runs while the caller works, and `Running.finish()` (on any thread; it forks nothing) watches
        it to its end. Its limits hold from the start (rlimits inside the box; the wall clock counts
        from now), but its output, memory and disk are watched only while `finish` runs: a command
        that writes more than a pipe holds (64 KiB) waits for it. Call `finish` or `abandon` once."""
        workdir = Path(workdir).resolve()
        full_env = {**BASE_ENV, **(env or {})}
        if self.sandboxed():
            return self._start(argv, workdir, limits, full_env, ro_binds, gpu)
        logger.warning("UNSAFE: bubblewrap is unavailable; running untrusted code WITHOUT a sandbox (%s=1)",
                       UNSAFE_SETTING)
        return _start_unsafe(argv, workdir, limits, full_env, ro_binds or {})

    def _start(self, argv, workdir: Path, limits: Limits, env: dict, ro_binds, gpu: bool) -> Running:
        self.prepare(workdir, ro_binds)
        disk = watch.DiskWatch.for_limits(workdir, limits)
        started_r, started_w = os.pipe()
        filter_fd = seccomp.program_fd()
        try:
            command = self.build_command(argv, workdir, limits, ro_binds=ro_binds, env=env, gpu=gpu, report_start=True,
                                         seccomp_fd=filter_fd)
            start = time.monotonic()
            proc = subprocess.Popen(
                command.argv, stdin=started_w, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                cwd="/", env={}, start_new_session=True, pass_fds=command.pass_fds,
                user=command.user, group=command.group, extra_groups=[] if command.user is not None else None,
            )
        except BaseException:
            os.close(started_r)
            raise
        finally:
            os.close(started_w)
            if filter_fd is not None:
                os.close(filter_fd)
        return Running(proc, workdir, limits, start, started_r, True, disk)


class Running:
    """A box started by `Sandbox.start`: `finish()` watches it to its end and returns its result,
    `abandon()` kills it. Exactly one of the two is called, once."""

    def __init__(self, proc: subprocess.Popen, workdir: Path, limits: Limits, start: float,
                 started_fd: int | None, sandboxed: bool, disk: watch.DiskWatch | None):
        self.proc, self.workdir, self.limits, self.start = proc, workdir, limits, start
        self._started_fd, self._sandboxed, self._disk = started_fd, sandboxed, disk

    def finish(self) -> SandboxResult:
        """Read the box's output (capped) and watch its clocks, memory and disk until it ends; its
        SandboxResult. Raises SandboxUnavailableError when bubblewrap never set the box up; any
        exception on the way out (a soft time limit) kills the box first."""
        limits, proc = self.limits, self.proc
        try:
            end = watch.collect(proc, self.start + limits.time_s, limits.output_bytes, self._started_fd,
                                limits.watched_rss_bytes, self._disk, _charge(self.start, limits))
        except BaseException:
            # Any way out but a normal end (Celery's SoftTimeLimitExceeded raised by its signal
            # handler in the middle of reading, KeyboardInterrupt, a bug) must not leave the box
            # running without its wall clock and watchdogs: kill its whole process group first.
            watch.abandon(proc)
            raise
        finally:
            self._close()
        elapsed = time.monotonic() - self.start
        scrub(self.workdir)
        if self._sandboxed and not end.started and not end.timed_out and not end.memory_exceeded \
                and not end.disk_exceeded:
            # The box's first process reports before starting the command: without it, the box never existed.
            raise SandboxUnavailableError(f"bubblewrap could not set up the sandbox: {end.err.text.strip()[:500]}")
        return end.result(proc.returncode, elapsed, self._sandboxed)

    def abandon(self) -> None:
        """Kill the box and its processes and reap bubblewrap (its result is not wanted)."""
        try:
            watch.abandon(self.proc)
        finally:
            for pipe in (self.proc.stdout, self.proc.stderr):
                if pipe is not None:
                    pipe.close()
            self._close()

    def _close(self) -> None:
        if self._started_fd is not None:
            os.close(self._started_fd)
            self._started_fd = None


# The sandbox of callers that name none (scripts, tests; the production default). Grading code gets
# the shell's (registry.configured_sandbox, the backends' sandbox option) and passes it on.
DEFAULT = Sandbox()


def _charge(start: float, limits: Limits) -> watch.Charge | None:
    """The charged clock of a box started at `start` (time.monotonic()), None without `charged_s`."""
    return None if limits.charged_s is None else watch.Charge(start, limits.charged_s)


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


def _start_unsafe(argv, workdir: Path, limits: Limits, env: dict, ro_binds: dict) -> Running:
    """Development only: the same command with paths translated back to the host, rlimits, no box."""
    argv = cmd.unsafe_argv(argv, workdir, ro_binds)
    if Path(cmd.PRLIMIT).exists():
        argv = [cmd.PRLIMIT, *limits.prlimit_args(with_nproc=False), "--", *argv]
    run_env = {k: v.replace(cmd.WORK_PATH + "/", f"{workdir}/") for k, v in env.items()}
    disk = watch.DiskWatch.for_limits(workdir, limits)
    start = time.monotonic()
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=workdir, env=run_env, start_new_session=True)
    return Running(proc, workdir, limits, start, None, False, disk)
