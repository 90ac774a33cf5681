"""The judge's side of the GPU children: start them, talk to them with deadlines, kill them.

A `Child` is one process (grader.core.gpu.child, possibly under compute-sanitizer) with a pipe
for jobs (its stdin) and a FIFO for results. A `ChildPool` keeps one warm "main" child per
worker (context already created, so a run costs a job round trip, not a process start), one
warm compiler child (NVRTC loaded, no context: nvrtc.py) and one warm child per sanitizer tool.
A sanitizer child serves job after job too: after each one it leaves a fence in the tool's log
(fence.py) and the judge cuts the job's report off there (`Child.job_log`); it is replaced
after SANITIZER_JOBS jobs, or as soon as its log cannot be cut. A used, hung or broken child is
killed and a fresh one started at once, so that the next submission finds one ready.
With a `shared` (shared.py), the children of its slots are one per worker instead, reached by
every pool process through a unix socket, one job at a time under the slot's lock
(`ChildPool.holding`); `spawn` and `ToolLog` serve both kinds of child.
Children are started with `subprocess` (fork+exec), never forked from a process that holds a
CUDA context; this process never touches CUDA at all.
"""
from __future__ import annotations

import contextlib
import logging
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Callable

import numpy as np

from ..escape import escape_untrusted
from . import protocol
from .isolation import child_launch, compute_sanitizer
from .child_settings import DEFAULT as DEFAULT_SETTINGS, ChildSettings
from .sanitizer import FENCE_RECORDS, MIN_REPORT_RECORDS, Tool, count_records, cut_job, drop_fences, print_limit, tool_options

log = logging.getLogger(__name__)

# How long a child may take to say it is ready (a CUDA context, NVRTC loaded): the default of the
# GPU backend's start_timeout_s option.
START_TIMEOUT_S = 60.0
# Jobs a sanitizer child serves before it is replaced: bounds its log, its print limit
# (sanitizer.tool_options) and whatever the tool accumulates. Starting one costs 0.5-1.4 s. The
# default of the GPU backend's sanitizer_jobs option.
SANITIZER_JOBS = 100
# How long a job's fence may take to appear in the log after the child answered (it is
# normally there already). Past it, the child is finished and its whole log read instead.
FENCE_WAIT_S = 3.0
POLL_S = 0.002
STDERR_CAP = 4096


class ChildStartError(Exception):
    """A child did not come up (no GPU, no PyCUDA, driver error). The platform's fault."""


def spawn(workdir: Path, args: list[str], tool: Tool | None, *, fake: bool, compiler: bool, jobs: int, box,
          stdin, stderr, settings: ChildSettings = DEFAULT_SETTINGS) -> subprocess.Popen:
    """Start `python -m grader.core.gpu.child ARGS` (paths in ARGS name the work folder as "{box}") in
    `box` (a sandbox.Sandbox, None: the default), under compute-sanitizer's `tool` unless `fake`, in a new
    session (its process group is its pid), with `stdin` and its output to the file `stderr`, running as
    `settings` say (child_settings.py). Raises ChildStartError without compute-sanitizer,
    SandboxUnavailableError without a sandbox."""
    args = [*args, "--sanitizer", str(tool)] if tool is not None else list(args)
    if compiler:
        args.append("--compiler")
    elif fake:
        args.append("--fake")
        if tool is not None:
            args += ["--fake-log", "{box}/sanitizer.log"]
    else:
        args += settings.child_args(str(tool) if tool is not None else None)
    prefix = None
    if tool is not None and not fake:
        sanitizer = compute_sanitizer()
        if sanitizer is None:
            raise ChildStartError("compute-sanitizer is not installed on this worker")
        prefix = [sanitizer, *tool_options(tool, "{box}/sanitizer.log", jobs, settings.memcheck_on_error)]
    launch = child_launch(workdir, args, prefix, gpu=not compiler, box=box)
    try:
        return subprocess.Popen(
            launch.argv, stdin=stdin, stdout=stderr, stderr=stderr,
            cwd=launch.cwd, env=launch.env, start_new_session=True, pass_fds=launch.pass_fds,
            user=launch.user, group=launch.group, extra_groups=[] if launch.user is not None else None,
        )
    finally:
        for fd in launch.pass_fds:
            os.close(fd)


class ToolLog:
    """What a warm child's user reads in its work folder: the sanitizer's log, cut job by job at the
    fences (the child's tool, `workdir`, and the cut's position: `log_offset` bytes holding
    `log_records` records, the previous fence's nonce `last_fence`), and the child's output."""

    tool: Tool | None
    workdir: Path
    log_offset = 0  # bytes of the sanitizer's log already cut into jobs' reports
    log_records = 0  # records in those bytes: compute-sanitizer prints at most print_limit
    print_limit = 0
    last_fence = ""  # the nonce of the previous job's fence (its tail may follow the cut)

    def print_budget(self) -> int:
        """Records compute-sanitizer will still print for this child (its print limit counts every record
        of the process's life: earlier jobs' findings and fences use it up)."""
        return self.print_limit - self.log_records

    def has_room_for_a_job(self) -> bool:
        """Whether a job's report (at least MIN_REPORT_RECORDS records) and its fence still fit in the
        print budget. A child without room must not take a job: records past the limit are never
        printed, so a racy kernel after a few earlier racy ones would have its hazards silently
        dropped (found on the H200: tiled-matmul's missing barrier ACCEPTED after the bank's other
        race sources, the racecheck child's budget down to 2 records and then -1)."""
        return self.tool is None or self.print_budget() >= MIN_REPORT_RECORDS + FENCE_RECORDS[self.tool]

    def _log_bytes(self) -> bytes:
        """The sanitizer's log from the last cut on (b"" before the tool created it)."""
        try:
            with open(self.workdir / "sanitizer.log", "rb") as f:
                f.seek(self.log_offset)
                return f.read()
        except OSError:
            return b""

    def job_log(self, nonce: str, wait_s: float = FENCE_WAIT_S) -> str | None:
        """This job's part of the sanitizer's log: the records before fence `nonce`, without the
        rest of the previous job's fence. Waits up to `wait_s` for the fence; None if it did not
        come, or cannot come because the job used up the tool's print limit (the caller then
        finishes the child and reads `rest_of_log`)."""
        deadline = time.monotonic() + wait_s
        while True:
            data = self._log_bytes()
            # Cut at a line end: a multi-byte character is never split.
            # surrogateescape: the characters map back to exactly the bytes they came from.
            text = data[:data.rfind(b"\n") + 1].decode("utf-8", "surrogateescape")
            cut = cut_job(self.tool, text, nonce)
            if cut is not None:
                report, consumed = cut
                self.log_offset += len(text[:consumed].encode("utf-8", "surrogateescape"))
                self.log_records += count_records(text[:consumed])
                previous, self.last_fence = self.last_fence, nonce
                report = report.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
                return drop_fences(self.tool, report, (previous,))
            if (time.monotonic() >= deadline or not self.alive()
                    or self.log_records + count_records(text) >= self.print_limit):
                return None
            time.sleep(POLL_S)

    def rest_of_log(self) -> str:
        """Everything the tool wrote after the last cut (once the child has exited: all of it)."""
        text = self._log_bytes().decode("utf-8", "replace")
        return drop_fences(self.tool, text, (self.last_fence,)) if self.tool is not None else text

    def stderr_tail(self) -> str:
        """The end of the child's output (the kernel's printf is the student's text: escaped, one line)."""
        try:  # the child writes it; this process never does, so there is nothing to flush
            data = (self.workdir / "stderr.txt").read_bytes()
        except OSError:
            return ""
        # The child's output carries the kernel's printf (the student's text): escaped, it stays one line.
        return escape_untrusted(data[-STDERR_CAP:].decode("utf-8", "replace").strip())


class Child(ToolLog):
    """One child process and its channels. Not thread-safe; one job at a time."""

    def __init__(self, tool: Tool | None = None, *, fake: bool = False, compiler: bool = False,
                 jobs: int = SANITIZER_JOBS, box=None, start_timeout_s: float = START_TIMEOUT_S,
                 settings: ChildSettings = DEFAULT_SETTINGS):
        """`box`: the worker's sandbox.Sandbox (None: sandbox.box.DEFAULT); `start_timeout_s`: how long
        wait_ready waits for the child's hello by default; `settings`: how it runs (child_settings.py)."""
        self.tool = tool
        self.start_timeout_s = start_timeout_s
        self.compiler = compiler
        kind = "compiler" if compiler else (tool or "main")
        self.workdir = Path(tempfile.mkdtemp(prefix=f"warpdrill-gpu-{kind}-"))
        fifo = self.workdir / "result.fifo"
        os.mkfifo(fifo, 0o600)
        # Opened before the child exists: a FIFO that has never had a writer reads as "no data
        # yet", not as end-of-file, on Linux; once the child exits, reads see end-of-file.
        self.result_fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        self._stderr = open(self.workdir / "stderr.txt", "w+b")
        try:
            self.proc = spawn(self.workdir, ["--result-path", "{box}/result.fifo"], tool, fake=fake,
                              compiler=compiler, jobs=jobs, box=box, stdin=subprocess.PIPE, stderr=self._stderr,
                              settings=settings)
        except BaseException:
            self._stderr.close()
            os.close(self.result_fd)
            shutil.rmtree(self.workdir, ignore_errors=True)
            raise
        os.set_blocking(self.proc.stdin.fileno(), False)
        self.started_at = time.monotonic()
        self.info: dict | None = None  # the child's "ready" message once received
        self.jobs = 0
        # True from sending a job until its answer is read. A job interrupted in between (a
        # Celery soft time limit, say) leaves an answer in the pipe that belongs to no one: such
        # a child is replaced, never asked again.
        self.busy = False
        self.print_limit = print_limit(tool, jobs) if tool is not None else 0

    # ---- lifecycle ----

    def wait_ready(self, timeout_s: float | None = None) -> dict:
        """The child's hello (device name, compute capability), waited for up to `timeout_s` seconds
        (default: the child's start_timeout_s). Raises ChildStartError."""
        if self.info is not None:
            return self.info
        if timeout_s is None:
            timeout_s = self.start_timeout_s
        try:
            header, _ = protocol.read_frame_by(self.result_fd, time.monotonic() + timeout_s, self.alive)
        except (protocol.ProtocolError, EOFError, OSError) as exc:
            raise ChildStartError(f"the GPU child did not start ({exc}): {self.stderr_tail()}") from None
        if header.get("op") != "ready" or not header.get("ok"):
            raise ChildStartError(f"the GPU child could not create a CUDA context: {header.get('message', header)}")
        self.info = header
        return header

    def alive(self) -> bool:
        return self.proc.poll() is None

    def wait_exit(self, timeout_s: float) -> bool:
        try:
            self.proc.wait(timeout=timeout_s)
            return True
        except subprocess.TimeoutExpired:
            return False

    def finish(self, timeout_s: float) -> bool:
        """Ask the child to end (end of its job stream) and wait up to `timeout_s` for it to exit;
        under compute-sanitizer, the tool has then written all of its log. True if it exited."""
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        return self.wait_exit(timeout_s)

    def kill(self) -> None:
        """SIGKILL the child's whole process group (sanitizer and Python alike); the driver frees its context."""
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            log.error("GPU child %s did not die after SIGKILL", self.proc.pid)
        self._cleanup()

    def _cleanup(self) -> None:
        for closer in (lambda: os.close(self.result_fd), lambda: self.proc.stdin.close(), lambda: self._stderr.close()):
            try:
                closer()
            except (OSError, AttributeError, ValueError):
                pass
        shutil.rmtree(self.workdir, ignore_errors=True)

    # ---- jobs ----

    def request(self, job: dict, arrays: dict[str, np.ndarray], deadline: float) -> tuple[dict, dict[str, np.ndarray]]:
        """Send one job and wait for its result until `deadline` (time.monotonic()).

        Raises protocol.DeadlineError when the result is late (the caller kills the child) and
        EOFError/ProtocolError/BrokenPipeError when the child died or spoke nonsense.
        """
        self.submit(job, arrays, deadline)
        return self.answer(deadline)

    def submit(self, job: dict, arrays: dict[str, np.ndarray], deadline: float) -> None:
        """The first half of request(): number the job and send it. Raises as request() does."""
        self.jobs += 1
        self.busy = True
        protocol.write_frame_by(self.proc.stdin.fileno(), dict(job, job=self.jobs), arrays, deadline, self.alive)

    def answer(self, deadline: float) -> tuple[dict, dict[str, np.ndarray]]:
        """The second half of request(): the answer to the job submitted last. Raises as request() does."""
        header, outputs = protocol.read_frame_by(self.result_fd, deadline, self.alive)
        if header.get("job") != self.jobs:
            raise protocol.ProtocolError(f"answer to job {header.get('job')} received for job {self.jobs}")
        self.busy = False
        return header, outputs

class ChildPool:
    """Warm children of one worker: a main child for runs, a compiler child, one child per sanitizer tool."""

    def __init__(self, factory: Callable[[Tool | None], Child] | None = None,
                 compiler_factory: Callable[[], Child] | None = None, sanitizer_jobs: int = SANITIZER_JOBS,
                 *, sandbox=None, start_timeout_s: float = START_TIMEOUT_S, shared=None,
                 settings: ChildSettings = DEFAULT_SETTINGS):
        """`factory(tool)` and `compiler_factory()` start children (default: Child in `sandbox`, a
        sandbox.Sandbox or None for the default, each waited for up to `start_timeout_s` seconds, running
        as `settings` say);
        a sanitizer child serves `sanitizer_jobs` jobs before it is replaced. `shared`: a
        shared.SharedChildren whose slots' children serve every pool process of the worker (None:
        every child is this process's own)."""
        self.sanitizer_jobs = max(1, sanitizer_jobs)
        # By default a sanitizer child's print limit is sized for the jobs it will serve here.
        self._factory = factory or (lambda tool: Child(tool, jobs=self.sanitizer_jobs, box=sandbox,
                                                       start_timeout_s=start_timeout_s, settings=settings))
        self._compiler_factory = compiler_factory or (lambda: Child(compiler=True, box=sandbox,
                                                                    start_timeout_s=start_timeout_s))
        self.children: dict[str, Child] = {}  # by slot: "main", "compiler", or a tool's name
        self.shared = shared

    def _shares(self, slot: str) -> bool:
        return self.shared is not None and self.shared.shares(slot)

    def holding(self, slots):
        """A context that holds the locks of those of `slots` that are shared around one job (see
        shared.SharedChildren.holding; raises ChildStartError when a lock is not had in time); for
        children of this process's own, nothing."""
        return self.shared.holding(slots) if self.shared is not None else contextlib.nullcontext()

    @property
    def main(self) -> Child | None:
        return self.shared.current("main") if self._shares("main") else self.children.get("main")

    @property
    def compiler(self) -> Child | None:
        return self.children.get("compiler")

    def main_child(self) -> Child:
        """The warm main child, started now if there is none (it may still be starting)."""
        return self._warm("main", lambda: self._factory(None))

    def retire_main(self, restart: bool = True) -> None:
        """Kill the main child (hung, broken or used by another submission) and start its successor."""
        self._retire("main", self.main_child if restart else None)

    def compiler_child(self) -> Child:
        """The warm NVRTC compiler child, started now if there is none (it may still be starting)."""
        return self._warm("compiler", self._compiler_factory)

    def retire_compiler(self, restart: bool = True) -> None:
        """Kill the compiler child (a compile past its limit, or a crash) and start its successor."""
        self._retire("compiler", self.compiler_child if restart else None)

    def sanitizer_child(self, tool: Tool) -> Child:
        """The warm child under `tool`, started now if there is none (it may still be starting).
        One that has served `sanitizer_jobs` jobs, or whose print budget has no room for a job's report
        (Child.has_room_for_a_job), is replaced first."""
        child = self._warm(str(tool), lambda: self._factory(tool))
        if child.jobs >= self.sanitizer_jobs or not child.has_room_for_a_job():
            self._retire(str(tool), None)
            child = self._warm(str(tool), lambda: self._factory(tool))
        return child

    def retire_sanitizer(self, tool: Tool, restart: bool = True) -> None:
        """Kill the child under `tool` (its log could not be cut, it hung or broke) and start its successor."""
        self._retire(str(tool), (lambda: self.sanitizer_child(tool)) if restart else None)

    def _warm(self, slot: str, factory: Callable[[], Child]) -> Child:
        """The child in `slot`; a busy or dead one is replaced by factory() (a shared slot's by shared)."""
        if self._shares(slot):
            return self.shared.child(slot)
        child = self.children.get(slot)
        if child is not None and (child.busy or not child.alive()):
            child.kill()
            child = None
            _count_restart(slot)
        if child is None:
            child = factory()
            self.children[slot] = child
        return child

    def _retire(self, slot: str, start: Callable[[], Child] | None) -> None:
        child = self.children.pop(slot, None)
        if self._shares(slot):
            self.shared.retire(slot)
        elif child is not None:
            child.kill()
            _count_restart(slot)
        if start is not None:
            start()

    def close(self) -> None:
        for child in self.children.values():
            child.kill()
        self.children = {}
        if self.shared is not None:
            self.shared.close()


# Called as listener("gpu", slot) when a warm child is killed and replaced; the shell adds one
# (ops/apps.py: the /metrics counter), so this core module imports nothing of the site.
RESTART_LISTENERS: list[Callable[[str, str], None]] = []


def _count_restart(slot: str) -> None:
    """Report a warm child killed and replaced: observe's "child_restart" (counted for /metrics)."""
    from .. import observe

    observe.emit("child_restart", kind="gpu", slot=slot)
