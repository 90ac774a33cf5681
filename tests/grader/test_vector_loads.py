"""16-byte vector accesses on the emulator (float4, int4, double2 through reinterpret_cast, as real
kernels vectorise): buffers start 16-byte aligned as cudaMalloc's do, so a correct kernel is not a
"null pointer read" (the CPU's aligned SSE moves fault on a misaligned address, which Linux reports
as address 0), and a write into the up to 15 bytes between such a buffer's end and its guard page is
still an out-of-bounds write naming the buffer and the index."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from grader.core.emulator.rewrite import rewrite
from grader.core.validate import validate_package
from grader.core.verdicts import Verdict
from problems.core.package import load_package

BANK = Path(__file__).resolve().parents[2] / "problems" / "bank"

GRID_STRIDE_FLOAT4 = r'''
#define ALPHA 0.1f
extern "C" __global__ void leaky_relu4(const float* __restrict__ x, float* __restrict__ y, int n)
{
    const float4* x4 = reinterpret_cast<const float4*>(x);
    float4* y4 = reinterpret_cast<float4*>(y);
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n / 4; i += stride) {
        float4 v = x4[i];
        v.x = v.x > 0.f ? v.x : ALPHA * v.x;  v.y = v.y > 0.f ? v.y : ALPHA * v.y;
        v.z = v.z > 0.f ? v.z : ALPHA * v.z;  v.w = v.w > 0.f ? v.w : ALPHA * v.w;
        y4[i] = v;
    }
    for (int j = 4 * (n / 4) + blockIdx.x * blockDim.x + threadIdx.x; j < n; j += stride)
        y[j] = x[j] > 0.f ? x[j] : ALPHA * x[j];
}
'''

# Copies x into y as float4s when the vector's first element exists: the last float4 stores up to
# three floats past the end of y, inside its 16-byte-aligned slack, before the guard page.
STORE_PAST_END = r'''
__global__ void leaky_relu4(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (4 * i < n) {
        float4 v = make_float4(x[4 * i], 4 * i + 1 < n ? x[4 * i + 1] : 0.f, 4 * i + 2 < n ? x[4 * i + 2] : 0.f, 0.f);
        v.x = v.x > 0.f ? v.x : 0.1f * v.x;  v.y = v.y > 0.f ? v.y : 0.1f * v.y;  v.z = v.z > 0.f ? v.z : 0.1f * v.z;
        reinterpret_cast<float4*>(y)[i] = v;
    }
}
'''


@pytest.fixture(scope="module")
def emulator():
    from grader.core.backends.registry import get_backend

    return get_backend("emulator")


def _judged(emulator, source: str):
    package = load_package(BANK / "leaky-relu-float4")
    [row] = validate_package(replace(package, solution=source, wrong=()), emulator)
    return row.result


def test_the_rewriter_marks_16_byte_vector_types_and_leaves_plain_kernels_alone():
    assert rewrite(GRID_STRIDE_FLOAT4, "leaky_relu4").vector_loads
    assert rewrite("__global__ void k(double* a) { double2 v; a[0] = v.x; }", "k").vector_loads
    assert not rewrite("__global__ void k(float* a, int n) { float2 v; a[0] = v.x + n; }", "k").vector_loads


@pytest.mark.slow
def test_a_grid_stride_float4_kernel_with_a_scalar_tail_is_accepted(emulator):
    result = _judged(emulator, GRID_STRIDE_FLOAT4)
    assert result.verdict is Verdict.ACCEPTED, result.message


@pytest.mark.slow
def test_a_float4_store_into_the_aligned_slack_past_the_end_is_an_out_of_bounds_write(emulator):
    result = _judged(emulator, STORE_PAST_END)
    assert result.verdict is Verdict.MEMORY_ERROR
    assert "out-of-bounds write of global buffer 'y' at index 7" in result.message  # n = 7: y[7] is one past
