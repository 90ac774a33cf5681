"""The sandbox boundary and the line-preserving rewriter."""
from __future__ import annotations

import numpy as np
import pytest

from grader.core import sandbox
from tests.sandbox.run import run_box
from grader.core.backends.base import RunStatus
from grader.core.emulator.rewrite import rewrite

from .conftest import spec

pytestmark = pytest.mark.skipif(not sandbox.box.DEFAULT.works(), reason="bubblewrap cannot create namespaces here")


def test_sandbox_hides_host_and_network(tmp_path):
    """Inside the sandbox there is no /etc, no project and no network interface but loopback."""
    res = run_box(["/bin/sh", "-c", "ls /etc; ls /work; cat /proc/net/dev | wc -l; echo done"], tmp_path, 10)
    assert "done" in res.stdout
    assert "No such file" in res.stderr
    assert res.stdout.split()[-2] == "3"  # header lines + lo only


def test_sandbox_kills_at_wall_clock_limit(tmp_path):
    """A command that sleeps past its limit is killed with its whole process group."""
    res = run_box(["/bin/sh", "-c", "sleep 30 & sleep 30"], tmp_path, 0.5)
    assert res.timed_out
    assert res.time_s < 5


def test_sandbox_caps_output(tmp_path):
    """Standard output is capped with a note of how much was dropped."""
    res = run_box(["/bin/sh", "-c", "head -c 200000 /dev/zero | tr '\\\\0' x"], tmp_path, 10)
    assert len(res.stdout) < sandbox.OUTPUT_CAP + 200
    assert "output truncated" in res.stdout


def test_rewrite_preserves_lines_and_splits_declarators():
    """__shared__ declarations become references to per-block storage without moving any line."""
    src = "__global__ void k(int* o) {\n  __shared__ float a[4][5], b;\n  extern __shared__ int d[];\n  o[0] = 1; // __shared__ int z;\n}\n"
    out = rewrite(src, "k")
    assert out.problems == []
    lines = out.text.splitlines()
    assert len(lines) == len(src.splitlines())
    assert 'float (&a)[ 4 ] [ 5 ] = *::wd::wd_shared_var<float[ 4 ] [ 5 ], 0, __LINE__>("a");' in lines[1]
    assert 'float& b = *::wd::wd_shared_var<float, 1, __LINE__>("b");' in lines[1]
    assert 'int* const d = ::wd::wd_dynamic_shared<int>("d");' in lines[2]
    assert lines[3] == src.splitlines()[3]


def test_rewrite_rejects_file_scope_shared_and_extern():
    """File-scope __shared__ and plain extern declarations are compile errors with their lines."""
    src = "__shared__ int s[4];\nextern int x;\n__global__ void k(int* o) { o[0] = system(\"ls\"); }\n"
    problems = {p.line: p.message for p in rewrite(src, "k").problems}
    assert "file-scope" in problems[1]
    assert "extern" in problems[2]
    assert "system" in problems[3]


def test_missing_kernel_is_reported(backend):
    """A source without the expected __global__ function gets a clear compile error."""
    build = backend.compile("__global__ void other(int* out) { out[0] = 1; }", spec("k", ("out", "out", "int32")))
    assert not build.compile.ok
    assert "no __global__ function named 'k'" in build.compile.messages[0].message


def test_infinite_loop_is_timeout_with_line(run):
    """A loop that never ends is stopped at the time limit: TIMEOUT naming the looping line."""
    src = """__global__ void k(int* out) {
    int i = 0;
    while (out[0] == 0) { i++; }
    out[1] = i;
}"""
    out = run(src, spec("k", ("out", "inout", "int32")), (1, 1, 1), (32, 1, 1), {"out": np.zeros(2, np.int32)},
              time_limit_s=1.0)
    assert out.status is RunStatus.TIMEOUT
    assert out.diagnostics[0].line == 3


def test_inter_block_spin_barrier_is_deadlock_with_note(run):
    """Thread 0 spinning on a global counter while its block waits at __syncthreads: DEADLOCK, blocks not co-resident."""
    src = """__global__ void k(unsigned int* count) {
    if (threadIdx.x == 0) {
        atomicAdd(count, 1u);
        while (atomicAdd(count, 0u) < gridDim.x) { }
    }
    __syncthreads();
}"""
    out = run(src, spec("k", ("count", "inout", "uint32")), (4, 1, 1), (64, 1, 1), {"count": np.zeros(1, np.uint32)})
    assert out.status is RunStatus.DEADLOCK
    d = out.diagnostics[0]
    assert d.line == 6 and d.detail["spin_line"] == 4
    assert "blocks run concurrently" in d.message


@pytest.mark.parametrize("sync", ["", "__syncthreads();"])
def test_deep_recursion_is_stack_overflow(run, sync):
    """Unbounded recursion overflows the thread's stack: a STACK_OVERFLOW fault, on both execution paths."""
    src = """__device__ int depth(int n, int* p) {
    int local[64];
    local[n % 64] = n;
    return n == -1 ? 0 : depth(n + 1, p) + local[(n + 1) % 64];
}
__global__ void k(int* out) {
    SYNC
    out[threadIdx.x] = depth(0, out);
}""".replace("SYNC", sync)
    out = run(src, spec("k", ("out", "out", "int32")), (1, 1, 1), (4, 1, 1), {"out": np.zeros(4, np.int32)})
    assert out.status is RunStatus.FAULT
    assert str(out.diagnostics[0].kind) == "stack_overflow"


def test_too_much_static_shared_memory_is_refused(backend):
    """More than 48 KiB of static __shared__ memory is a compile error in ptxas's words, on the line that
    crosses the limit (the second array: 64 KiB in all)."""
    src = """__global__ void k(int* out) {
    __shared__ float a[8192];
    __shared__ float b[8192];
    a[threadIdx.x] = 1; b[threadIdx.x] = 2;
    out[threadIdx.x] = a[threadIdx.x] + b[threadIdx.x];
}"""
    build = backend.compile(src, spec("k", ("out", "out", "int32")))
    assert not build.compile.ok
    error = next(m for m in build.compile.messages if m.severity == "error")
    assert error.line == 3
    assert "uses too much shared data (0x10000 bytes, 0xc000 max)" in error.message


def test_unsafe_mode_runs_without_bwrap_only_when_allowed(backend, monkeypatch, tmp_path):
    """Without bubblewrap the sandbox refuses (SandboxUnavailableError) unless the backend's sandbox
    allows unsafe mode (WARPDRILL_ALLOW_UNSAFE_SANDBOX=1 in the settings)."""
    from grader.core.backends.base import LaunchConfig, RunRequest
    from grader.core.backends.emulator import EmulatorBackend
    from grader.core.errors import SandboxUnavailableError

    missing = str(tmp_path / "no-bwrap")
    with pytest.raises(SandboxUnavailableError):
        sandbox.Sandbox(bwrap=missing).run(["/bin/true"], tmp_path, sandbox.Limits(5))
    unsafe = EmulatorBackend(cache_dir=backend.cache_dir, sandbox={"bwrap": missing, "allow_unsafe": True})
    src = "__global__ void k(int* out) { out[threadIdx.x] = threadIdx.x * 3; } // unsafe-mode test\n"
    build = unsafe.compile(src, spec("k", ("out", "out", "int32")))
    try:
        assert build.compile.ok, build.compile.log
        out = unsafe.run(build, RunRequest(LaunchConfig((1, 1, 1), (8, 1, 1)), {"out": np.zeros(8, np.int32)}))
        assert out.outputs["out"].tolist() == [3 * i for i in range(8)]
    finally:
        unsafe.close(build)


def test_endless_barrier_loop_times_out(run):
    """A loop that only ever meets barriers is stopped at the time limit by the child itself (TIMEOUT)."""
    src = """__global__ void k(int* out) {
    int i = 0;
    while (out[0] == 0) { __syncthreads(); i++; }
    out[1] = i;
}"""
    out = run(src, spec("k", ("out", "inout", "int32")), (1, 1, 1), (32, 1, 1), {"out": np.zeros(2, np.int32)},
              time_limit_s=1.0)
    assert out.status is RunStatus.TIMEOUT
    # Stopped by the child at its limit, before the box's wall-clock backstop (a busy machine
    # stretches the wall time, so no tighter bound holds there).
    from grader.core.emulator.run_limits import backstop_s
    assert out.time_s < backstop_s(1.0)
    assert out.diagnostics[0].line == 3
