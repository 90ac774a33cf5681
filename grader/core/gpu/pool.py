"""The judge's side of the GPU children: start them, talk to them with deadlines, kill them.

A `Child` is one process (grader.core.gpu.child, possibly under compute-sanitizer) with a pipe
for jobs (its stdin) and a FIFO for results. A `ChildPool` keeps one warm "main" child per
worker (context already created, so a run costs a job round trip, not a process start), one
warm compiler child (NVRTC loaded, no context: nvrtc.py) and warm one-shot children per
sanitizer tool once checks have been asked for; a used, hung or broken
child is killed and a fresh one started at once, so that the next submission finds one ready.
Children are started with `subprocess` (fork+exec), never forked from a process that holds a
CUDA context; this process never touches CUDA at all.
"""
from __future__ import annotations

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

from . import protocol
from .isolation import child_launch, compute_sanitizer
from .sanitizer import Tool, tool_options

log = logging.getLogger(__name__)

START_TIMEOUT_S = float(os.environ.get("WARPDRILL_GPU_START_TIMEOUT", "60"))
# Warm one-shot children kept per sanitizer tool. A child under compute-sanitizer takes longer
# to start than a submission takes to compile and run, so with back-to-back submissions one
# spare is often still starting when it is needed; two are not.
SANITIZER_SPARES = int(os.environ.get("WARPDRILL_GPU_SANITIZER_SPARES", "2"))
STDERR_CAP = 4096


class ChildStartError(Exception):
    """A child did not come up (no GPU, no PyCUDA, driver error). The platform's fault."""


class Child:
    """One child process and its channels. Not thread-safe; one job at a time."""

    def __init__(self, tool: Tool | None = None, *, fake: bool = False, compiler: bool = False):
        self.tool = tool
        self.compiler = compiler
        kind = "compiler" if compiler else (tool or "main")
        self.workdir = Path(tempfile.mkdtemp(prefix=f"warpdrill-gpu-{kind}-"))
        fifo = self.workdir / "result.fifo"
        os.mkfifo(fifo, 0o600)
        # Opened before the child exists: a FIFO that has never had a writer reads as "no data
        # yet", not as end-of-file, on Linux; once the child exits, reads see end-of-file.
        self.result_fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        args = ["--result-path", "{box}/result.fifo"]
        if tool is not None:
            args.append("--once")
        if compiler:
            args.append("--compiler")
        elif fake:
            args.append("--fake")
        prefix = None
        if tool is not None:
            sanitizer = compute_sanitizer()
            if sanitizer is None:
                self._cleanup()
                raise ChildStartError("compute-sanitizer is not installed on this worker")
            prefix = [sanitizer, *tool_options(tool, "{box}/sanitizer.log")]
        self._stderr = open(self.workdir / "stderr.txt", "w+b")
        try:
            launch = child_launch(self.workdir, args, prefix, gpu=not compiler)
            try:
                self.proc = subprocess.Popen(
                    launch.argv, stdin=subprocess.PIPE, stdout=self._stderr, stderr=self._stderr,
                    cwd=launch.cwd, env=launch.env, start_new_session=True, pass_fds=launch.pass_fds,
                    user=launch.user, group=launch.group, extra_groups=[] if launch.user is not None else None,
                )
            finally:
                for fd in launch.pass_fds:
                    os.close(fd)
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

    # ---- lifecycle ----

    def wait_ready(self, timeout_s: float = START_TIMEOUT_S) -> dict:
        """The child's hello (device name, compute capability). Raises ChildStartError."""
        if self.info is not None:
            return self.info
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
        self.jobs += 1
        job = dict(job, job=self.jobs)
        self.busy = True
        self.send(job, arrays, deadline)
        header, outputs = self.receive(deadline)
        if header.get("job") != self.jobs:
            raise protocol.ProtocolError(f"answer to job {header.get('job')} received for job {self.jobs}")
        self.busy = False
        return header, outputs

    def send(self, job: dict, arrays: dict[str, np.ndarray], deadline: float) -> None:
        protocol.write_frame_by(self.proc.stdin.fileno(), job, arrays, deadline, self.alive)

    def receive(self, deadline: float) -> tuple[dict, dict[str, np.ndarray]]:
        return protocol.read_frame_by(self.result_fd, deadline, self.alive)

    def sanitizer_log(self) -> str:
        try:
            return (self.workdir / "sanitizer.log").read_text(errors="replace")
        except OSError:
            return ""

    def stderr_tail(self) -> str:
        try:
            self._stderr.flush()
            data = (self.workdir / "stderr.txt").read_bytes()
        except (OSError, ValueError):
            return ""
        return data[-STDERR_CAP:].decode("utf-8", "replace").strip()


class ChildPool:
    """Warm children of one worker: a main child for runs and spares for each sanitizer tool."""

    def __init__(self, factory: Callable[[Tool | None], Child] = Child, spares_per_tool: int = SANITIZER_SPARES,
                 compiler_factory: Callable[[], Child] | None = None):
        self._factory = factory
        self._compiler_factory = compiler_factory or (lambda: Child(compiler=True))
        self.spares_per_tool = max(0, spares_per_tool)
        self.main: Child | None = None
        self.compiler: Child | None = None
        self.spares: dict[Tool, list[Child]] = {}

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

    def _warm(self, slot: str, factory: Callable[[], Child]) -> Child:
        """The child in `slot` ("main" or "compiler"); a busy or dead one is replaced by factory()."""
        child = getattr(self, slot)
        if child is not None and (child.busy or not child.alive()):
            child.kill()
            child = None
        if child is None:
            child = factory()
            setattr(self, slot, child)
        return child

    def _retire(self, slot: str, start: Callable[[], Child] | None) -> None:
        child = getattr(self, slot)
        if child is not None:
            child.kill()
            setattr(self, slot, None)
        if start is not None:
            start()

    def take_sanitizer(self, tool: Tool) -> Child:
        """A warm one-shot child under `tool` (the caller kills it when done); successors start now."""
        spares = self.spares.setdefault(tool, [])
        child = None
        while spares and child is None:
            candidate = spares.pop(0)  # the oldest: the most likely to be ready
            if candidate.alive():
                child = candidate
            else:
                candidate.kill()
        if child is None:
            child = self._factory(tool)
        while len(spares) < self.spares_per_tool:
            try:
                spares.append(self._factory(tool))
            except ChildStartError as exc:
                log.warning("no spare %s child: %s", tool, exc)
                break
        return child

    def close(self) -> None:
        for child in [self.main, self.compiler, *(c for spares in self.spares.values() for c in spares)]:
            if child is not None:
                child.kill()
        self.main = None
        self.compiler = None
        self.spares = {}
