"""Coro mode (grader/core/emulator/coro.py, src/coro.cpp): a kernel whose only synchronisation is
__syncthreads() in its own body runs its plain runs as coroutine frames between barriers. It must
compute exactly what the fiber scheduler computes, name the same lines, and hand every irregular
block (divergent barriers, early exits, lost updates, waiting loops) back to the fibers."""
from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pytest

from grader.core.backends.base import LaunchConfig, RunRequest
from grader.core.backends.emulator import EmulatorBackend
from grader.core.emulator import jobs
from grader.core.emulator.rewrite import rewrite
from grader.core.verdicts import DiagnosticKind

from .conftest import spec

# Written as CUDA code is written: extern "C", a TILE macro, a template helper, a struct, a loop
# with a barrier inside, a barrier inside a macro, an early `return` after the last barrier.
TRANSPOSE = """
#define TILE 32
#define SYNC() __syncthreads()
template <typename T> __device__ __forceinline__ T clamp_index(T i, T n) { return i < n ? i : n - 1; }
struct Pair { float a, b; };
extern "C" __global__ void transpose_sum(const float* __restrict__ in, float* out, int n) {
    __shared__ float tile[TILE][TILE + 1];
    __shared__ Pair pairs[TILE];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += blockDim.y)
        tile[threadIdx.y + j][threadIdx.x] = in[clamp_index(y + j, n) * n + clamp_index(x, n)];
    SYNC();
    if (threadIdx.y == 0) pairs[threadIdx.x] = Pair{tile[threadIdx.x][0], tile[0][threadIdx.x]};
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    if (x >= n) return;
    for (int j = 0; j < TILE; j += blockDim.y)
        if (y + j < n) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j] + pairs[threadIdx.y].a * 0.0f;
}
"""
TRANSPOSE_SPEC = spec("transpose_sum", ("in", "in", "float32"), ("out", "out", "float32"), ("n", "scalar", "int32"))

REDUCE = """
template <unsigned BLOCK>
__device__ void unused_helper() {}
__global__ void block_sum(const float* x, float* y, int n) {
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) y[blockIdx.x] = s[0];
}
"""
REDUCE_SPEC = spec("block_sum", ("x", "in", "float32"), ("y", "out", "float32"), ("n", "scalar", "int32"))


@pytest.fixture(scope="module")
def fibers_backend():
    return EmulatorBackend(coro=False)


def _mode_rc(build, kspec, launch, inputs, mode: str) -> int:
    """Run the plain binary directly under job mode `mode`: 0 when the mode ran the grid to its end,
    3 (EXIT_RERUN_FIBERS) when it handed the block back."""
    with tempfile.TemporaryDirectory() as tmp:
        jobs.write_job(Path(tmp), kspec, launch, inputs, fibers=mode == "fibers", coro=mode == "coro", workers=1,
                       start_aligned=False, time_limit_s=10)
        rc = subprocess.run([str(build.handle.binaries["fast"]), str(Path(tmp) / "job.txt")], capture_output=True).returncode
        if rc == 0:
            assert json.loads((Path(tmp) / "result.json").read_text())["status"] in ("ok", "fault", "deadlock")
        return rc


def _both(backend, fibers_backend, source, kspec, launch, inputs):
    outs = []
    for b in (backend, fibers_backend):
        build = b.compile(source, kspec)
        assert build.compile.ok, build.compile.log
        outs.append((build, b.run(build, RunRequest(launch, inputs, time_limit_s=10, test_name="t"))))
    return outs


def test_the_rewrite_adds_a_coroutine_copy_with_the_kernels_lines():
    r = rewrite(TRANSPOSE, "transpose_sum")
    assert r.coro_text is not None and r.needs_fibers
    assert "wd_coro_transpose_sum" in r.coro_text and "co_return" in r.coro_text
    head = next(i for i, line in enumerate(TRANSPOSE.split("\n"), 1) if "transpose_sum(" in line)
    assert f"#line {head}\n" in r.coro_text
    assert r.text == rewrite(TRANSPOSE, "transpose_sum").text and "wd_coro" not in r.text  # the check builds' text


@pytest.mark.parametrize("source", [
    # a barrier in a device function the kernel calls
    "__device__ void sync_all() { __syncthreads(); }\n__global__ void k(float* a) { a[threadIdx.x] = 1; sync_all(); }",
    # barriers that are not plain __syncthreads(), warp operations, atomics, printf
    "__global__ void k(float* a) { a[0] = __syncthreads_count(a[threadIdx.x] > 0); }",
    "__global__ void k(float* a) { a[threadIdx.x] = __shfl_down_sync(0xffffffff, a[threadIdx.x], 1); __syncthreads(); }",
    "__global__ void k(float* a) { atomicAdd(a, 1.0f); __syncthreads(); }",
    "__global__ void k(float* a) { __syncthreads(); printf(\"%f\", a[0]); }",
    # a lambda, a macro with `return`, a declaration before the definition
    "__global__ void k(float* a) { auto f = [&](int i) { return a[i]; }; __syncthreads(); a[0] = f(1); }",
    "#define GUARD(i) if ((i) > 4) return;\n__global__ void k(float* a) { GUARD(threadIdx.x); __syncthreads(); a[0] = 1; }",
    "__global__ void k(float* a);\n__global__ void k(float* a) { __syncthreads(); a[0] = 1; }",
])
def test_kernels_the_copy_cannot_cover_keep_the_fibers(source):
    assert rewrite(source, "k").coro_text is None


def test_coro_mode_computes_what_the_fibers_compute_and_runs_to_its_end(backend, fibers_backend):
    n = 77  # ragged: the last tiles' threads skip the stores, none leaves before a barrier
    rng = np.random.default_rng(5)
    a = rng.random((n, n), dtype=np.float32).ravel()
    launch = LaunchConfig((3, 3, 1), (32, 8, 1))
    inputs = {"in": a, "out": np.zeros(n * n, np.float32), "n": n}
    (coro_build, coro_out), (_, fiber_out) = _both(backend, fibers_backend, TRANSPOSE, TRANSPOSE_SPEC, launch, inputs)
    assert coro_out.status.value == fiber_out.status.value == "ok"
    np.testing.assert_array_equal(coro_out.outputs["out"], a.reshape(n, n).T.ravel())
    np.testing.assert_array_equal(coro_out.outputs["out"], fiber_out.outputs["out"])
    assert _mode_rc(coro_build, TRANSPOSE_SPEC, launch, inputs, "coro") == 0  # it ran in coro mode itself


def test_a_tree_reduction_in_coro_mode_matches_the_fibers_bit_for_bit(backend, fibers_backend):
    x = np.random.default_rng(1).random(256 * 40 + 13, dtype=np.float32)
    launch = LaunchConfig((41, 1, 1), (256, 1, 1))
    inputs = {"x": x, "y": np.zeros(41, np.float32), "n": x.size}
    (build, coro_out), (_, fiber_out) = _both(backend, fibers_backend, REDUCE, REDUCE_SPEC, launch, inputs)
    np.testing.assert_array_equal(coro_out.outputs["y"], fiber_out.outputs["y"])
    np.testing.assert_allclose(coro_out.outputs["y"].sum(), x.sum(dtype=np.float64), rtol=1e-5)
    assert _mode_rc(build, REDUCE_SPEC, launch, inputs, "coro") == 0


@pytest.mark.parametrize("body", [
    # a divergent barrier: half the block waits at a barrier the other half never reaches
    "if (threadIdx.x < 16) __syncthreads(); a[threadIdx.x] = 1;",
    # a tail guard above the barrier, in a partial block: the fibers' rule decides
    "if (threadIdx.x >= n) return; s[threadIdx.x] = a[threadIdx.x]; __syncthreads(); a[threadIdx.x] = s[0];",
    # two threads of the block update one word between two barriers: a lost update on a GPU
    "s[0] = 0; __syncthreads(); s[0] += 1; __syncthreads(); a[threadIdx.x] = s[0];",
    # locals far larger than a fiber's stack, alive across the barrier (the fibers report the overflow)
    "float big[1 << 21]; for (int j = 0; j < n; ++j) big[j * 4096 + threadIdx.x] = j; __syncthreads();"
    " a[threadIdx.x] = big[(n - 1) * 4096 + threadIdx.x];",
])
def test_irregular_blocks_are_handed_back_to_the_fibers_with_the_same_verdict(backend, fibers_backend, body):
    source = "__global__ void k(float* a, int n) { __shared__ float s[64]; " + body + " }"
    kspec = spec("k", ("a", "inout", "float32"), ("n", "scalar", "int32"))
    launch = LaunchConfig((1, 1, 1), (64, 1, 1))
    inputs = {"a": np.arange(64, dtype=np.float32), "n": 40}
    (build, coro_out), (_, fiber_out) = _both(backend, fibers_backend, source, kspec, launch, inputs)
    assert build.handle.fast_text is not None
    assert _mode_rc(build, kspec, launch, inputs, "coro") == 3  # coro mode gave the block back
    assert coro_out.status == fiber_out.status
    assert sorted(str(d.kind) for d in coro_out.diagnostics) == sorted(str(d.kind) for d in fiber_out.diagnostics)
    assert coro_out.message == fiber_out.message
    if coro_out.outputs and fiber_out.outputs:
        np.testing.assert_array_equal(coro_out.outputs["a"], fiber_out.outputs["a"])


def test_an_out_of_bounds_store_in_coro_mode_names_the_students_line(backend):
    source = ("__global__ void k(float* a, int n) {\n"
              "    __shared__ float s[64];\n"
              "    s[threadIdx.x] = a[threadIdx.x];\n"
              "    __syncthreads();\n"
              "    a[threadIdx.x * 100000] = s[63 - threadIdx.x];\n"
              "}\n")
    kspec = spec("k", ("a", "inout", "float32"), ("n", "scalar", "int32"))
    build = backend.compile(source, kspec)
    assert build.compile.ok and build.handle.fast_text is not None
    out = backend.run(build, RunRequest(LaunchConfig((1, 1, 1), (64, 1, 1)), {"a": np.zeros(64, np.float32), "n": 64},
                                        time_limit_s=10, test_name="t"))
    assert out.status.value == "fault"
    assert any(d.line == 5 for d in out.diagnostics if d.kind is DiagnosticKind.OUT_OF_BOUNDS), out.diagnostics
