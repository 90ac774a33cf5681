"""The emulator reproduces what an H200 did (see /work/shared/CONTENT.md and device/README.md)."""
from __future__ import annotations

import numpy as np
import pytest

from grader.core.backends.base import RunStatus

from .conftest import kinds, spec

REDUCE4 = """#include <cuda_runtime.h>
__global__ void reduce4(float* y, float* x, int N) {
    extern __shared__ float tsum[];
    int id = threadIdx.x;
    int tid = blockDim.x * blockIdx.x + threadIdx.x;
    int stride = gridDim.x * blockDim.x;
    tsum[id] = 0.0f;
    for (int k = tid; k < N; k += stride)
        tsum[id] += x[k];
    __syncthreads();
    if (id < 256 && id + 256 < blockDim.x) tsum[id] += tsum[id + 256];
    __syncthreads();
    if (id < 128) tsum[id] += tsum[id + 128];
    __syncthreads();
    if (id < 64) tsum[id] += tsum[id + 64];
    __syncthreads();
    if (id < 32) tsum[id] += tsum[id + 32];
    __syncwarp();
    if (id < 16) tsum[id] += tsum[id + 16];
    __syncwarp();
    if (id < 8) tsum[id] += tsum[id + 8];
    __syncwarp();
    if (id < 4) tsum[id] += tsum[id + 4];
    __syncwarp();
    if (id < 2) tsum[id] += tsum[id + 2];
    __syncwarp();
    if (id == 0) y[blockIdx.x] = tsum[0] + tsum[1];
}
"""
REDUCE4_SPEC = spec("reduce4", ("y", "out", "float32"), ("x", "in", "float32"), ("N", "scalar", "int32"))


def _reduce4(run, threads):
    n = 1 << 15
    x = (np.arange(n) % 7).astype(np.float32)
    out = run(REDUCE4, REDUCE4_SPEC, (8, 1, 1), (threads, 1, 1),
              {"y": np.zeros(8, np.float32), "x": x, "N": n}, shared=threads * 4)
    return out, float(x.sum())


@pytest.mark.parametrize("threads", [256, 512])
def test_reduce4_right_for_256_and_512(run, threads):
    """The seed's reduce4 sums correctly with 256- and 512-thread blocks, with no diagnostic."""
    out, total = _reduce4(run, threads)
    assert out.status is RunStatus.OK, out.message
    assert out.outputs["y"].sum() == total
    assert out.diagnostics == []


@pytest.mark.parametrize("threads", [128, 1024])
def test_reduce4_wrong_for_128_and_1024(run, threads):
    """reduce4 is wrong at 128 threads (reads past the shared array: a fault here) and at 1024 (half the sum)."""
    out, total = _reduce4(run, threads)
    if threads == 128:
        assert out.status is RunStatus.FAULT
        assert "out_of_bounds" in kinds(out)
        assert out.diagnostics[0].detail["array"] == "tsum"
    else:
        assert out.status is RunStatus.OK
        assert out.outputs["y"].sum() != total


ONE_ARG = spec("k", ("out", "out", "int32"))


def test_partial_barrier_with_exited_threads_completes(run):
    """`if (t < 128) __syncthreads();` with the other threads exiting completes, with no diagnostic."""
    src = """__global__ void k(int* out) {
    int t = threadIdx.x;
    if (t >= 128) return;
    __syncthreads();
    out[t] = 1;
}"""
    out = run(src, ONE_ARG, (1, 1, 1), (256, 1, 1), {"out": np.zeros(256, np.int32)})
    assert out.status is RunStatus.OK
    assert out.diagnostics == []
    assert (out.outputs["out"][:128] == 1).all()


def test_barriers_in_both_branches_are_divergent(run):
    """Barriers in both branches of a divergent if complete, but give DIVERGENT_BARRIER with both lines."""
    src = """__global__ void k(int* out) {
    int t = threadIdx.x;
    if (t % 2) {
        out[t] = 1;
        __syncthreads();
    } else {
        __syncthreads();
        out[t] = 2;
    }
}"""
    out = run(src, ONE_ARG, (2, 1, 1), (64, 1, 1), {"out": np.zeros(64, np.int32)})
    assert out.status is RunStatus.OK
    assert kinds(out) == ["divergent_barrier"]
    d = out.diagnostics[0]
    assert {d.line, d.detail["other_line"]} == {5, 7}
    assert d.block == (0, 0, 0)


def test_spin_on_flag_set_after_barrier_is_deadlock(run):
    """Warps parked at a barrier while others spin on a flag set after it: DEADLOCK naming both lines."""
    src = """__global__ void k(int* out) {
    __shared__ volatile int flag;
    int t = threadIdx.x;
    if (t == 0) flag = 0;
    __syncthreads();
    if (t < 32) {
        while (flag == 0) { }
    } else {
        __syncthreads();
        flag = 1;
    }
    out[t] = 1;
}"""
    out = run(src, ONE_ARG, (1, 1, 1), (128, 1, 1), {"out": np.zeros(128, np.int32)})
    assert out.status is RunStatus.DEADLOCK
    d = out.diagnostics[0]
    assert str(d.kind) == "deadlock"
    assert d.line == 9
    assert d.detail["spin_line"] == 7
    assert "line 9" in d.message and "line 7" in d.message


def test_lanes_at_barrier_while_warp_op_waits_is_proven_deadlock(run):
    """Half a warp at __syncwarp and the other half at __syncthreads can never meet: DEADLOCK at once."""
    src = """__global__ void k(int* out) {
    int t = threadIdx.x;
    if (t < 16) __syncwarp();
    else __syncthreads();
    out[t] = 1;
}"""
    out = run(src, ONE_ARG, (1, 1, 1), (32, 1, 1), {"out": np.zeros(32, np.int32)})
    assert out.status is RunStatus.DEADLOCK
    assert out.diagnostics[0].detail["proven"] is True
    assert out.time_s < 1.0


WARP_SUM = spec("k", ("y", "out", "float32"), ("x", "in", "float32"))


def test_warp_synchronous_reduction_without_sync_is_wrong(run):
    """The legacy warp-synchronous reduction with neither volatile nor __syncwarp gives a wrong sum."""
    src = """__global__ void k(float* y, const float* x) {
    __shared__ float s[64];
    int t = threadIdx.x;
    s[t] = x[blockIdx.x * 64 + t];
    __syncthreads();
    if (t < 32) {
        s[t] += s[t + 32]; s[t] += s[t + 16]; s[t] += s[t + 8];
        s[t] += s[t + 4]; s[t] += s[t + 2]; s[t] += s[t + 1];
    }
    if (t == 0) y[blockIdx.x] = s[0];
}"""
    x = np.ones(256, np.float32)
    out = run(src, WARP_SUM, (4, 1, 1), (64, 1, 1), {"y": np.zeros(4, np.float32), "x": x})
    assert out.status is RunStatus.OK
    assert not (out.outputs["y"] == 64).all()


def test_warp_synchronous_reduction_with_syncwarp_is_right(run):
    """With __syncwarp between every read and write, the warp reduction is right and clean."""
    src = """__global__ void k(float* y, const float* x) {
    __shared__ float s[64];
    int t = threadIdx.x;
    s[t] = x[blockIdx.x * 64 + t];
    __syncthreads();
    if (t < 32) {
        float v = s[t];
        for (int off = 32; off > 0; off >>= 1) {
            v += s[t + off];
            __syncwarp();
            s[t] = v;
            __syncwarp();
        }
    }
    if (t == 0) y[blockIdx.x] = s[0];
}"""
    x = np.ones(256, np.float32)
    out = run(src, WARP_SUM, (4, 1, 1), (64, 1, 1), {"y": np.zeros(4, np.float32), "x": x})
    assert out.status is RunStatus.OK
    assert (out.outputs["y"] == 64).all()
    assert out.diagnostics == []


def test_missing_bounds_check_is_out_of_bounds(run):
    """A missing `if (i < n)` faults at the guard page: OUT_OF_BOUNDS with line, buffer and index."""
    src = """__global__ void k(const float* a, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    c[i] = 2.0f * a[i];
}"""
    kspec = spec("k", ("a", "in", "float32"), ("c", "out", "float32"), ("n", "scalar", "int32"))
    n = 1000
    out = run(src, kspec, (4, 1, 1), (256, 1, 1), {"a": np.ones(n, np.float32), "c": np.zeros(n, np.float32), "n": n})
    assert out.status is RunStatus.FAULT
    d = out.diagnostics[0]
    assert str(d.kind) == "out_of_bounds"
    assert d.line == 3
    assert d.detail["array"] == "a" and d.detail["index"] == 1000
    assert d.block == (3, 0, 0) and d.thread == (232, 0, 0)
    assert "IllegalAddress" in out.message


def test_extern_shared_with_zero_bytes_faults(run):
    """extern __shared__ used with 0 bytes of dynamic shared memory is an illegal address (as on H200)."""
    src = """__global__ void k(int* out) {
    extern __shared__ int buf[];
    buf[threadIdx.x] = 1;
    out[threadIdx.x] = buf[threadIdx.x];
}"""
    out = run(src, ONE_ARG, (1, 1, 1), (32, 1, 1), {"out": np.zeros(32, np.int32)})
    assert out.status is RunStatus.FAULT
    assert out.diagnostics[0].line == 3
    assert "0 bytes" in out.diagnostics[0].message


def test_barrier_inside_shrinking_condition_is_a_note(run):
    """A barrier inside `if (t < stride)` of a tree loop: the lanes that skip it only loop on and exit,
    touching no memory. By the barrier rule that is the same as exiting before it (the H200 completes
    it with the right sum, no checker notices): ACCEPTED with a NOTE on line 9, race-free in check mode."""
    src = """__global__ void k(int* out) {
    __shared__ int s[256];
    int t = threadIdx.x;
    s[t] = 1;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (t < stride) {
            s[t] += s[t + stride];
            __syncthreads();
        }
    }
    if (t == 0) out[0] = s[0];
}"""
    out = run(src, ONE_ARG, (1, 1, 1), (256, 1, 1), {"out": np.zeros(1, np.int32)}, check=True)
    assert out.status is RunStatus.OK
    assert kinds(out) == ["note"]
    assert out.diagnostics[0].line == 9
    assert out.outputs["out"][0] == 256


def test_tail_guard_return_before_barrier_is_legal(run):
    """`if (i >= n) return;` before a barrier (exited lanes inside a warp) completes with no diagnostic."""
    src = """__global__ void k(int* out, int n) {
    __shared__ int s[64];
    int t = threadIdx.x;
    if (t >= n) return;
    s[t] = t;
    __syncthreads();
    out[t] = s[n - 1 - t];
}"""
    out = run(src, spec("k", ("out", "out", "int32"), ("n", "scalar", "int32")), (1, 1, 1), (64, 1, 1),
              {"out": np.zeros(64, np.int32), "n": 50})
    assert out.status is RunStatus.OK
    assert out.diagnostics == []
    assert out.outputs["out"][:50].tolist() == list(range(49, -1, -1))


def test_barrier_skipped_by_half_a_warp_that_goes_on_working_is_a_race(run):
    """`if (threadIdx.x < 16) __syncthreads();` in the tree loop: lanes 16-31 skip it and go on
    executing the loop's reads and writes, which the barrier was meant to order. The skip is the
    rule's NOTE on line 8; the finding is the race the check pass reports on the loop's line."""
    src = """__global__ void k(int* out) {
    __shared__ int s[256];
    int t = threadIdx.x;
    s[t] = 1;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        if (threadIdx.x < 16) { __syncthreads(); }
    }
    if (t == 0) out[0] = s[0];
}"""
    out = run(src, ONE_ARG, (1, 1, 1), (256, 1, 1), {"out": np.zeros(1, np.int32)}, check=True)
    notes = [d for d in out.diagnostics if d.kind.value == "note"]
    assert notes and notes[0].line == 8
    assert notes[0].detail["arrived_lanes"] == "0x0000ffff" and notes[0].detail["skipped_lanes"] == "0xffff0000"
    races = [d for d in out.diagnostics if d.kind.value == "race"]
    assert races and races[0].line == 7


def test_whole_warps_leaving_after_a_barrier_are_legal(run):
    """Warps 4-7 pass the first barrier and exit; warps 0-3 meet at a second one: no diagnostic
    (exited threads do not take part in a barrier, and no warp is split)."""
    src = """__global__ void k(int* out) {
    __shared__ int s[256];
    int t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    if (t >= 128) return;
    s[t] += s[t + 128];
    __syncthreads();
    out[t] = s[127 - t];
}"""
    out = run(src, ONE_ARG, (1, 1, 1), (256, 1, 1), {"out": np.zeros(128, np.int32)})
    assert out.status is RunStatus.OK
    assert out.diagnostics == []
