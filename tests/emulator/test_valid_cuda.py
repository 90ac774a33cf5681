"""Valid CUDA that must compile on the emulator: extern "C", harmless attributes; and what must not:
dangerous attributes, C-linkage declarations of undefined functions, writes to __constant__ memory."""
from __future__ import annotations

import numpy as np
import pytest

from grader.core.emulator.rewrite import rewrite

from .conftest import spec

SCALE = spec("scale", ("x", "in", "float32"), ("y", "out", "float32"), ("n", "scalar", "int32"))


def _scale_inputs(n=300):
    return {"x": np.arange(n, dtype=np.float32), "y": np.zeros(n, np.float32), "n": n}


EXTERN_C_KERNEL = """\
#define BLOCK 128
__device__ __forceinline__ float twice(float v) { return 2.0f * v; }
extern "C" __device__ float plus_one(float v);
extern "C" __global__ void __launch_bounds__(BLOCK) scale(const float* __restrict__ x, float* __restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = plus_one(twice(x[i]));
}
extern "C" __device__ float plus_one(float v) { return v + 1.0f; }
"""

EXTERN_C_BLOCK = """\
#include <cuda_runtime.h>
#define TILE 16
extern "C" {
struct Pair { float a, b; };
__device__ __noinline__ float helper(Pair p);
__global__ void scale(const float* x, float* y, int n)
{
    __shared__ float tile[TILE * 8];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    tile[t] = i < n ? x[i] : 0.0f;
    __syncthreads();
    if (i < n) y[i] = helper(Pair{tile[t], 1.0f});
}
__device__ float helper(Pair p) { return 2.0f * p.a + p.b; }
}  // extern "C"
"""


@pytest.mark.parametrize("source", [EXTERN_C_KERNEL, EXTERN_C_BLOCK], ids=["extern-c-kernel", "extern-c-block"])
def test_extern_c_kernels_and_device_functions_compile_and_run(run, source):
    """`extern "C" __global__`, `extern "C" __device__` (declared, defined later) and an
    `extern "C" { ... }` block around a kernel, a struct and a device function are accepted."""
    out = run(source, SCALE, (3, 1, 1), (128, 1, 1), _scale_inputs())
    assert np.array_equal(out.outputs["y"], 2 * np.arange(300, dtype=np.float32) + 1)


@pytest.mark.parametrize("source,name", [
    ('extern "C" int strverscmp(const char*, const char*);\n', "strverscmp"),
    ('extern "C" { char* strfry(char*); }\n', "strfry"),
    ('extern "C" { __device__ int strlen(const char*); }\n', "strlen"),
    ('extern "C" __device__ void* memfrob(void*, unsigned long);\n', "memfrob"),
])
def test_a_c_linkage_declaration_of_a_function_the_file_does_not_define_is_refused(source, name):
    """What the refusal of extern was for: declaring a C library function the name checks do not
    know. Refused with the name and its line; the kernel after it is not blamed."""
    problems = rewrite(source + '__global__ void k(int* o) { o[0] = 1; }\n', "k").problems
    assert [(p.line, name in p.message and "extern" in p.message) for p in problems] == [(1, True)]


@pytest.mark.parametrize("source", ["extern int counter;\n", 'extern "C" int counter;\n', "extern float table[16];\n"])
def test_extern_variables_are_still_refused(source):
    problems = rewrite(source + "__global__ void k(int* o) { o[0] = 1; }\n", "k").problems
    assert [p.line for p in problems] == [1] and "extern declarations are not allowed" in problems[0].message


HARMLESS_ATTRIBUTES = """\
#define INLINE __attribute__((always_inline)) inline
struct __attribute__((aligned(16))) Vec { float v[4]; };
INLINE __device__ float square(float v) { return v * v; }
__device__ __attribute__((noinline)) float cube(float v) { return v * v * v; }
static __attribute__((unused)) __device__ float never_called(float v) { return v; }
[[maybe_unused]] static const int kSpare = 3;
__global__ void scale(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    [[maybe_unused]] __attribute__((unused)) int debug = i;
    Vec acc = {{0, 0, 0, 0}};
    if (i < n) { acc.v[0] = square(x[i]) + cube(1.0f); y[i] = acc.v[0]; }
}
"""


def test_harmless_attributes_compile_and_run(run):
    """always_inline, noinline, unused, aligned (in a macro too) and [[maybe_unused]] are accepted."""
    out = run(HARMLESS_ATTRIBUTES, SCALE, (3, 1, 1), (128, 1, 1), _scale_inputs())
    assert np.array_equal(out.outputs["y"], np.arange(300, dtype=np.float32) ** 2 + 1)


@pytest.mark.parametrize("attribute", ["constructor", "destructor", "section(\".init\")", "alias(\"k\")", "weak",
                                       "visibility(\"default\")", "ifunc(\"r\")", "cleanup(f)", "no_sanitize_thread",
                                       "__constructor__", "always_inline, constructor(101)"])
def test_dangerous_attributes_are_refused_by_name(attribute):
    """An attribute that runs code before main, moves or aliases symbols, or hides accesses from
    the race check is a compile error naming it; GNU, C++11 and macro spellings alike."""
    name = attribute.split(", ")[-1].split("(")[0]
    for source in (f"__attribute__(({attribute})) static void f(int*) {{}}\n",
                   f"#define ATTR __attribute__(({attribute}))\nATTR static void f(int*) {{}}\n",
                   f"[[gnu::{attribute}]] static void f(int*) {{}}\n"):
        problems = rewrite(source + "__global__ void k(int* o) { o[0] = 1; }\n", "k").problems
        assert problems and all(p.line in (1, 2) for p in problems), source
        assert any(name in p.message and "is not allowed" in p.message for p in problems), (source, problems)


CONSTANT_WRITES = """\
__constant__ float coeffs[4] = {1, 2, 3, 4};
__constant__ int count = 3;
struct Params { float scale; };
__constant__ Params params;
__global__ void k(float* o)
{
    o[0] = coeffs[1] * count * params.scale;
    coeffs[0] = 1.0f;
    count += 2;
    params.scale = 2;
    ++count;
    if (count == 3 && coeffs[2] >= 1.0f) o[1] = 0;
}
"""


def test_writes_to_constant_memory_are_refused_as_nvcc_refuses_them():
    """Each write to a __constant__ variable (element, scalar, member, increment) is a compile
    error on its line; reads and comparisons are not."""
    problems = rewrite(CONSTANT_WRITES, "k").problems
    assert [p.line for p in problems] == [8, 9, 10, 11]
    assert all("modifiable lvalue" in p.message and "__constant__" in p.message for p in problems)
    assert "'count'" in problems[1].message


def test_reading_constant_memory_compiles(run):
    src = ("__constant__ float kScale = 3.0f;\n"
           "__global__ void scale(const float* x, float* y, int n)\n"
           "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = kScale * x[i]; }\n")
    out = run(src, SCALE, (3, 1, 1), (128, 1, 1), _scale_inputs())
    assert np.array_equal(out.outputs["y"], 3 * np.arange(300, dtype=np.float32))


STATIC_SMEM = """\
#define ELEMS ELEMS_VALUE
#define TILE 1024
__global__ void other(float* o) { __shared__ float unused[12288]; unused[threadIdx.x] = 1; o[0] = unused[5]; }
__global__ void scale(const float* x, float* y, int n)
{
    __shared__ float buf[ELEMS];
    __shared__ int tags[TILE];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    buf[t] = i < n ? x[i] : 0.0f;
    tags[t] = t;
    __syncthreads();
    if (i < n) y[i] = 2.0f * buf[tags[t]];
}
"""


def test_static_shared_memory_up_to_48_kib_exactly_compiles_and_runs(run):
    """11264 floats + 1024 ints = 49152 bytes in the kernel (another kernel's arrays do not count)."""
    out = run(STATIC_SMEM.replace("ELEMS_VALUE", "11264"), SCALE, (3, 1, 1), (128, 1, 1), _scale_inputs())
    assert np.array_equal(out.outputs["y"], 2 * np.arange(300, dtype=np.float32))


def test_static_shared_memory_past_48_kib_is_ptxas_compile_error(backend):
    """One float more is ptxas's error, with CUDA's words and the line of the declaration that crosses."""
    build = backend.compile(STATIC_SMEM.replace("ELEMS_VALUE", "11265"), SCALE)
    try:
        assert not build.compile.ok
        [message] = build.compile.messages
        assert message.line == 7
        assert "uses too much shared data (0xc004 bytes, 0xc000 max)" in message.message
        assert message.message.params == {"kernel": "scale", "hex": "0xc004", "bytes": 49156}
    finally:
        backend.close(build)
