"""How the emulator runs a kernel is decided from what the kernel reaches (grader/core/emulator/reach.py):
a loop per block unless the kernel or a function or macro it names uses a barrier, a warp operation,
shared memory or atomics; what cannot be bounded by name counts the whole file, as before."""
import pytest

from grader.core.emulator.reach import kernel_reach
from grader.core.emulator.rewrite import rewrite
from grader.core.emulator.tokens import tokenize

HELPER_WITH_BARRIER = """
__device__ void tile_sync(float* s) { s[threadIdx.x] = 0; __syncthreads(); }
__global__ void other(float* a) { __shared__ float s[64]; tile_sync(s); a[0] = s[0]; }
__device__ float twice(float x) { return 2 * x; }
__global__ void scale(float* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = twice(a[i]);
}
"""


def reach(source, kernel):
    return kernel_reach(tokenize(source), kernel)


def test_barrier_free_kernel_loops_although_the_file_has_barriers_elsewhere():
    r = reach(HELPER_WITH_BARRIER, "scale")
    assert r.exact and r.loop and not r.serial
    assert r.names == {"scale", "twice"}
    assert not rewrite(HELPER_WITH_BARRIER, "scale").needs_fibers


def test_a_barrier_in_a_called_device_function_needs_fibers():
    r = reach(HELPER_WITH_BARRIER, "other")
    assert r.exact and not r.loop and r.shared
    assert "tile_sync" in r.names
    assert rewrite(HELPER_WITH_BARRIER, "other").needs_fibers


@pytest.mark.parametrize("body", [
    "__syncthreads();",
    "float v = __shfl_down_sync(0xffffffffu, 1.0f, 1);",
    "unsigned b = __ballot_sync(0xffffffffu, threadIdx.x & 1);",
    "cooperative_groups::this_thread_block().sync();",
    "__shared__ float s[32]; s[threadIdx.x] = 1;",
    "extern __shared__ float d[]; d[threadIdx.x] = 1;",
])
def test_each_feature_of_the_kernel_needs_fibers(body):
    source = "#include <cooperative_groups.h>\n__global__ void k(float* a) { " + body + " a[0] = 1; }\n"
    assert not reach(source, "k").loop
    assert rewrite(source, "k").needs_fibers


def test_through_two_calls_and_a_macro():
    source = """
#define BARRIER() __syncthreads()
__device__ void inner() { BARRIER(); }
__device__ void outer() { inner(); }
__global__ void k(int* a) { outer(); a[threadIdx.x] = 1; }
__global__ void free_of_it(int* a) { a[threadIdx.x] = 1; }
"""
    assert not reach(source, "k").loop
    assert {"k", "outer", "inner", "BARRIER"} <= reach(source, "k").names
    assert reach(source, "free_of_it").loop


def test_atomics_in_a_callee_are_serial_fibers_and_printf_is_serial_only_where_reached():
    source = """#include <cstdio>
__device__ void count(int* c) { atomicAdd(c, 1); }
__device__ void shout() { printf("hi\\n"); }
__global__ void k(int* c) { count(c); }
__global__ void quiet(int* c) { c[threadIdx.x] = 0; }
__global__ void loud(int* c) { shout(); c[threadIdx.x] = 0; }
"""
    assert reach(source, "k").serial and not reach(source, "k").loop
    assert reach(source, "quiet").loop and not reach(source, "quiet").serial
    assert reach(source, "loud").serial


def test_kernel_inside_a_namespace_and_extern_c():
    source = """namespace util { __device__ int id() { return threadIdx.x; } }
extern "C" { __global__ void k(int* a) { a[util::id()] = 1; } }
"""
    r = reach(source, "k")
    assert r.exact and r.loop and "id" in r.names


@pytest.mark.parametrize("source", [
    # a struct's method with a barrier: methods are not followed by name
    "struct Tile { __device__ void sync() { __syncthreads(); } };\n__global__ void k(int* a) { Tile t; t.sync(); a[0] = 1; }\n",
    # a struct body calling a function that synchronises
    "__device__ void bar() { __syncthreads(); }\nstruct S { __device__ void go() { bar(); } };\n"
    "__global__ void k(int* a) { S s; s.go(); a[0] = 1; }\n",
    # a macro with a barrier used at file scope (it may define a function)
    "#define DEFINE_STEP(name) __device__ void name() { __syncthreads(); }\nDEFINE_STEP(step)\n"
    "__global__ void k(int* a) { step(); a[0] = 1; }\n",
    # a volatile global
    "__device__ volatile int flag;\n__global__ void k(int* a) { a[0] = flag; }\n",
])
def test_what_cannot_be_bounded_by_name_counts_the_whole_file(source):
    r = reach(source, "k")
    assert not r.exact and not r.loop


def test_a_kernel_not_found_counts_the_whole_file():
    r = reach("__global__ void k(int* a) { __syncthreads(); }\n", "missing")
    assert not r.exact and not r.loop


EQUIVALENCE_KERNELS = {
    # a helper kernel with a barrier in the same file no longer sends `scale` to fibers
    "helper kernel elsewhere": (HELPER_WITH_BARRIER, "scale"),
    "grid-stride loop, early return": ("""
__device__ float leaky(float v) { return v > 0 ? v : 0.01f * v; }
__global__ void scale(float* a, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        if (a[i] == 7.0f) continue;
        a[i] = leaky(a[i] - 100.0f);
    }
    if (threadIdx.x == 5) return;
}
""", "scale"),
}


@pytest.mark.parametrize("name", sorted(EQUIVALENCE_KERNELS))
def test_loop_mode_and_fibers_give_the_same_outputs(backend, name):
    """The same barrier-free kernel run as a loop per block and forced onto fibers: the same bytes."""
    import numpy as np

    from grader.core.backends.base import LaunchConfig, RunRequest

    from .conftest import spec

    source, kernel = EQUIVALENCE_KERNELS[name]
    kspec = spec(kernel, ("a", "inout", "float32"), ("n", "scalar", "int32"))
    n = 1000
    outputs = {}
    for mode in ("loop", "fibers"):
        build = backend.compile(source, kspec)
        assert build.compile.ok, build.compile.log
        assert build.handle.needs_fibers is False
        build.handle.needs_fibers = mode == "fibers"
        request = RunRequest(LaunchConfig((3, 1, 1), (128, 1, 1)), {"a": np.arange(n, dtype=np.float32), "n": n},
                             time_limit_s=10.0, test_name="t")
        out = backend.run(build, request)
        backend.close(build)
        assert out.status.value == "ok", out.message
        outputs[mode] = out.outputs["a"]
    assert np.array_equal(outputs["loop"], outputs["fibers"])
