"""ptxas -v parsing and the resource report (resources.py)."""
from __future__ import annotations

import pytest

from grader.core.backends.base import ArgRole, ArgSpec, KernelSpec
from grader.core.gpu.cache import CompileCache
from grader.core.gpu.nvcc import arch_of, cc_of, compile_cubin, parse_messages
from grader.core.gpu.ptxas import find_entry, parse_ptxas, unmangled_name
from grader.core.resources import ptxas_resources

LOG_13 = """\
ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function '_Z6reducePKfPfi' for 'sm_90'
ptxas info    : Function properties for _Z6reducePKfPfi
    320 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads
ptxas info    : Used 40 registers, used 1 barriers, 320 bytes cumulative stack size, 1024 bytes smem
ptxas info    : Function properties for _Z6helperi
    16 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Compiling entry function 'plain' for 'sm_90'
ptxas info    : Function properties for plain
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 12 registers, used 0 barriers
ptxas info    : Compile time = 7.026 ms
"""

LOG_OLD = """\
ptxas info    : Compiling entry function '_Z3addPfS_' for 'sm_75'
ptxas info    : Function properties for _Z3addPfS_
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 8 registers, 2048 bytes smem, 360 bytes cmem[0]
"""

SPEC = KernelSpec("vector_add", (ArgSpec("a", ArgRole.IN, "float32"), ArgSpec("b", ArgRole.IN, "float32"),
                                 ArgSpec("c", ArgRole.OUT, "float32"), ArgSpec("n", ArgRole.SCALAR, "int32")))
SOURCE = """\
__global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
"""


def test_parses_registers_smem_stack_spills_and_barriers_of_each_function():
    """Every figure of ptxas 13's report lands on the right function; device functions are not entries."""
    f = parse_ptxas(LOG_13)
    k = f["_Z6reducePKfPfi"]
    assert (k.entry, k.arch, k.registers, k.barriers, k.shared_static_bytes) == (True, "sm_90", 40, 1, 1024)
    assert (k.stack_frame_bytes, k.spill_stores_bytes, k.spill_loads_bytes) == (320, 8, 12)
    assert not f["_Z6helperi"].entry and f["_Z6helperi"].stack_frame_bytes == 16
    assert f["plain"].registers == 12 and f["plain"].shared_static_bytes == 0


def test_older_report_without_barriers_means_zero_barriers():
    k = parse_ptxas(LOG_OLD)["_Z3addPfS_"]
    assert (k.registers, k.shared_static_bytes, k.barriers) == (8, 2048, 0)


def test_entry_is_found_by_name_whatever_the_mangling():
    """`_Z6reducePKfPfi` and an extern "C" `plain` are found by their source names; a prefix is not a match."""
    f = parse_ptxas(LOG_13)
    assert unmangled_name("_Z10vector_addPKfS0_Pfi") == "vector_add"
    assert [e.symbol for e in find_entry(f, "reduce")] == ["_Z6reducePKfPfi"]
    assert [e.symbol for e in find_entry(f, "plain")] == ["plain"]
    assert find_entry(f, "red") == [] and find_entry(f, "helper") == []


def test_compute_capability_and_arch_names():
    assert arch_of("9.0") == "sm_90" and arch_of("12.0") == "sm_120" and arch_of("sm_86") == "sm_86"
    assert cc_of("sm_90") == "9.0" and cc_of("sm_120") == "12.0" and cc_of("sm_90a") == "9.0"
    with pytest.raises(ValueError):
        arch_of("nine")


def test_compile_messages_point_at_the_students_lines():
    log = ('kernel.cu(4): error: identifier "bb" is undefined\n'
           'kernel.cu(3): warning #177-D: variable "i" was declared but never referenced\n'
           '/usr/local/cuda/include/cuda_runtime.h(12): error: something in a header\n'
           'ptxas error   : Entry function \'_Z1kv\' uses too much shared data (0x10000 bytes, 0xc000 max)\n')
    m = parse_messages(log, SPEC)
    assert [(x.line, x.severity) for x in m] == [(4, "error"), (3, "warning"), (None, "error"), (None, "error")]
    assert "too much shared data" in m[3].message


# ---- with nvcc ----

def test_resources_of_a_real_kernel(nvcc, tmp_path):
    """vector_add on sm_90: a handful of registers, no shared memory, no stack, no barriers."""
    res = ptxas_resources(SOURCE, SPEC, "9.0", cache=CompileCache(tmp_path))
    assert res.source == "ptxas" and res.compute_capability == "9.0"
    assert 4 <= res.registers <= 32
    assert (res.shared_static_bytes, res.local_bytes, res.spill_stores_bytes, res.barriers) == (0, 0, 0, 0)


def test_shared_memory_barriers_and_stack_are_reported(nvcc, tmp_path):
    """A 256-float shared array is 1024 B of static smem; a runtime-indexed local array needs a stack frame."""
    source = """\
__global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    __shared__ float s[256];
    float local[512];
    for (int k = 0; k < 512; ++k) local[(k * 7 + n) & 511] = a[k * n];
    s[threadIdx.x] = a[threadIdx.x] + local[n & 511];
    __syncthreads();
    c[threadIdx.x] = s[255 - threadIdx.x] + b[0];
}
"""
    res = ptxas_resources(source, SPEC, "8.6", cache=CompileCache(tmp_path))
    assert res.shared_static_bytes == 1024 and res.barriers == 1 and res.local_bytes >= 2048
    assert res.compute_capability == "8.6"


def test_compile_error_keeps_the_students_line_and_is_cached(nvcc, tmp_path):
    cache = CompileCache(tmp_path)
    broken = SOURCE.replace("int i =", "int i = q")
    first = compile_cubin(broken, SPEC, "sm_90", cache=cache)
    assert not first.compile.ok and first.compile.messages[0].line == 3
    again = compile_cubin(broken, SPEC, "sm_90", cache=CompileCache(tmp_path))  # a new process's view
    assert again.compile.cached and [m.line for m in again.compile.messages] == [m.line for m in first.compile.messages]


def test_wrong_signature_is_a_compile_error_naming_the_expected_one(nvcc, tmp_path):
    r = compile_cubin(SOURCE.replace("int n", "long n"), SPEC, "sm_90", cache=CompileCache(tmp_path))
    assert not r.compile.ok
    assert "__global__ void vector_add(const float* a, const float* b, float* c, int n)" in r.compile.messages[0].message


def test_restrict_and_dropped_const_are_accepted(nvcc, tmp_path):
    source = SOURCE.replace("const float* a", "const float* __restrict__ a").replace("const float* b", "float* b")
    r = compile_cubin(source, SPEC, "sm_90", cache=CompileCache(tmp_path))
    assert r.compile.ok and r.entry == "_Z10vector_addPKfPfS1_i"


def test_a_device_function_is_not_a_kernel(nvcc, tmp_path):
    r = compile_cubin(SOURCE.replace("__global__", "__device__"), SPEC, "sm_90", cache=CompileCache(tmp_path))
    assert not r.compile.ok and "not a __global__ kernel" in r.compile.messages[-1].message


def test_compile_time_limit_stops_the_compiler(nvcc, tmp_path):
    """A compilation past its limit is killed and reported as a compile error (not cached)."""
    r = compile_cubin(SOURCE, SPEC, "sm_90", cache=CompileCache(tmp_path), time_limit_s=0.05)
    said = r.compile.messages[0].message  # a compile limit, named as one (grader.core.messages.COMPILE_LIMITS)
    assert not r.compile.ok and said.code in ("COMPILE_TIME_LIMIT", "COMPILE_WALL_LIMIT"), said
    assert compile_cubin(SOURCE, SPEC, "sm_90", cache=CompileCache(tmp_path)).compile.ok
