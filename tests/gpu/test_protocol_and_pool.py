"""The child protocol and the pool, with the fake child (no GPU): deadlines, kills, replacement."""
from __future__ import annotations

import os
import time

import numpy as np
import pytest

from grader.core.backends.base import ArgRole, ArgSpec, Build, KernelSpec, LaunchConfig, RunRequest, RunStatus
from grader.core.backends.gpu import GpuBackend, GpuHandle
from grader.core.explainer import HangExplainer
from grader.core.gpu import protocol
from grader.core.gpu.pool import Child, ChildPool
from grader.core.gpu.sanitizer import Tool
from grader.core.judge import explain_hang
from grader.core.results import CompileResult
from grader.core.verdicts import DiagnosticKind

SPEC = KernelSpec("k", (ArgSpec("x", ArgRole.IN, "float32"), ArgSpec("y", ArgRole.OUT, "float32"),
                        ArgSpec("n", ArgRole.SCALAR, "int32")))


def test_frames_round_trip_arrays_of_every_shape():
    r, w = os.pipe()
    arrays = {"a": np.arange(6, dtype=np.int64).reshape(2, 3), "e": np.zeros(0, np.float32)}
    protocol.write_frame(w, {"op": "x", "v": 1}, arrays)
    header, got = protocol.read_frame(r)
    assert header["op"] == "x" and header["v"] == 1
    assert got["a"].shape == (2, 3) and (got["a"] == arrays["a"]).all() and got["e"].size == 0
    os.close(r)
    os.close(w)


def test_reader_gives_up_at_the_deadline_and_on_a_dead_peer():
    r, w = os.pipe()
    os.set_blocking(r, False)
    started = time.monotonic()
    with pytest.raises(protocol.DeadlineError):
        protocol.read_frame_by(r, time.monotonic() + 0.2)
    assert time.monotonic() - started < 1
    with pytest.raises(EOFError):
        protocol.read_frame_by(r, time.monotonic() + 5, alive=lambda: False)
    os.close(r)
    os.close(w)


def test_a_frame_with_a_forbidden_dtype_is_refused():
    r, w = os.pipe()
    body = b'{"arrays":[{"name":"o","dtype":"object","shape":[1]}]}'
    os.write(w, protocol.MAGIC + len(body).to_bytes(4, "little") + body)
    with pytest.raises(protocol.ProtocolError):
        protocol.read_frame(r)
    os.close(r)
    os.close(w)


@pytest.fixture
def fake_backend(child_sandbox):
    backend = GpuBackend(arch="sm_90", pool=ChildPool(factory=lambda tool: Child(tool, fake=True)))
    yield backend
    backend.shutdown()


def fake_build(entry: str, source: str = "") -> Build:
    handle = GpuHandle(source=source, spec=SPEC, cubin=np.zeros(4, np.uint8), entry=entry)
    return Build(compile=CompileResult(ok=True), handle=handle)


def request(n=8, limit=1.0):
    return RunRequest(launch=LaunchConfig((1, 1, 1), (32, 1, 1)), time_limit_s=limit,
                      inputs={"x": np.arange(n, dtype=np.float32), "y": np.empty(n, np.float32), "n": n})


def test_a_warm_child_answers_jobs_and_outputs_come_back(fake_backend):
    out = fake_backend.run(fake_build("copy"), request())
    assert out.status is RunStatus.OK and out.outputs["y"].dtype == np.float32 and out.outputs["y"].size == 8
    pid = fake_backend.pool.main.proc.pid
    assert fake_backend.run(fake_build("copy"), request()).status is RunStatus.OK
    assert fake_backend.pool.main.proc.pid == pid  # the same warm child served both


def test_printf_goes_to_the_log_and_cannot_forge_a_result(fake_backend):
    """The fake 'kernel' prints a result frame's JSON to stdout: it ends up in the log, nowhere else."""
    out = fake_backend.run(fake_build("print"), request())
    assert out.status is RunStatus.OK and '"status":"ok"' in out.log and "forged" in out.log


def test_a_hang_is_killed_at_the_limit_and_the_next_run_gets_a_fresh_child(fake_backend):
    fake_backend.run(fake_build("copy"), request())
    old = fake_backend.pool.main.proc
    started = time.monotonic()
    out = fake_backend.run(fake_build("hang"), request(limit=0.5))
    assert out.status is RunStatus.TIMEOUT and out.diagnostics[0].kind is DiagnosticKind.TIMEOUT
    assert time.monotonic() - started < 5
    assert old.poll() is not None  # killed
    assert fake_backend.run(fake_build("copy"), request()).status is RunStatus.OK


def test_a_sticky_error_replaces_the_child(fake_backend):
    out = fake_backend.run(fake_build("sticky"), request())
    assert out.status is RunStatus.FAULT and "CUDA_ERROR_ILLEGAL_ADDRESS" in out.message
    assert out.diagnostics[0].kind is DiagnosticKind.CUDA_ERROR
    assert fake_backend.run(fake_build("copy"), request()).status is RunStatus.OK


def test_a_child_that_dies_is_a_platform_fault_after_one_retry(fake_backend):
    out = fake_backend.run(fake_build("crash"), request())
    assert out.status is RunStatus.INTERNAL
    assert fake_backend.run(fake_build("copy"), request()).status is RunStatus.OK


def test_the_warm_child_serves_the_next_submission_by_default(fake_backend):
    fake_backend.run(fake_build("copy"), request())
    first = fake_backend.pool.main.proc.pid
    fake_backend.close(fake_build("copy"))
    assert fake_backend.pool.main.proc.pid == first


def test_fresh_child_per_submission_when_asked(child_sandbox):
    backend = GpuBackend(arch="sm_90", pool=ChildPool(factory=lambda tool: Child(tool, fake=True)),
                         fresh_child_per_submission=True)
    try:
        backend.run(fake_build("copy"), request())
        first = backend.pool.main.proc.pid
        backend.close(fake_build("copy"))
        assert backend.pool.main is not None and backend.pool.main.proc.pid != first
        assert backend.run(fake_build("copy"), request()).status is RunStatus.OK
    finally:
        backend.shutdown()


def _emulator_or_skip(emulator) -> None:
    """Skip where the emulator cannot build a kernel (the H200 machine has g++ but no Boost.Context)."""
    try:
        backend = emulator.EmulatorBackend()
        build = backend.compile("__global__ void k(const float* x, float* y, int n) { }\n", SPEC)
        backend.close(build)
    except Exception as exc:
        pytest.skip(f"the emulator cannot run here: {exc}")
    if not build.compile.ok:
        pytest.skip(f"the emulator cannot build kernels here: {build.compile.log[:300]}")


def test_a_hang_the_emulator_proves_is_a_deadlock(child_sandbox):
    """GPU killed at the limit + the emulator finds threads parked at a barrier => DEADLOCK, not TIMEOUT."""
    from grader.core.backends import emulator

    _emulator_or_skip(emulator)
    source = """__global__ void k(const float* x, float* y, int n)
{
    __shared__ volatile int ready;
    int t = threadIdx.x;
    if (t == 0) ready = 0;
    __syncthreads();
    if (t == 0) { __syncthreads(); ready = 1; }
    else { while (ready == 0) { } }
    if (t < n) y[t] = x[t];
}
"""
    backend = GpuBackend(arch="sm_90", pool=ChildPool(factory=lambda tool: Child(tool, fake=True)))
    try:
        hung = backend.run(fake_build("hang", source), request(limit=0.5))
    finally:
        backend.shutdown()
    assert hung.status is RunStatus.TIMEOUT  # the backend reports the hang; the judge asks the emulator
    out = explain_hang(hung, HangExplainer(emulator.EmulatorBackend), source, SPEC, request(limit=0.5))
    assert out.status is RunStatus.DEADLOCK
    assert any(d.kind is DiagnosticKind.DEADLOCK for d in out.diagnostics)


def test_a_hang_the_emulator_explains_by_a_divergent_barrier_is_graded_sync_error(child_sandbox):
    """block-sum's "barrier inside the if, one more after the loop" hangs an H200; the emulator
    names the divergent barrier, so the hang is graded SYNC_ERROR with its line."""
    from grader.core.backends import emulator
    from grader.core.verdicts import case_verdict
    from grader.core.verdicts import Verdict

    _emulator_or_skip(emulator)
    source = """__global__ void k(const float* x, float* y, int n)
{
    __shared__ float s[32];
    int t = threadIdx.x;
    s[t] = x[t];
    __syncthreads();
    for (int stride = 16; stride > 0; stride >>= 1) {
        if (t < stride) {
            s[t] += s[t + stride];
            __syncthreads();
        }
    }
    __syncthreads();
    if (t == 0) y[0] = s[0];
}
"""
    backend = GpuBackend(arch="sm_90", pool=ChildPool(factory=lambda tool: Child(tool, fake=True)))
    try:
        hung = backend.run(fake_build("hang", source), request(n=32, limit=0.5))
    finally:
        backend.shutdown()
    assert [d.kind for d in hung.diagnostics] == [DiagnosticKind.TIMEOUT]
    out = explain_hang(hung, HangExplainer(emulator.EmulatorBackend), source, SPEC, request(n=32, limit=0.5))
    assert out.status is RunStatus.TIMEOUT
    barrier = [d for d in out.diagnostics if d.kind is DiagnosticKind.DIVERGENT_BARRIER]
    assert barrier and barrier[0].line in (10, 13)
    assert case_verdict(out, {}, 0, 0)[0] is Verdict.SYNC_ERROR


def test_gpu_worker_check_fails_clearly_without_a_gpu(child_sandbox):
    """On a machine without PyCUDA or a GPU the start script's check stops with a reason."""
    from django.core.management import CommandError, call_command

    from grader.core.gpu.isolation import gpu_nodes

    if gpu_nodes():
        pytest.skip("this machine has a GPU")
    with pytest.raises(CommandError, match="cannot grade on its GPU"):
        call_command("gpu_worker_check")


def test_a_job_interrupted_midway_never_hands_its_answer_to_the_next_one(fake_backend):
    """An exception between sending a job and reading its answer (a Celery soft time limit)
    leaves the child busy; the next run gets a fresh child, not the stale answer."""
    fake_backend.run(fake_build("copy"), request())
    child = fake_backend.pool.main
    # request() interrupted after its submit(): the answer is left in the pipe, the child busy.
    child.submit({"op": "run", "entry": "copy", "args": [], "scalars": {}, "grid": [1, 1, 1], "block": [1, 1, 1],
                  "shared": 0}, {"__cubin__": np.zeros(4, np.uint8)}, time.monotonic() + 5)
    assert child.busy
    out = fake_backend.run(fake_build("copy"), request())
    assert out.status is RunStatus.OK and out.outputs["y"].size == 8
    assert fake_backend.pool.main is not child


@pytest.mark.parametrize("static, dynamic, ran", [
    (0, 0, ["memcheck", "synccheck"]),  # no shared memory: racecheck has nothing to look at
    (1024, 0, ["memcheck", "racecheck", "synccheck"]),
    (0, 256, ["memcheck", "racecheck", "synccheck"]),
    (None, 0, ["memcheck", "racecheck", "synccheck"]),  # unknown: run it
])
def test_racecheck_runs_only_on_kernels_with_shared_memory(static, dynamic, ran):
    backend = GpuBackend(arch="sm_90", pool=ChildPool(factory=lambda tool: Child(tool, fake=True)))
    seen = []

    def sanitize(tools, job, arrays, limit_s):  # records which tools would have run
        seen.extend(str(t) for t in tools)
        return {}, ""

    backend.sanitizers._sanitize = sanitize
    build = fake_build("copy")
    build.handle.shared_static_bytes = static
    req = RunRequest(launch=LaunchConfig((1, 1, 1), (32, 1, 1), dynamic), time_limit_s=1.0, check=True,
                     checks=("memcheck", "racecheck", "synccheck"),
                     inputs={"x": np.zeros(8, np.float32), "y": np.empty(8, np.float32), "n": 8})
    assert backend.run(build, req).status is RunStatus.OK
    assert sorted(seen) == ran


@pytest.mark.parametrize("located, recheck, ran", [
    (False, False, ["memcheck", "racecheck", "synccheck"]),
    (True, False, ["racecheck", "synccheck"]),  # memcheck already named the faulting access
    (True, True, ["memcheck", "racecheck", "synccheck"]),  # WARPDRILL_GPU_RECHECK_FAULTS=1: as before
])
def test_memcheck_is_left_out_of_the_check_pass_once_it_located_a_fault(located, recheck, ran):
    """A test case that faulted had memcheck name its access (where_it_faulted): a second faulting run under
    memcheck in the check pass would cost its child again for a verdict already MEMORY_ERROR."""
    backend = GpuBackend(arch="sm_90", pool=ChildPool(factory=lambda tool: Child(tool, fake=True)),
                         recheck_located_faults=recheck)
    seen = []
    backend.sanitizers._sanitize = lambda tools, job, arrays, limit_s: (seen.extend(str(t) for t in tools), ({}, ""))[1]
    build = fake_build("copy")
    build.handle.shared_static_bytes = 1024
    build.handle.faults_located = located
    assert backend.run(build, check_request(("memcheck", "racecheck", "synccheck"))).status is RunStatus.OK
    assert sorted(seen) == ran


def test_a_worker_runs_only_its_own_tools_of_a_problems_checks():
    """WARPDRILL_GPU_CHECKS names the tools a worker runs: a problem's check outside them is not run there,
    and none at all leaves no check pass."""
    for checks, ran in (("memcheck", ["memcheck"]), ("", [])):
        backend = GpuBackend(arch="sm_90", pool=ChildPool(factory=lambda tool: Child(tool, fake=True)), checks=checks)
        seen = []
        backend.sanitizers._sanitize = lambda tools, job, arrays, limit_s: (seen.extend(str(t) for t in tools), ({}, ""))[1]
        build = fake_build("copy")
        build.handle.shared_static_bytes = 1024
        assert backend.run(build, check_request(("memcheck", "racecheck", "synccheck"))).status is RunStatus.OK
        assert seen == ran


# ---- long-lived sanitizer children (fake ones write compute-sanitizer's records themselves) ----


def check_request(checks=("racecheck",), limit=2.0):
    return RunRequest(launch=LaunchConfig((1, 1, 1), (32, 1, 1)), time_limit_s=limit, check=True, checks=checks,
                      inputs={"x": np.arange(8, dtype=np.float32), "y": np.empty(8, np.float32), "n": 8})


def test_a_sanitizer_child_serves_many_checks_and_each_gets_only_its_own_records(fake_backend):
    clean = fake_backend.run(fake_build("copy"), check_request())
    assert clean.status is RunStatus.OK and clean.diagnostics == []
    child = fake_backend.pool.children["racecheck"]
    racy = fake_backend.run(fake_build("race"), check_request())
    assert [(d.kind, d.line) for d in racy.diagnostics] == [(DiagnosticKind.RACE, 7)]
    # The next job on the same child starts after the race's fence, whose tail (a second
    # record) is dropped: it reports nothing, and never the earlier job's race.
    after = fake_backend.run(fake_build("copy"), check_request())
    assert after.status is RunStatus.OK and after.diagnostics == []
    assert fake_backend.pool.children["racecheck"] is child and child.jobs == 3 and child.alive()


def test_each_tool_has_its_own_child_and_fence(fake_backend):
    out = fake_backend.run(fake_build("race"), check_request(("memcheck", "racecheck", "synccheck")))
    assert [(d.kind, d.detail["tool"]) for d in out.diagnostics] == [(DiagnosticKind.RACE, "racecheck")]
    assert set(fake_backend.pool.children) >= {"memcheck", "racecheck", "synccheck"}
    again = fake_backend.run(fake_build("copy"), check_request(("memcheck", "racecheck", "synccheck")))
    assert again.diagnostics == []
    assert all(fake_backend.pool.children[t].jobs == 2 for t in ("memcheck", "racecheck", "synccheck"))


def test_a_job_without_a_fence_is_read_to_the_end_of_the_log_and_its_child_replaced(fake_backend):
    fake_backend.run(fake_build("copy"), check_request())
    first = fake_backend.pool.children["racecheck"]
    out = fake_backend.run(fake_build("nofence"), check_request())
    assert out.status is RunStatus.OK and out.diagnostics == []
    assert first.proc.poll() is not None  # finished, then removed from the pool
    assert fake_backend.pool.children["racecheck"] is not first  # its successor is already starting
    assert fake_backend.run(fake_build("race"), check_request()).diagnostics[0].kind is DiagnosticKind.RACE


def test_a_sanitizer_child_is_replaced_after_its_jobs(child_sandbox):
    backend = GpuBackend(arch="sm_90",
                         pool=ChildPool(factory=lambda tool: Child(tool, fake=True), sanitizer_jobs=2))
    try:
        backend.run(fake_build("copy"), check_request())
        first = backend.pool.children["racecheck"]
        backend.run(fake_build("race"), check_request())
        assert backend.pool.children["racecheck"] is not first and first.proc.poll() is not None
        assert backend.run(fake_build("copy"), check_request()).diagnostics == []
    finally:
        backend.shutdown()


def test_a_hang_under_a_sanitizer_is_killed_and_the_tool_gets_a_fresh_child(fake_backend):
    fake_backend.run(fake_build("copy"), check_request())
    first = fake_backend.pool.children["racecheck"]
    out = fake_backend.run(fake_build("hang"), check_request(limit=0.3))
    assert out.status is RunStatus.TIMEOUT
    assert any(d.message.params.get("tool") == "racecheck" for d in out.diagnostics)
    assert first.proc.poll() is not None
    assert fake_backend.run(fake_build("copy"), check_request()).status is RunStatus.OK


def test_a_job_that_used_up_the_print_limit_is_not_waited_for(child_sandbox):
    """compute-sanitizer prints nothing, fences included, past its print limit: the cut gives up
    at once instead of waiting for a fence that cannot come."""
    child = Child(Tool.SYNCCHECK, fake=True, jobs=1)
    try:
        child.wait_ready()
        records = "".join("========= Barrier error detected. Divergent thread(s) in warp.\n"
                          f"=========     at k+0x30 in kernel.cu:5\n=========     by thread ({t},0,0) in block (0,0,0)\n"
                          for t in range(child.print_limit))
        with open(child.workdir / "sanitizer.log", "a") as f:
            f.write(records)
        started = time.monotonic()
        assert child.job_log("0123456789abcdef", wait_s=5.0) is None
        assert time.monotonic() - started < 1.0
        assert child.rest_of_log().count("Barrier error") == child.print_limit
    finally:
        child.kill()


def test_a_sanitizer_child_whose_print_budget_cannot_hold_a_whole_report_is_replaced(fake_backend):
    """compute-sanitizer's print limit counts every record of a child's life. A child whose earlier jobs'
    findings left no room for a report and its fence must not take the next job: its records would
    never be printed and a racy kernel would pass (tiled-matmul's missing barrier on the H200, after
    the bank's other race sources in one child)."""
    from grader.core.gpu.sanitizer import FENCE_RECORDS, MIN_REPORT_RECORDS

    fake_backend.run(fake_build("copy"), check_request())
    first = fake_backend.pool.children["racecheck"]
    assert first.has_room_for_a_job()
    fake_backend.run(fake_build("copy"), check_request())
    assert fake_backend.pool.children["racecheck"] is first  # a clean job leaves room: the child stays
    # Earlier racy jobs' findings used the budget up to one record short of a report and its fence.
    first.log_records = first.print_limit - (MIN_REPORT_RECORDS + FENCE_RECORDS[Tool.RACECHECK]) + 1
    assert not first.has_room_for_a_job()
    out = fake_backend.run(fake_build("race"), check_request())
    assert fake_backend.pool.children["racecheck"] is not first and first.proc.poll() is not None
    assert any(d.kind is DiagnosticKind.RACE for d in out.diagnostics)
