"""Warp operations, atomics, forward progress, launch validation and compile-time checks."""
from __future__ import annotations

import numpy as np

from grader.core.backends.base import LaunchConfig, RunRequest, RunStatus

from .conftest import kinds, spec

ONE_ARG = spec("k", ("out", "out", "int32"))


def test_shfl_reduction_is_per_warp(run):
    """In a 64-thread block the two warps reduce independently with __shfl_down_sync."""
    src = """__global__ void k(int* out) {
    int v = threadIdx.x;
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffff, v, off);
    if (threadIdx.x % 32 == 0) out[threadIdx.x / 32] = v;
}"""
    out = run(src, ONE_ARG, (1, 1, 1), (64, 1, 1), {"out": np.zeros(2, np.int32)})
    assert out.status is RunStatus.OK
    assert out.outputs["out"].tolist() == [sum(range(32)), sum(range(32, 64))]
    assert out.diagnostics == []


def test_full_mask_shfl_in_small_block_reads_zero_from_absent_lanes(run):
    """A full-mask shfl in a 16-thread block: lanes reading absent lanes get 0, and nothing is reported."""
    src = """__global__ void k(int* out) {
    int t = threadIdx.x;
    out[t] = __shfl_down_sync(0xffffffff, t + 100, 8);
}"""
    out = run(src, ONE_ARG, (1, 1, 1), (16, 1, 1), {"out": np.zeros(16, np.int32)})
    assert out.status is RunStatus.OK
    assert out.outputs["out"].tolist() == [t + 108 for t in range(8)] + [0] * 8
    assert out.diagnostics == []


def test_ballot_and_shfl_xor_semantics(run):
    """__ballot_sync sets one bit per lane; __shfl_xor_sync with width 8 stays inside its segment."""
    src = """__global__ void k(int* out) {
    int t = threadIdx.x;
    unsigned b = __ballot_sync(0xffffffff, t % 3 == 0);
    int x = __shfl_xor_sync(0xffffffff, t, 4, 8);
    out[t] = (t == 0) ? (int)b : x;
}"""
    out = run(src, ONE_ARG, (1, 1, 1), (32, 1, 1), {"out": np.zeros(32, np.int32)})
    got = out.outputs["out"]
    assert got[0] == np.int32(np.uint32(sum(1 << i for i in range(0, 32, 3))).view(np.int32))
    assert got[1:].tolist() == [t ^ 4 for t in range(1, 32)]


def test_ballot_by_one_lane_while_the_rest_exit_holds_that_lane_only(run):
    """__ballot_sync(0xffffffff, ...) reached by one lane while the rest exit: exited lanes do not take
    part ("all non-exited threads named in mask"), as the H200 did on 2026-12-02 (the vote held lane 0's
    bit, every sanitizer clean; docs/synchronization.md row 12). No WARP_MASK: the output decides."""
    src = """__global__ void k(int* out) {
    if (threadIdx.x != 0) return;
    out[0] = __ballot_sync(0xffffffff, 1);
}"""
    out = run(src, ONE_ARG, (1, 1, 1), (32, 1, 1), {"out": np.zeros(1, np.int32)})
    assert out.status is RunStatus.OK
    assert "warp_mask" not in kinds(out)
    assert out.outputs["out"][0] == 1


def test_shuffle_reading_an_exited_lane_is_warp_mask_error(run):
    """A full-mask __shfl_down_sync whose source lane exited reads an undefined value: WARP_MASK at its line;
    the lanes that read only live lanes are fine."""
    src = """__global__ void k(int* out) {
    if (threadIdx.x >= 24) return;
    out[threadIdx.x] = __shfl_down_sync(0xffffffff, (int)threadIdx.x, 8);
}"""
    out = run(src, ONE_ARG, (1, 1, 1), (32, 1, 1), {"out": np.zeros(32, np.int32)})
    found = [d for d in out.diagnostics if str(d.kind) == "warp_mask"]
    assert found and found[0].line == 3
    assert out.outputs["out"][:16].tolist() == list(range(8, 24))


def test_spin_lock_among_lanes_of_one_warp_completes(run):
    """A spin lock contended by the lanes of one warp completes (independent thread scheduling)."""
    src = """__global__ void k(int* lock, int* counter) {
    while (atomicCAS(lock, 0, 1) != 0) { }
    for (int i = 0; i < 1000; i++) {
        int c = *(volatile int*)counter;
        *(volatile int*)counter = c + 1;
    }
    __threadfence();
    atomicExch(lock, 0);
}"""
    kspec = spec("k", ("lock", "inout", "int32"), ("counter", "inout", "int32"))
    out = run(src, kspec, (1, 1, 1), (32, 1, 1), {"lock": np.zeros(1, np.int32), "counter": np.zeros(1, np.int32)})
    assert out.status is RunStatus.OK
    assert out.outputs["counter"][0] == 32 * 1000


def test_spin_on_flag_set_by_another_thread_completes(run):
    """A thread spinning on a shared flag that another thread of its block sets makes progress."""
    src = """__global__ void k(int* out) {
    __shared__ volatile int flag;
    int t = threadIdx.x;
    if (t == 0) flag = 0;
    __syncthreads();
    if (t == 1) { while (flag == 0) { } out[0] = 42; }
    if (t == 40) flag = 1;
}"""
    out = run(src, ONE_ARG, (1, 1, 1), (64, 1, 1), {"out": np.zeros(1, np.int32)})
    assert out.status is RunStatus.OK
    assert out.outputs["out"][0] == 42


def test_float_atomics_are_deterministic(run):
    """Blocks using atomics run on one worker, so a float atomicAdd sum is bit-identical run to run."""
    src = """__global__ void k(float* sum, const float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(sum, x[i]);
}"""
    kspec = spec("k", ("sum", "inout", "float32"), ("x", "in", "float32"), ("n", "scalar", "int32"))
    x = np.random.default_rng(1).random(5000).astype(np.float32)
    a = run(src, kspec, (20, 1, 1), (256, 1, 1), {"sum": np.zeros(1, np.float32), "x": x, "n": 5000})
    b = run(src, kspec, (20, 1, 1), (256, 1, 1), {"sum": np.zeros(1, np.float32), "x": x, "n": 5000})
    assert a.outputs["sum"].tobytes() == b.outputs["sum"].tobytes()
    assert abs(a.outputs["sum"][0] - x.sum()) < 1e-2


def test_syncthreads_count_and_printf(run):
    """__syncthreads_count counts the predicate over the block; device printf is captured in the log."""
    src = """#include <cstdio>
__global__ void k(int* out) {
    int c = __syncthreads_count(threadIdx.x % 4 == 0);
    if (threadIdx.x == 0) { out[0] = c; printf("count=%d\\n", c); }
}"""
    out = run(src, ONE_ARG, (1, 1, 1), (128, 1, 1), {"out": np.zeros(1, np.int32)})
    assert out.outputs["out"][0] == 32
    assert out.log == "count=32\n"


def test_launch_validation_uses_cuda_error_names(backend):
    """Too many threads or zero dims: cudaErrorInvalidConfiguration; 64 KiB dynamic smem: cudaErrorInvalidValue."""
    build = backend.compile("__global__ void k(int* out) { out[0] = 1; }", ONE_ARG)
    try:
        for launch, name in [
            (LaunchConfig((1, 1, 1), (2048, 1, 1)), "cudaErrorInvalidConfiguration"),
            (LaunchConfig((0, 1, 1), (32, 1, 1)), "cudaErrorInvalidConfiguration"),
            (LaunchConfig((1, 1, 1), (32, 1, 1), 64 * 1024), "cudaErrorInvalidValue"),
        ]:
            out = backend.run(build, RunRequest(launch, {"out": np.zeros(1, np.int32)}))
            assert out.status is RunStatus.LAUNCH_ERROR
            assert name in out.message
            assert kinds(out) == ["launch_error"]
    finally:
        backend.close(build)


def test_compile_error_has_student_line(backend):
    """A g++ error is reported at the line of the student's source (our prelude and rewrites shift nothing)."""
    src = """#include <cuda_runtime.h>
__global__ void k(int* out) {
    __shared__ float s[32];
    out[0] = undefined_name;
}"""
    build = backend.compile(src, ONE_ARG)
    assert not build.compile.ok
    errors = [m for m in build.compile.messages if m.severity == "error"]
    assert errors[0].line == 4
    assert "undefined_name" in errors[0].message


def test_static_checks_reject_host_escapes(backend):
    """`#include "/etc/passwd"`, inline asm and host launches are compile errors with their lines."""
    src = """#include "/etc/passwd"
__global__ void k(int* out) {
    asm("nop");
    out[0] = 1;
}
void host() { k<<<1, 1>>>(0); }"""
    build = backend.compile(src, ONE_ARG)
    assert not build.compile.ok
    lines = {m.line: m.message for m in build.compile.messages}
    assert "/etc/passwd" in lines[1]
    assert "asm" in lines[3]
    assert "harness launches" in lines[6]


def test_fast_path_vector_add_and_cache(backend):
    """A kernel without synchronisation runs on the fast path; the second compile comes from the cache."""
    src = """__global__ void k(const float* a, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] * 2.0f;
}"""
    kspec = spec("k", ("a", "in", "float32"), ("c", "out", "float32"), ("n", "scalar", "int32"))
    backend.close(backend.compile(src, kspec))
    build = backend.compile(src, kspec)
    assert build.compile.cached
    assert not build.handle.needs_fibers
    n = 1 << 20
    a = np.arange(n, dtype=np.float32)
    out = backend.run(build, RunRequest(LaunchConfig(((n + 255) // 256, 1, 1), (256, 1, 1)), {"a": a, "c": np.zeros(n, np.float32), "n": n}))
    backend.close(build)
    assert (out.outputs["c"] == 2 * a).all()


def test_cooperative_groups_block_sync(run):
    """cooperative_groups::this_thread_block().sync() is a block barrier, reported at the caller's line."""
    src = """#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int* out) {
    __shared__ int s[64];
    cg::thread_block block = cg::this_thread_block();
    s[block.thread_rank()] = threadIdx.x;
    if (threadIdx.x % 2) block.sync();
    else cg::sync(block);
    out[threadIdx.x] = s[63 - threadIdx.x];
}"""
    out = run(src, ONE_ARG, (1, 1, 1), (64, 1, 1), {"out": np.zeros(64, np.int32)})
    assert out.outputs["out"].tolist() == list(range(63, -1, -1))
    assert kinds(out) == ["divergent_barrier"]
    assert {out.diagnostics[0].line, out.diagnostics[0].detail["other_line"]} == {7, 8}
