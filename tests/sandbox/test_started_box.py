"""Sandbox.start: a box that runs while the caller works, watched to its end by finish() or killed by
abandon() (the judge's ptxas report starts nvcc this way before the compile and reads it at the end)."""
from __future__ import annotations

import threading
import time

import pytest

from grader.core import sandbox
from tests.hostile.watch import descendants

pytestmark = pytest.mark.skipif(not sandbox.box.DEFAULT.works(), reason=f"no sandbox here: {sandbox.box.DEFAULT.probe()}")


def _start(tmp_path, script: str, time_s: float = 10.0) -> sandbox.box.Running:
    work = tmp_path / "work"
    work.mkdir()
    return sandbox.box.DEFAULT.start(["/bin/sh", "-c", script], work, sandbox.Limits(time_s))


def test_start_returns_while_the_box_runs_and_finish_gives_its_result(tmp_path):
    """start() comes back before the command ends; finish() waits for it and returns its output, exit
    status and wall time counted from the start; no thread is made for it."""
    threads = threading.active_count()
    began = time.monotonic()
    running = _start(tmp_path, "sleep 0.6; echo done; echo oops >&2; exit 3")
    assert time.monotonic() - began < 0.5 and running.proc.poll() is None
    assert threading.active_count() == threads
    result = running.finish()
    assert (result.returncode, result.stdout, result.stderr) == (3, "done\n", "oops\n")
    assert result.sandboxed and not result.timed_out and result.time_s >= 0.6


def test_a_box_that_ended_long_before_finish_is_not_timed_out(tmp_path):
    """The wall clock is the box's: a command that ended within its limit keeps its output and status
    when finish() is called after the limit has passed."""
    running = _start(tmp_path, "echo early", time_s=0.5)
    time.sleep(1.0)
    result = running.finish()
    assert (result.returncode, result.stdout, result.timed_out) == (0, "early\n", False)


def test_the_wall_clock_runs_from_the_start(tmp_path):
    """A box still running past its limit is killed as timed out, its limit counted from start()."""
    running = _start(tmp_path, "sleep 30", time_s=2.0)
    time.sleep(1.5)
    began = time.monotonic()
    result = running.finish()
    assert result.timed_out and time.monotonic() - began < 1.5  # counted from finish(): 2 s or more


def test_abandon_kills_the_box_and_its_processes(tmp_path):
    """abandon() takes bubblewrap and every process of the box with it."""
    running = _start(tmp_path, "sleep 30 & sleep 30; wait")
    deadline = time.monotonic() + 5
    while len(descendants(running.proc.pid)) < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    inside = descendants(running.proc.pid)
    assert inside
    running.abandon()
    assert running.proc.poll() is not None
    time.sleep(0.2)
    assert not [pid for pid in inside if _alive(pid)]


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ", 1)[1][0] != "Z"
    except FileNotFoundError:
        return False
