"""Warm children shared by the pool processes of a worker (gpu/shared.py), with the fake child (no GPU):
two processes on one child, a child that dies, a fault, the lock's wait, an interrupted job."""
from __future__ import annotations

import fcntl
import multiprocessing
import os
import shutil
import tempfile
import time

import numpy as np
import pytest

from grader.core.backends.base import RunStatus
from grader.core.backends.gpu import GpuBackend
from grader.core.gpu.pool import Child, ChildPool
from grader.core.gpu.shared import SharedChildren, slots_of
from grader.core.verdicts import DiagnosticKind

from .test_protocol_and_pool import check_request, fake_build, request


@pytest.fixture
def run_dir():
    """A short folder (the children's socket paths must fit in 108 bytes), removed afterwards."""
    path = tempfile.mkdtemp(prefix="wd-shared-")
    yield path
    shutil.rmtree(path, ignore_errors=True)


def shared_backend(run_dir: str, mode: str = "all", instances: int = 1) -> GpuBackend:
    """A backend whose shared slots' fake children (`instances` each) live in `run_dir`, as one pool process's."""
    shared = SharedChildren(run_dir, slots_of(mode), fake=True, start_timeout_s=20, instances=instances)
    return GpuBackend(arch="sm_90", pool=ChildPool(factory=lambda tool: Child(tool, fake=True), shared=shared))


def in_another_process(run_dir: str, entries: list[tuple[str, bool]], limit: float = 1.0) -> list:
    """Run `entries` ((fake kernel entry, as a check?), in turn) in a forked process with a backend of
    its own on `run_dir`, as a second pool process of the same worker would; returns, for each, (status,
    [(diagnostic kind, line)], the pid of the main child's box or None)."""
    ctx = multiprocessing.get_context("fork")
    results = ctx.Queue()

    def work():
        backend = shared_backend(run_dir)
        got = []
        for entry, check in entries:
            out = backend.run(fake_build(entry), check_request(limit=limit) if check else request(limit=limit))
            main = backend.pool.main
            got.append((out.status.value, [(d.kind.value, d.line) for d in out.diagnostics],
                        main.pid if main is not None else None))
        results.put(got)

    process = ctx.Process(target=work)
    process.start()
    got = results.get(timeout=60)
    process.join(30)
    return got


def test_two_pool_processes_share_one_child_and_each_check_gets_its_own_report(child_sandbox, run_dir):
    backend = shared_backend(run_dir)
    try:
        assert backend.run(fake_build("copy"), request()).status is RunStatus.OK
        main_pid = backend.pool.main.pid
        assert backend.run(fake_build("copy"), check_request()).diagnostics == []
        other = in_another_process(run_dir, [("copy", False), ("race", True)])
        assert other[0][0] == "ok" and other[0][2] == main_pid  # the first process's child served the second
        assert other[1][1] == [(DiagnosticKind.RACE.value, 7)]  # its own race, found by the shared racecheck
        after = backend.run(fake_build("copy"), check_request())
        assert after.status is RunStatus.OK and after.diagnostics == []  # not the other process's race
        with backend.pool.holding(("racecheck",)):
            assert backend.pool.sanitizer_child("racecheck").jobs == 3  # one child served all three checks
        assert backend.pool.main.pid == main_pid and backend.pool.children == {}
    finally:
        backend.shutdown()


def test_a_child_whose_owner_died_is_restarted_by_the_next_user(child_sandbox, run_dir):
    first = in_another_process(run_dir, [("copy", False)])  # that process started the child, then ended
    assert first[0][0] == "ok"
    backend = shared_backend(run_dir)
    try:
        out = backend.run(fake_build("copy"), request())
        assert out.status is RunStatus.OK and out.outputs["y"].size == 8
        assert backend.pool.main.pid != first[0][2]
    finally:
        backend.shutdown()


def test_a_child_that_dies_mid_job_is_a_platform_fault_and_the_next_job_gets_a_fresh_one(child_sandbox, run_dir):
    backend = shared_backend(run_dir)
    try:
        backend.run(fake_build("copy"), request())
        old = backend.pool.main.pid
        assert backend.run(fake_build("crash"), request()).status is RunStatus.INTERNAL  # retried, never graded
        crashed = backend.run(fake_build("crash"), check_request(("memcheck", "synccheck")))
        assert crashed.status is RunStatus.INTERNAL
        other = in_another_process(run_dir, [("copy", False), ("copy", True)])
        assert [o[0] for o in other] == ["ok", "ok"] and other[0][2] != old
    finally:
        backend.shutdown()


def test_a_fault_costs_only_its_own_job(child_sandbox, run_dir):
    """One student's illegal address ends the shared child after its answer; the other process's
    jobs run on a fresh one, and a hang under a tool is killed at its own limit."""
    backend = shared_backend(run_dir)
    try:
        backend.run(fake_build("copy"), request())
        old = backend.pool.main.pid
        fault = backend.run(fake_build("sticky"), request())
        assert fault.status is RunStatus.FAULT and "CUDA_ERROR_ILLEGAL_ADDRESS" in fault.message
        hung = backend.run(fake_build("hang"), check_request(limit=0.3))
        assert hung.status is RunStatus.TIMEOUT
        other = in_another_process(run_dir, [("copy", False), ("race", True), ("copy", True)])
        assert [o[0] for o in other] == ["ok", "ok", "ok"] and other[0][2] != old
        assert other[1][1] == [(DiagnosticKind.RACE.value, 7)] and other[2][1] == []
    finally:
        backend.shutdown()


def test_waiting_for_another_job_is_not_counted_against_the_limit(child_sandbox, run_dir):
    """While another pool process holds the child for 1.5 s, a job with a 0.3 s limit waits and then
    runs: its deadline starts once it holds the lock, so it is not a TIMEOUT."""
    backend = shared_backend(run_dir)
    try:
        backend.run(fake_build("copy"), request())
        fd = os.open(os.path.join(run_dir, "main.0.lock"), os.O_RDWR)
        fcntl.flock(fd, fcntl.LOCK_EX)
        ctx = multiprocessing.get_context("fork")
        release = ctx.Process(target=lambda: time.sleep(1.5))
        release.start()
        os.close(fd)  # the fork holds the same open file, so the lock stays until it exits
        started = time.monotonic()
        out = backend.run(fake_build("copy"), request(limit=0.3))
        waited = time.monotonic() - started
        release.join(10)
        assert out.status is RunStatus.OK and waited >= 1.0
    finally:
        backend.shutdown()


def test_with_two_children_per_slot_a_job_takes_the_free_one(child_sandbox, run_dir):
    """While another pool process holds one of two main children, a job runs at once on the other."""
    backend = shared_backend(run_dir, instances=2)
    try:
        fd = os.open(os.path.join(run_dir, f"main.{os.getpid() % 2}.lock"), os.O_RDWR | os.O_CREAT)
        fcntl.flock(fd, fcntl.LOCK_EX)  # the instance this process would try first
        ctx = multiprocessing.get_context("fork")
        holder = ctx.Process(target=lambda: time.sleep(3))
        holder.start()
        os.close(fd)
        started = time.monotonic()
        out = backend.run(fake_build("copy"), request())
        assert out.status is RunStatus.OK and time.monotonic() - started < 2.5
        assert os.path.exists(os.path.join(run_dir, f"main.{(os.getpid() + 1) % 2}.json"))
        holder.join(10)
    finally:
        backend.shutdown()


def test_a_job_interrupted_midway_leaves_the_child_to_be_replaced(child_sandbox, run_dir):
    """A pool process interrupted between sending a job and reading its answer (a soft time limit)
    leaves the shared child busy; the next user, in another process, kills it and starts another."""
    backend = shared_backend(run_dir)
    try:
        backend.run(fake_build("copy"), request())
        old = backend.pool.main.pid
        with pytest.raises(KeyboardInterrupt), backend.pool.holding(("main",)):
            backend.pool.main_child().submit(
                {"op": "run", "entry": "copy", "args": [], "scalars": {}, "grid": [1, 1, 1], "block": [1, 1, 1],
                 "shared": 0}, {"__cubin__": np.zeros(4, np.uint8)}, time.monotonic() + 5)
            raise KeyboardInterrupt
        other = in_another_process(run_dir, [("copy", False)])
        assert other[0][0] == "ok" and other[0][2] != old
    finally:
        backend.shutdown()


def test_the_option_names_the_shared_slots(run_dir):
    assert slots_of("off") == frozenset() and "main" not in slots_of("sanitizers")
    assert slots_of("all") == {"main", "memcheck", "racecheck", "synccheck"}
    with pytest.raises(ValueError, match="shared_children"):
        GpuBackend(arch="sm_90", shared_children="yes")
    backend = GpuBackend(arch="sm_90", shared_children="sanitizers", shared_dir=run_dir)
    assert backend.pool.shared.slots == slots_of("sanitizers") and not backend.pool.shared.shares("main")
    assert GpuBackend(arch="sm_90").pool.shared is None
    with pytest.raises(ValueError, match="fresh child"):
        GpuBackend(arch="sm_90", shared_children="all", shared_dir=run_dir, fresh_child_per_submission=True)
