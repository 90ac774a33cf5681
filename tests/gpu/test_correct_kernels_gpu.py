"""Correct kernels that must compile, on the GPU path: macros, extern "C", link errors, cuRAND.

The link-error test needs only nvcc; the others are `gpu`-marked and run on the H200 (the
fidelity helper runs them through the device tool). The cuRAND test prints the first draws so
they can be compared by eye with tests/emulator/test_curand_and_link.py's FIRST_UNIFORM.
"""
from __future__ import annotations

import numpy as np
import pytest

from grader.core.backends.base import ArgRole, ArgSpec, KernelSpec, LaunchConfig, RunRequest, RunStatus
from grader.core.gpu.nvcc import compile_cubin

from .conftest import require_gpu
from .test_generated_code_shield import SOURCE as MACRO_SOURCE, SPEC as MACRO_SPEC

LINK = """\
#define N 256
__device__ float helper(float x);
extern "C" __global__ void scale(const float* x, float* y, int n, float a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * helper(x[i]);
}
"""


def test_a_link_error_on_the_gpu_path_names_the_function_and_the_calling_line(nvcc):
    """ptxas's "Unresolved extern function '_Z6helperf'" becomes the function's name on line 6."""
    result = compile_cubin(LINK, MACRO_SPEC, "sm_90")
    assert not result.compile.ok
    errors = [m for m in result.compile.messages if m.severity == "error"]
    assert [(m.line, m.message.params) for m in errors] == [(6, {"function": "helper"})]
    assert "Unresolved" not in " ".join(m.message for m in errors)


@pytest.fixture(scope="module")
def gpu():
    require_gpu()
    from grader.core import sandbox

    mp = pytest.MonkeyPatch()
    if not sandbox.box.DEFAULT.works():
        mp.setattr(sandbox.box, "DEFAULT", sandbox.Sandbox(allow_unsafe=True))
    from grader.core.backends.gpu import GpuBackend

    backend = GpuBackend()
    yield backend
    backend.shutdown()
    mp.undo()


def _run(gpu, source, spec, inputs, grid, block):
    build = gpu.compile(source, spec)
    assert build.compile.ok, build.compile.log
    try:
        return gpu.run(build, RunRequest(LaunchConfig(grid, block), inputs, time_limit_s=10.0, test_name="t"))
    finally:
        gpu.close(build)


@pytest.mark.gpu
def test_the_macro_heavy_extern_c_kernel_runs_on_the_gpu(gpu):
    """The kernel that #defines every identifier of the signature check runs and is right."""
    n = 1000
    out = _run(gpu, MACRO_SOURCE, MACRO_SPEC, {"x": np.arange(n, dtype=np.float32), "y": np.zeros(n, np.float32),
                                               "n": n, "a": 2.0}, (4, 1, 1), (256, 1, 1))
    assert out.status is RunStatus.OK
    assert np.array_equal(out.outputs["y"], 2 * np.arange(n, dtype=np.float32) + (1024 // 16 + 4 + 16))


CURAND = """\
#include <curand_kernel.h>
__global__ void k(float* y, int n)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    if (id >= n) return;
    curandState state;
    curand_init(1234, id, 0, &state);
    for (int j = 0; j < 4; ++j) y[4 * id + j] = curand_uniform(&state);
}
"""


@pytest.mark.gpu
def test_curand_first_draws_on_the_gpu(gpu):
    """curand_init(1234, id, 0) then four curand_uniform: printed, and equal to the emulator's pins."""
    from tests.emulator.test_curand_and_link import FIRST_UNIFORM

    spec = KernelSpec("k", (ArgSpec("y", ArgRole.OUT, "float32"), ArgSpec("n", ArgRole.SCALAR, "int32")))
    out = _run(gpu, CURAND, spec, {"y": np.zeros(8, np.float32), "n": 2}, (1, 1, 1), (32, 1, 1))
    assert out.status is RunStatus.OK
    bits = out.outputs["y"].view(np.uint32).tolist()
    print("curand_init(1234, id, 0) + curand_uniform x4, threads 0 and 1:", [hex(b) for b in bits],
          out.outputs["y"].tolist())
    assert bits == FIRST_UNIFORM


CONSTANT_WRITE = """\
__constant__ float coeff[256];
__constant__ int count;
extern "C" __global__ void scale(const float* x, float* y, int n, float a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    coeff[threadIdx.x] = x[i];
    y[i] = a * coeff[threadIdx.x];
}
"""


def test_a_write_to_constant_memory_is_refused_on_the_gpu_path_too(nvcc):
    """nvcc only warns about an element store into __constant__ memory (it faults on the H200):
    the GPU path refuses it on its line, as the emulator does; a scalar write is nvcc's own error."""
    result = compile_cubin(CONSTANT_WRITE, MACRO_SPEC, "sm_90")
    assert not result.compile.ok
    assert [m.line for m in result.compile.messages if m.severity == "error"] == [6]
    scalar = compile_cubin(CONSTANT_WRITE.replace("coeff[threadIdx.x] = x[i];", "count = 3;"), MACRO_SPEC, "sm_90")
    assert not scalar.compile.ok
    assert [m.line for m in scalar.compile.messages if m.severity == "error"] == [6]
