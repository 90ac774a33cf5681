"""Device math functions, half precision and cooperative groups on the emulator, with CUDA's semantics.

Expected values are CUDA's documented results (__clz(0) = 32, __ffs(0) = 0, __saturatef(NaN) = 0,
__mul24 on the low 24 bits) and, for half precision, NumPy's IEEE float16 (round to nearest even).
"""
from __future__ import annotations

import numpy as np

from grader.core.backends.base import LaunchConfig, RunRequest, RunStatus
from grader.core.verdicts import DiagnosticKind

from .conftest import spec

BITS = """\
#include <cuda_runtime.h>
#include <math.h>
#define CHECKS 32
__global__ void bits(const float* f, unsigned* out)
{
    if (threadIdx.x != 0) return;
    float nan = f[0], x = f[1];  // NaN and 2.5
    unsigned r[CHECKS] = {
        (unsigned)__clz(0), (unsigned)__clz(1), (unsigned)__clz(-1), (unsigned)__clzll(0),
        (unsigned)__ffs(0), (unsigned)__ffs(8), (unsigned)__ffsll(1LL << 40), (unsigned)__popc(0xF0F0u),
        (unsigned)__popcll(~0ULL), __brev(1u), (unsigned)(__brevll(1ULL) >> 32), (unsigned)__mul24(0x1000001, 2),
        (unsigned)__mul24(-1, 3), __umul24(0x1000003u, 5u), __umulhi(0xFFFFFFFFu, 2u), (unsigned)__mulhi(-2, 0x40000000),
        __float_as_uint(__saturatef(nan)), __float_as_uint(__saturatef(1.5f)), __float_as_uint(__saturatef(-2.0f)),
        __float_as_uint(__saturatef(0.25f)), (unsigned)__float_as_int(1.0f), __float_as_uint(__int_as_float(0x40000000)),
        __float_as_uint(__uint_as_float(0x3f000000u)), __float_as_uint(exp10f(2.0f)), __float_as_uint(__exp10f(1.0f)),
        __float_as_uint(rintf(x)), __float_as_uint(rintf(x + 1.0f)), __float_as_uint(__powf(2.0f, 10.0f)),
        __float_as_uint(__fdividef(1.0f, 4.0f)), __float_as_uint(__expf(0.0f) + __logf(1.0f)),
        0u, 0u};
    float s, c;
    __sincosf(0.0f, &s, &c);
    r[30] = __float_as_uint(s + __sinf(0.0f));
    r[31] = __float_as_uint(c * __cosf(0.0f));
    for (int k = 0; k < CHECKS; ++k) out[k] = r[k];
}
"""


def _u(value: float) -> int:
    return int(np.float32(value).view(np.uint32))


def test_integer_intrinsics_and_fast_math_match_cuda(run):
    """Each intrinsic gives CUDA's documented result, edge cases included."""
    out = run(BITS, spec("bits", ("f", "in", "float32"), ("out", "out", "uint32")), (1, 1, 1), (32, 1, 1),
              {"f": np.array([np.nan, 2.5], np.float32), "out": np.zeros(32, np.uint32)})
    expected = [32, 31, 0, 64, 0, 4, 41, 8, 64, 0x80000000, 0x80000000, 2, (-3) & 0xFFFFFFFF, 15, 1,
                (-1) & 0xFFFFFFFF, _u(0), _u(1), _u(0), _u(0.25), 0x3F800000, _u(2), _u(0.5), _u(100), _u(10),
                _u(2), _u(4), _u(1024), _u(0.25), _u(1), _u(0), _u(1)]
    assert out.outputs["out"].tolist() == expected


HALF = """\
#include <cuda_fp16.h>
__global__ void halves(const float* a, const float* b, const float* c, float* sum, float* prod, float* fma, float* pair)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    half ha = __float2half(a[i]), hb = __float2half_rn(b[i]);
    __half hc = c[i];
    sum[i] = __half2float(__hadd(ha, hb));
    prod[i] = __half2float(ha * hb);
    fma[i] = __half2float(__hfma(ha, hb, hc));
    half2 p = __floats2half2_rn(a[i], b[i]);
    half2 q = __hadd2(p, __half2half2(hc));
    pair[i] = __low2float(q) - __high2float(q);
}
"""


def test_half_precision_rounds_like_ieee_float16(run):
    """__float2half rounds to nearest even, __hadd/__hmul/__hfma round once to half, overflow
    gives inf, half2 works lane by lane: the same as NumPy's float16."""
    rng = np.random.default_rng(3)
    n = 256
    a = (rng.standard_normal(n) * 100).astype(np.float32)
    b = (rng.standard_normal(n) * 10).astype(np.float32)
    c = rng.standard_normal(n).astype(np.float32)
    a[:2] = [65504, 0.1]
    b[:2] = [65504, 0.2]
    names = ("sum", "prod", "fma", "pair")
    kspec = spec("halves", ("a", "in", "float32"), ("b", "in", "float32"), ("c", "in", "float32"),
                 *((name, "out", "float32") for name in names))
    out = run(HALF, kspec, (2, 1, 1), (128, 1, 1), {"a": a, "b": b, "c": c, **{k: np.zeros(n, np.float32) for k in names}})
    ha, hb, hc = a.astype(np.float16), b.astype(np.float16), c.astype(np.float16)
    np.seterr(over="ignore")  # 65504 + 65504 overflows to inf on purpose
    assert np.array_equal(out.outputs["sum"], (ha + hb).astype(np.float32))
    assert np.isinf(out.outputs["sum"][0])
    assert np.array_equal(out.outputs["prod"], (ha * hb).astype(np.float32))
    exact = ha.astype(np.float64) * hb.astype(np.float64) + hc.astype(np.float64)
    assert np.array_equal(out.outputs["fma"], exact.astype(np.float16).astype(np.float32))
    pair = (ha + hc).astype(np.float32) - (hb + hc).astype(np.float32)
    assert np.array_equal(out.outputs["pair"], pair)


CG_REDUCE = """\
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
#define BLOCK 256
#define WARPS (BLOCK / 32)
extern "C" __global__ void block_sum(const float* in, float* out, float* tiles, int n)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    __shared__ float partial[WARPS];
    unsigned i = block.group_index().x * block.size() + block.thread_rank();
    float v = i < n ? in[i] : 0.0f;
    for (int offset = warp.size() / 2; offset > 0; offset /= 2)
        v += warp.shfl_down(v, offset);
    if (warp.thread_rank() == 0) partial[warp.meta_group_rank()] = v;
    block.sync();
    auto quarter = cg::tiled_partition<8>(block);
    float q = cg::reduce(quarter, i < n ? in[i] : 0.0f, cg::plus<float>());
    if (quarter.thread_rank() == 0) tiles[i / 8] = q;
    if (warp.meta_group_rank() == 0) {
        float s = warp.thread_rank() < WARPS ? partial[warp.thread_rank()] : 0.0f;
        s = cg::reduce(warp, s, cg::plus<float>());
        if (block.thread_rank() == 0) out[block.group_index().x] = s;
    }
}
"""


def test_cooperative_groups_tile_reduction(run):
    """this_thread_block, tiled_partition<32> with shfl_down, meta_group_rank, block.sync and
    cg::reduce over tiles of 32 and 8 give the block and tile sums."""
    n = 1000
    x = np.arange(n, dtype=np.float32) % 17
    kspec = spec("block_sum", ("in", "in", "float32"), ("out", "out", "float32"), ("tiles", "out", "float32"),
                 ("n", "scalar", "int32"))
    out = run(CG_REDUCE, kspec, (4, 1, 1), (256, 1, 1),
              {"in": x, "out": np.zeros(4, np.float32), "tiles": np.zeros(128, np.float32), "n": n})
    padded = np.concatenate([x, np.zeros(24, np.float32)])
    assert np.array_equal(out.outputs["out"], padded.reshape(4, 256).sum(axis=1))
    assert np.array_equal(out.outputs["tiles"], padded.reshape(128, 8).sum(axis=1))
    assert out.diagnostics == []


WARP_AGGREGATED = """\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// Warp-aggregated atomics (NVIDIA's blog): one atomicAdd per group of active lanes.
__device__ int atomicAggInc(int* counter)
{
    cg::coalesced_group active = cg::coalesced_threads();
    int base;
    if (active.thread_rank() == 0) base = atomicAdd(counter, (int)active.size());
    base = active.shfl(base, 0);
    return base + active.thread_rank();
}
__global__ void filter(const int* in, int* out, int* count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && in[i] > 0) out[atomicAggInc(count)] = in[i];
}
"""


def test_coalesced_threads_groups_the_lanes_that_arrive_together(run):
    """coalesced_threads() inside a branch is the lanes that took it: the warp-aggregated counter
    hands out every slot exactly once and the kept values are the positive ones."""
    rng = np.random.default_rng(5)
    n = 500
    x = rng.integers(-5, 5, n).astype(np.int32)
    kspec = spec("filter", ("in", "in", "int32"), ("out", "inout", "int32"), ("count", "inout", "int32"),
                 ("n", "scalar", "int32"))
    out = run(WARP_AGGREGATED, kspec, (4, 1, 1), (128, 1, 1),
              {"in": x, "out": np.full(n, -1, np.int32), "count": np.zeros(1, np.int32), "n": n})
    kept = int((x > 0).sum())
    assert out.outputs["count"][0] == kept
    assert sorted(out.outputs["out"][:kept].tolist()) == sorted(x[x > 0].tolist())
    assert (out.outputs["out"][kept:] == -1).all()


GRID_SYNC = """\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void two_phase(float* data, float* out, int n)
{
    cg::grid_group grid = cg::this_grid();
    unsigned i = grid.thread_rank();
    if (i < n) data[i] *= 2.0f;
    grid.sync();
    if (i < n) out[i] = data[i] + data[n - 1 - i];
}
"""


def test_grid_sync_without_a_cooperative_launch_is_cudas_launch_failure(backend):
    """grid.sync() in an ordinary launch stops the kernel as the hardware does: a CUDA error
    naming CUDA_ERROR_LAUNCH_FAILED and the line."""
    kspec = spec("two_phase", ("data", "inout", "float32"), ("out", "out", "float32"), ("n", "scalar", "int32"))
    build = backend.compile(GRID_SYNC, kspec)
    assert build.compile.ok, build.compile.log
    try:
        inputs = {"data": np.arange(64, dtype=np.float32), "out": np.zeros(64, np.float32), "n": 64}
        out = backend.run(build, RunRequest(LaunchConfig((2, 1, 1), (32, 1, 1)), inputs, test_name="t"))
        assert out.status is RunStatus.FAULT
        assert [(d.kind, d.line) for d in out.diagnostics] == [(DiagnosticKind.CUDA_ERROR, 8)]
        assert "CUDA_ERROR_LAUNCH_FAILED" in out.diagnostics[0].message
        assert out.diagnostics[0].message.params == {"line": 8}  # a catalogue message (translated at the edge)
        one = backend.run(build, RunRequest(LaunchConfig((1, 1, 1), (64, 1, 1), cooperative=True), inputs,
                                            test_name="t"))
        assert one.status is RunStatus.OK
        doubled = 2 * np.arange(64, dtype=np.float32)
        assert np.array_equal(one.outputs["out"], doubled + doubled[::-1])
    finally:
        backend.close(build)


def test_grid_sync_in_a_cooperative_launch_is_a_grid_wide_barrier(backend):
    """With LaunchConfig.cooperative the blocks are co-resident: every block's writes before
    grid.sync() are seen by every block after it (here each thread reads another block's element),
    and each block keeps its own shared memory across the barrier."""
    src = """\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#define BLOCK 64
__global__ void two_phase(float* data, float* out, int n)
{
    __shared__ float mine[BLOCK];
    cg::grid_group grid = cg::this_grid();
    unsigned i = grid.thread_rank();
    mine[threadIdx.x] = (float)blockIdx.x;
    if (i < n) data[i] *= 2.0f;
    grid.sync();
    if (i < n) out[i] = data[n - 1 - i] + 1000.0f * mine[threadIdx.x];
}
"""
    kspec = spec("two_phase", ("data", "inout", "float32"), ("out", "out", "float32"), ("n", "scalar", "int32"))
    build = backend.compile(src, kspec)
    assert build.compile.ok, build.compile.log
    try:
        n = 256
        inputs = {"data": np.arange(n, dtype=np.float32), "out": np.zeros(n, np.float32), "n": n}
        out = backend.run(build, RunRequest(LaunchConfig((4, 1, 1), (64, 1, 1), cooperative=True), inputs,
                                            test_name="t"))
        assert out.status is RunStatus.OK, out.message
        expected = 2 * np.arange(n, dtype=np.float32)[::-1] + 1000.0 * (np.arange(n) // 64)
        assert np.array_equal(out.outputs["out"], expected)
        # The race check orders the blocks' accesses by the grid barrier: no race is reported.
        checked = backend.run(build, RunRequest(LaunchConfig((4, 1, 1), (64, 1, 1), cooperative=True), inputs,
                                                test_name="t", check=True))
        assert checked.status is RunStatus.OK, checked.message
        assert [d for d in checked.diagnostics if d.kind is DiagnosticKind.RACE] == []
    finally:
        backend.close(build)


def test_grid_sync_waiting_for_an_exited_block_is_a_deadlock(backend):
    """A block that returns before grid.sync() never arrives: the others wait forever (DEADLOCK)."""
    src = """\
#include <cooperative_groups.h>
__global__ void k(float* data, int n)
{
    if (blockIdx.x == 1) return;
    cooperative_groups::this_grid().sync();
    data[threadIdx.x] = 1.0f;
}
"""
    kspec = spec("k", ("data", "inout", "float32"), ("n", "scalar", "int32"))
    build = backend.compile(src, kspec)
    assert build.compile.ok, build.compile.log
    try:
        out = backend.run(build, RunRequest(LaunchConfig((3, 1, 1), (32, 1, 1), cooperative=True),
                                            {"data": np.zeros(32, np.float32), "n": 32}, test_name="t"))
        assert out.status is RunStatus.DEADLOCK
        assert [(d.kind, d.line) for d in out.diagnostics] == [(DiagnosticKind.DEADLOCK, 5)]
        assert out.diagnostics[0].message.params["line"] == 5
    finally:
        backend.close(build)
