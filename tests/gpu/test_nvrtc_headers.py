"""NVRTC takes the kernel files nvcc takes (gpu/nvrtc_headers.py): INFINITY, INT_MAX and M_PI without an
include, <climits> and <cfloat>. Each of these went to nvcc before (0.4-1.9 s a compile instead of 20-90 ms:
11 of the bank's 160 sources).

The real compiler child in its sandbox (NVRTC needs no GPU: these run on CPU machines with cuda-bindings);
the GPU children are fake ones. Where nvcc is on the machine, the tests also ask it whether it agrees."""
from __future__ import annotations

import pytest

from grader.core.backends.base import ArgRole, ArgSpec, KernelSpec
from grader.core.gpu import nvrtc_headers
from tests.gpu.test_nvrtc import _nvrtc_loads, backend  # noqa: F401 (backend: test_nvrtc's fixture)

pytestmark = pytest.mark.skipif(not _nvrtc_loads(), reason="NVRTC (cuda-bindings, nvidia-cuda-nvrtc) is not installed")

SPEC = KernelSpec("row_max", (ArgSpec("x", ArgRole.IN, "float32"), ArgSpec("y", ArgRole.OUT, "float32"),
                              ArgSpec("n", ArgRole.SCALAR, "int32")))

# A softmax-style row maximum as students write it: no include at all, -INFINITY as the identity.
ROW_MAX = """\
#define TILE 256
extern "C" __global__ void row_max(const float* x, float* y, int n)
{
    __shared__ float s[TILE];
    float m = -INFINITY;
    for (int i = threadIdx.x; i < n; i += TILE) m = fmaxf(m, x[i]);
    s[threadIdx.x] = m;
    __syncthreads();
    for (int stride = TILE / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) s[threadIdx.x] = fmaxf(s[threadIdx.x], s[threadIdx.x + stride]);
        __syncthreads();
    }
    if (threadIdx.x == 0) y[0] = s[0] * (float)M_PI / (float)M_PI;
}
"""

# The same reduction through cooperative groups (the toolkit's header: still nvcc's).
CG_ROW_MAX = """\
#include <cooperative_groups.h>
#include <climits>
#include <cfloat>
namespace cg = cooperative_groups;

template <int TILE>
__device__ float tile_max(cg::thread_block_tile<TILE> tile, float v)
{
    for (int offset = TILE / 2; offset > 0; offset /= 2) v = fmaxf(v, tile.shfl_down(v, offset));
    return v;
}

extern "C" __global__ void row_max(const float* x, float* y, int n)
{
    cg::thread_block block = cg::this_thread_block();
    auto warp = cg::tiled_partition<32>(block);
    __shared__ float partial[32];
    float m = -FLT_MAX;
    for (int i = block.thread_rank(); i < n && i < INT_MAX; i += block.size()) m = fmaxf(m, x[i]);
    m = tile_max<32>(warp, m);
    if (warp.thread_rank() == 0) partial[warp.meta_group_rank()] = m;
    block.sync();
    if (warp.meta_group_rank() == 0) {
        m = warp.thread_rank() < warp.meta_group_size() ? partial[warp.thread_rank()] : -FLT_MAX;
        m = tile_max<32>(warp, m);
        if (warp.thread_rank() == 0) y[0] = m;
    }
}
"""


def test_infinity_and_m_pi_without_an_include_compile_with_nvrtc(backend):
    build = backend.compile(ROW_MAX, SPEC)
    assert build.compile.ok and build.handle.compiler == "nvrtc"
    assert build.resources.registers and build.resources.shared_static_bytes == 256 * 4


def test_nvcc_agrees_that_these_compile(backend, nvcc, tmp_path):
    """The prelude defines only what nvcc's implicit headers give: nvcc compiles the same source."""
    import subprocess

    (tmp_path / "k.cu").write_text(ROW_MAX)
    done = subprocess.run([nvcc, "-arch=sm_90", "-cubin", "-o", str(tmp_path / "k.cubin"), str(tmp_path / "k.cu")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_flt_max_without_cfloat_is_still_refused_as_nvcc_refuses_it(backend, nvcc):
    """nvcc has no FLT_MAX without <cfloat>: neither does NVRTC, and the source is nvcc's compile error."""
    source = ROW_MAX.replace("-INFINITY", "-FLT_MAX")
    build = backend.compile(source, SPEC)
    assert not build.compile.ok
    assert [m.line for m in build.compile.messages if m.severity == "error"] == [5]


def test_a_cooperative_groups_kernel_is_still_nvccs(backend, nvcc):
    """<cooperative_groups.h> is the toolkit's, not given to NVRTC (nvrtc_headers.py says why): nvcc compiles it."""
    build = backend.compile(CG_ROW_MAX, SPEC)
    assert build.compile.ok and build.handle.compiler == "nvcc", build.compile.log


def test_climits_and_cfloat_compile_with_nvrtc(backend):
    source = "#include <climits>\n#include <cfloat>\n" + ROW_MAX.replace("-INFINITY", "-FLT_MAX + 0 * INT_MAX")
    build = backend.compile(source, SPEC)
    assert build.compile.ok and build.handle.compiler == "nvrtc", build.compile.log


def test_the_prelude_is_given_only_to_sources_that_name_its_macros():
    assert nvrtc_headers.extra_options("float m = -INFINITY;") == [f"--pre-include={nvrtc_headers.PRELUDE_NAME}"]
    assert nvrtc_headers.extra_options("int m = MY_INT_MAX_;") == []
    assert nvrtc_headers.extra_options("float m = 1.0f; // INFINITY_LIKE") == []
