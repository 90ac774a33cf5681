"""NVRTC in the sandboxed compiler child (gpu/nvrtc.py), with nvcc as the fallback.

NVRTC needs no GPU, so these run on CPU machines with the cuda-bindings and nvidia-cuda-nvrtc
packages installed (requirements.txt); the GPU children are the fake ones.
"""
from __future__ import annotations

import pytest

from grader.core import sandbox
from grader.core.backends.base import ArgRole, ArgSpec, KernelSpec
from grader.core.backends.gpu import GpuBackend
from grader.core.gpu.cache import CompileCache
from grader.core.gpu.nvcc import parse_messages
from grader.core.gpu.nvrtc import compile_with_nvrtc
from grader.core.gpu.pool import Child, ChildPool

SPEC = KernelSpec("k", (ArgSpec("x", ArgRole.IN, "float32"), ArgSpec("y", ArgRole.OUT, "float32"),
                        ArgSpec("n", ArgRole.SCALAR, "int32")))
GOOD = """\
#include <cstdio>
#include <cuda_runtime.h>
__global__ void k(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = sqrtf(x[i]);
    if (i == 0) printf("n = %d\\n", n);
}
"""
# 2^22 tokens after preprocessing: NVRTC works on it for minutes.
MACRO_BOMB = "\n".join(["#define A0 x", *(f"#define A{i} A{i - 1} A{i - 1}" for i in range(1, 23))]) + (
    "\n__global__ void k(const float* x, float* y, int n) { y[0] = A22; }\n")


def _nvrtc_loads() -> bool:
    try:
        from cuda.bindings import nvrtc

        return nvrtc.nvrtcVersion()[0] == nvrtc.nvrtcResult.NVRTC_SUCCESS
    except Exception:
        return False


pytestmark = pytest.mark.skipif(not _nvrtc_loads(), reason="NVRTC (cuda-bindings, nvidia-cuda-nvrtc) is not installed")


@pytest.fixture
def backend(child_sandbox, tmp_path):
    b = GpuBackend(arch="sm_90", pool=ChildPool(factory=lambda tool: Child(tool, fake=True)),
                   cache=CompileCache(tmp_path / "cache"), compiler="nvrtc")
    b.prepare()
    yield b
    b.shutdown()


def test_a_kernel_compiles_with_nvrtc_in_the_sandboxed_compiler_child(backend):
    build = backend.compile(GOOD, SPEC)
    assert build.compile.ok and build.handle.compiler == "nvrtc"
    assert build.handle.cubin[:4].tobytes() == b"\x7fELF"
    assert build.resources.registers and build.resources.registers > 0 and build.resources.source == "ptxas"
    child = backend.pool.compiler
    if sandbox.box.DEFAULT.works():
        assert child.proc.args[0] == sandbox.box.DEFAULT.bwrap  # the child runs in bubblewrap
    jobs = child.jobs
    again = backend.compile(GOOD, SPEC)  # the compile cache answers; the child gets no job
    assert again.compile.cached and backend.pool.compiler.jobs == jobs


def test_a_source_nvrtc_refuses_is_compiled_by_nvcc(backend, nvcc):
    host_variable = "int calls = 0;\n" + GOOD  # NVRTC takes no host variables; nvcc does
    build = backend.compile(host_variable, SPEC)
    assert build.compile.ok and build.handle.compiler == "nvcc"


def test_compile_errors_are_nvccs_on_the_students_lines(backend, nvcc):
    build = backend.compile("__global__ void k(const float* x, float* y, int n)\n{\n    y[0] = zz;\n}\n", SPEC)
    assert not build.compile.ok
    assert [(m.line, m.severity) for m in build.compile.messages] == [(3, "error")]
    assert "zz" in build.compile.messages[0].message


def test_a_wrong_signature_names_the_expected_declaration(backend, nvcc):
    build = backend.compile("__global__ void k(const float* x, int* y, int n) {}\n", SPEC)
    assert not build.compile.ok
    assert any("must be declared at file scope as __global__ void k(" in m.message for m in build.compile.messages)


def test_the_sandbox_hides_etc_passwd_from_both_compilers(backend, nvcc):
    if not sandbox.box.DEFAULT.works():
        pytest.skip("needs bubblewrap")
    build = backend.compile('#include "/etc/passwd"\n' + GOOD, SPEC)
    assert not build.compile.ok
    assert build.compile.messages[0].line == 1 and "No such file" in build.compile.messages[0].message
    assert "root:" not in build.compile.log


def test_a_compile_past_the_limit_is_a_compile_error_and_the_child_is_replaced(backend):
    first = backend.pool.compiler
    first.wait_ready()
    result = compile_with_nvrtc(MACRO_BOMB, SPEC, "sm_90", backend.compiler._nvrtc, version=backend.compiler._nvrtc_version(),
                                time_limit_s=1.0)
    assert not result.compile.ok
    said = result.compile.messages[0].message  # a compile limit, named as one (grader.core.messages.COMPILE_LIMITS)
    assert said.code in ("COMPILE_WALL_LIMIT", "COMPILE_TIME_LIMIT") and "1 s" in said, said
    assert not first.alive()  # killed at the limit
    build = backend.compile(GOOD, SPEC)  # the successor compiles the next submission
    assert build.compile.ok and build.handle.compiler == "nvrtc" and backend.pool.compiler is not first


def test_gcc_style_preprocessor_messages_are_mapped_to_the_students_line():
    messages = parse_messages("kernel.cu:4:10: fatal error: missing.h: No such file or directory\n"
                              "compilation terminated.\n", SPEC)
    assert [(m.line, m.severity, m.message) for m in messages] == [(4, "error", "missing.h: No such file or directory")]
