"""Warm GPU children shared by every pool process of one worker: a handful of CUDA contexts per GPU.

Without this, each pool process of a GPU worker holds its own main child and one child per
sanitizer tool, each a CUDA context, and the GPU time-slices between them: at 8 pool processes,
32 contexts, and the round trip of a 0.3-2.9 ms kernel took 460 ms at the median
(docs/gpu-validation.md). With the backend's shared_children option, the children of some slots
("memcheck", "racecheck", "synccheck", and "main" too with "all") are a few per worker
(`instances` of each slot, the shared_instances option; a job takes whichever is free), in a run
folder of the worker's (`run_dir`):

- A child of a shared slot is owned by whichever pool process starts it (it is that process's
  subprocess, in the same bubblewrap box as any child: pool.spawn) and listens on a unix socket
  in its own work folder (child.py --listen). Any pool process reaches it by connecting there.
- `<slot>.<i>.lock` is an flock held around each job (a run, a check), so a child serves one job at a
  time and a job's deadline starts once the lock is held: the wait for another student's job is
  never counted against this one's limit. `<slot>.<i>.json` is the child's state, read and written
  under the lock: its pid and start time, jobs served, whether a job is in flight (`busy`), and
  where its sanitizer log was last cut (pool.ToolLog), so the next user cuts on from there.
- The next user restarts a child that died, faulted (a sticky error ends it after its answer) or
  was left busy by an interrupted job; a user whose job outlives its deadline kills the child.
  A job that loses its child midway is retried as a platform fault, never graded: a fault in one
  student's kernel costs another student at most a restart's wait.
- A child dies with its owner (bubblewrap's --die-with-parent); the next user starts another.

Lock order, so that no two pool processes wait on each other: "main" before the tools, the tools
by name (holding() takes them sorted), one instance of each.
"""
from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

from . import protocol
from .child_settings import DEFAULT as DEFAULT_SETTINGS, ChildSettings
from .pool import POLL_S, SANITIZER_JOBS, START_TIMEOUT_S, ChildStartError, ToolLog, _count_restart, spawn
from .sanitizer import Tool, print_limit

# How long a pool process waits for a shared child's lock (other pool processes' jobs, each bounded
# by its own deadline) before its job is given up as a platform fault and retried.
LOCK_WAIT_S = 120.0
LOCK_POLL_S = 0.0005
KILL_WAIT_S = 10.0
SOCKET_NAME = "child.sock"
MAX_SOCKET_PATH = 107  # sun_path holds 108 bytes with the final NUL
SLOTS_OF_MODE = {"off": frozenset(), "sanitizers": frozenset({"memcheck", "racecheck", "synccheck"}),
                 "all": frozenset({"main", "memcheck", "racecheck", "synccheck"})}


def slots_of(mode: str) -> frozenset[str]:
    """The shared slots of the shared_children option: "off", "sanitizers" or "all". Raises ValueError."""
    if mode not in SLOTS_OF_MODE:
        raise ValueError(f"the GPU backend's shared_children must be off, sanitizers or all, not {mode!r}")
    return SLOTS_OF_MODE[mode]


def default_shared_dir() -> Path:
    """The run folder of this worker's shared children: one per prefork parent (a Celery worker's pool
    processes are its children; a worker grades on one GPU), in the temporary folder."""
    return Path(tempfile.gettempdir()) / f"warpdrill-gpu-{os.geteuid()}-{os.getppid()}"


def _start_time(pid: int) -> int | None:
    """The process's start time (clock ticks since boot, /proc/PID/stat field 22), or None when it
    is gone or a zombie (an exited child its owner has not reaped yet)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rfind(")") + 2:].split()
    return None if fields[0] in ("Z", "X") else int(fields[19])


class SocketChild(ToolLog):
    """A shared slot's child, as one pool process sees it while holding the slot's lock: the same
    job interface as pool.Child (wait_ready, submit, answer, request, job_log, finish, kill), each job
    on a connection of its own to the child's socket. `state` is its <slot>.json; `proc` the Popen
    when this process started it."""

    FIELDS = ("tool", "workdir", "pid", "start", "jobs", "busy", "log_offset", "log_records", "last_fence",
              "print_limit", "info")

    def __init__(self, state: dict, proc: subprocess.Popen | None, start_timeout_s: float):
        for name in self.FIELDS:
            setattr(self, name, state.get(name))
        self.tool = Tool(self.tool) if self.tool else None
        self.workdir = Path(self.workdir)
        self.proc = proc
        self.start_timeout_s = start_timeout_s
        self.conn: socket.socket | None = None
        self.held = False  # True while this process holds the slot's lock (SharedChildren.holding)

    def state(self) -> dict:
        """The fields written back to <slot>.json."""
        fields = {name: getattr(self, name) for name in self.FIELDS}
        fields.update(tool=str(self.tool) if self.tool else None, workdir=str(self.workdir))
        return fields

    def alive(self) -> bool:
        if self.proc is not None:
            return self.proc.poll() is None
        started = _start_time(self.pid)
        return started is not None and started == self.start

    def wait_ready(self, timeout_s: float | None = None) -> dict:
        """Connect and read the child's hello, waiting up to `timeout_s` (default start_timeout_s) for a
        child still creating its context. Raises ChildStartError. Outside the slot's lock the
        connection is closed again at once: the child serves one connection at a time."""
        if self.conn is None:
            self._connect(time.monotonic() + (self.start_timeout_s if timeout_s is None else timeout_s))
        if not self.held:
            self.disconnect()
        return self.info

    def _connect(self, deadline: float) -> None:
        path = str(self.workdir / SOCKET_NAME)
        while True:
            conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                conn.connect(path)
                break
            except (FileNotFoundError, ConnectionRefusedError):  # not listening yet, or no more
                conn.close()
                if not self.alive() or time.monotonic() >= deadline:
                    raise ChildStartError(f"the shared GPU child did not start: {self.stderr_tail()}") from None
                time.sleep(POLL_S)
        conn.setblocking(False)
        try:
            header, _ = protocol.read_frame_by(conn.fileno(), deadline, self.alive)
        except (protocol.ProtocolError, EOFError, OSError) as exc:
            conn.close()
            raise ChildStartError(f"the shared GPU child did not start ({exc}): {self.stderr_tail()}") from None
        if header.get("op") != "ready" or not header.get("ok"):
            conn.close()
            raise ChildStartError(f"the GPU child could not create a CUDA context: {header.get('message', header)}")
        self.conn, self.info = conn, header

    def disconnect(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def request(self, job: dict, arrays: dict[str, np.ndarray], deadline: float) -> tuple[dict, dict[str, np.ndarray]]:
        """Send one job and wait for its result until `deadline`; raises as pool.Child.request does."""
        self.submit(job, arrays, deadline)
        return self.answer(deadline)

    def submit(self, job: dict, arrays: dict[str, np.ndarray], deadline: float) -> None:
        """Connect (see wait_ready), number the job and send it. Raises ChildStartError, and as
        pool.Child.submit does."""
        if self.conn is None:
            self._connect(time.monotonic() + self.start_timeout_s)
        self.jobs += 1
        self.busy = True
        protocol.write_frame_by(self.conn.fileno(), dict(job, job=self.jobs), arrays, deadline, self.alive)

    def answer(self, deadline: float) -> tuple[dict, dict[str, np.ndarray]]:
        """The answer to the job submitted last; the connection is closed after it."""
        if self.conn is None:
            raise EOFError("no job in flight on this connection")
        header, outputs = protocol.read_frame_by(self.conn.fileno(), deadline, self.alive)
        if header.get("job") != self.jobs:
            raise protocol.ProtocolError(f"answer to job {header.get('job')} received for job {self.jobs}")
        self.busy = False
        self.disconnect()
        return header, outputs

    def finish(self, timeout_s: float) -> bool:
        """Ask the child to end (a "finish" frame: it closes its context, the tool ends its log) and
        wait up to `timeout_s` for it to exit. True if it exited."""
        deadline = time.monotonic() + timeout_s
        with contextlib.suppress(ChildStartError, protocol.ProtocolError, OSError):
            if self.conn is None:
                self._connect(deadline)
            protocol.write_frame_by(self.conn.fileno(), {"op": "finish"}, None, deadline, self.alive)
        self.disconnect()
        while self.alive() and time.monotonic() < deadline:
            time.sleep(POLL_S)
        return not self.alive()

    def kill(self) -> None:
        """SIGKILL the child's box (its process group: the box ends with it) and remove its folder."""
        self.disconnect()
        if self.alive():
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, signal.SIGKILL)
        deadline = time.monotonic() + KILL_WAIT_S
        if self.proc is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=KILL_WAIT_S)
        while self.alive() and time.monotonic() < deadline:
            time.sleep(POLL_S)
        shutil.rmtree(self.workdir, ignore_errors=True)


class SharedChildren:
    """The shared slots of one worker's GPU children, in `run_dir` (see the module docstring)."""

    def __init__(self, run_dir: str | Path, slots: frozenset[str] | set[str], *, fake: bool = False,
                 jobs: int = SANITIZER_JOBS, box=None, start_timeout_s: float = START_TIMEOUT_S,
                 lock_wait_s: float = LOCK_WAIT_S, instances: int = 1, settings: ChildSettings = DEFAULT_SETTINGS):
        """`slots`: which slots are shared ("main", tool names), `instances` children each (a job takes
        whichever is free); `fake`: fake children (tests); `jobs`:
        what a sanitizer child serves before it is replaced (sizes its print limit); `box`: the
        worker's sandbox.Sandbox; `settings`: how the children run (child_settings.py). Creates `run_dir` (mode 0700). Raises ValueError when its path is too
        long for the children's sockets, PermissionError when it is not this user's own folder."""
        self.run_dir = Path(run_dir)
        if len(str(self.run_dir)) + len("/synccheck.99-xxxxxxxx/" + SOCKET_NAME) > MAX_SOCKET_PATH:
            raise ValueError(f"{self.run_dir} is too long a path for the shared GPU children's sockets")
        with contextlib.suppress(FileExistsError):
            os.mkdir(self.run_dir, 0o700)
        st = os.lstat(self.run_dir)
        if not os.path.isdir(self.run_dir) or os.path.islink(self.run_dir) or st.st_uid != os.geteuid():
            raise PermissionError(f"{self.run_dir} is not a folder of this worker's user")
        self.slots = frozenset(slots)
        self.instances = max(1, int(instances))
        self.fake, self.jobs, self.box, self.settings = fake, jobs, box, settings
        self.start_timeout_s, self.lock_wait_s = start_timeout_s, lock_wait_s
        self._held: dict[str, tuple[str, int]] = {}  # slot -> (its instance held, the lock's descriptor)
        self._children: dict[str, SocketChild | None] = {}  # slot -> its child as last seen here
        self._owned: dict[int, subprocess.Popen] = {}  # pid -> the children this process started

    def shares(self, slot: str) -> bool:
        return slot in self.slots

    def current(self, slot: str) -> SocketChild | None:
        """The slot's child as this process last saw it (its state may have changed since)."""
        return self._children.get(slot)

    @contextlib.contextmanager
    def holding(self, slots):
        """Hold the locks of `slots` (those shared and not held yet, sorted) for one job; the slots'
        states are read on taking them and written back on leaving. Raises ChildStartError when a
        lock is not had within lock_wait_s."""
        taken = []
        try:
            for slot in sorted(s for s in set(slots) if s in self.slots and s not in self._held):
                self._held[slot] = self._lock(slot)
                taken.append(slot)
                self._children[slot] = child = self._load(self._held[slot][0])
                if child is not None:
                    child.held = True
            yield
        finally:
            for slot in reversed(taken):
                child = self._children.get(slot)
                try:
                    if child is not None:
                        child.disconnect()
                        child.held = False
                    self._save(self._held[slot][0], child)
                finally:
                    os.close(self._held.pop(slot)[1])  # closing the descriptor releases the flock
            self._reap()

    def child(self, slot: str) -> SocketChild:
        """The slot's warm child (it may still be starting): the one of its state unless it died or
        was left busy (then killed), else a new one started by this process."""
        with self.holding((slot,)):
            child = self._children.get(slot)
            if child is not None and (child.busy or not child.alive()):
                child.kill()
                child = self._children[slot] = None
                _count_restart(slot)
            if child is None:
                child = self._children[slot] = self._start(slot)
            return child

    def retire(self, slot: str) -> None:
        """Kill the slot's child (hung, broken, used up); the next child() starts another."""
        with self.holding((slot,)):
            child = self._children.get(slot)
            if child is not None:
                child.kill()
                self._children[slot] = None
                _count_restart(slot)

    def close(self) -> None:
        """Kill the children this process started (worker shutdown, tests)."""
        for pid, proc in list(self._owned.items()):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=KILL_WAIT_S)
        self._owned.clear()

    # ---- the run folder ----

    def _lock(self, slot: str) -> tuple[str, int]:
        """(instance, descriptor) of the first of the slot's instances whose lock is free, waited for
        up to lock_wait_s (each pool process tries them from its own first one, to spread them)."""
        names = [f"{slot}.{i}" for i in range(self.instances)]
        first = os.getpid() % self.instances
        names = names[first:] + names[:first]
        deadline = time.monotonic() + self.lock_wait_s
        while True:
            for name in names:
                fd = os.open(self.run_dir / f"{name}.lock", os.O_RDWR | os.O_CREAT, 0o600)
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    return name, fd
                except OSError as exc:
                    os.close(fd)
                    if exc.errno not in (errno.EAGAIN, errno.EWOULDBLOCK):
                        raise
            if time.monotonic() >= deadline:
                raise ChildStartError(f"the shared GPU children {slot} were busy for {self.lock_wait_s:g} s")
            time.sleep(LOCK_POLL_S)

    def _load(self, name: str) -> SocketChild | None:
        try:
            state = json.loads((self.run_dir / f"{name}.json").read_text())
        except (OSError, ValueError):
            return None
        return SocketChild(state, self._owned.get(state.get("pid")), self.start_timeout_s)

    def _save(self, name: str, child: SocketChild | None) -> None:
        path = self.run_dir / f"{name}.json"
        if child is None:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
            return
        fd, tmp = tempfile.mkstemp(dir=self.run_dir, prefix=f".{name}-")
        with os.fdopen(fd, "w") as f:
            json.dump(child.state(), f)
        os.replace(tmp, path)

    def _start(self, slot: str) -> SocketChild:
        tool = None if slot == "main" else Tool(slot)
        workdir = Path(tempfile.mkdtemp(prefix=f"{self._held[slot][0]}-", dir=self.run_dir))
        with open(workdir / "stderr.txt", "w+b") as stderr:
            try:
                proc = spawn(workdir, ["--listen", "{box}/" + SOCKET_NAME], tool, fake=self.fake, compiler=False,
                             jobs=self.jobs, box=self.box, stdin=subprocess.DEVNULL, stderr=stderr,
                             settings=self.settings)
            except BaseException:
                shutil.rmtree(workdir, ignore_errors=True)
                raise
        self._owned[proc.pid] = proc
        state = {"tool": str(tool) if tool else None, "workdir": str(workdir), "pid": proc.pid,
                 "start": _start_time(proc.pid), "jobs": 0, "busy": False, "log_offset": 0, "log_records": 0,
                 "last_fence": "", "print_limit": print_limit(tool, self.jobs) if tool else 0, "info": None}
        child = SocketChild(state, proc, self.start_timeout_s)
        child.held = True  # started under the slot's lock
        return child

    def _reap(self) -> None:
        """Wait for the children of this process that have exited (killed by another pool process)."""
        for pid, proc in list(self._owned.items()):
            if proc.poll() is not None:
                del self._owned[pid]
