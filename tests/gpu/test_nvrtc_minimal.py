"""NVRTC's --minimal (gpu/nvrtc.py MINIMAL): tried first on every source, ~10 % less time a compile; the
cubin it gives is the one NVRTC gives without it, and a source that needs what it leaves out (the
runtime's types and macros, texture objects, the device runtime's functions) is compiled again without
it, still by NVRTC, not refused and not sent to nvcc.

NVRTC needs no GPU: these run on CPU machines with cuda-bindings (requirements.txt)."""
from __future__ import annotations

from pathlib import Path

import pytest

from grader.core.backends.base import ArgRole, ArgSpec, KernelSpec
from grader.core.gpu import nvrtc as ours
from grader.core.gpu.nvcc import translation_unit
from problems.core.package.parser import load_package
from tests.gpu.test_nvrtc import _nvrtc_loads, backend  # noqa: F401 (backend: test_nvrtc's fixture)

pytestmark = pytest.mark.skipif(not _nvrtc_loads(), reason="NVRTC (cuda-bindings, nvidia-cuda-nvrtc) is not installed")

BANK = Path(__file__).resolve().parents[2] / "problems" / "bank"
SPEC = KernelSpec("scale_rows", (ArgSpec("x", ArgRole.IN, "float32"), ArgSpec("y", ArgRole.OUT, "float32"),
                                 ArgSpec("n", ArgRole.SCALAR, "int32")))

# A kernel file that checks a status with the runtime's own type: cudaError_t and cudaSuccess are among
# what --minimal leaves out.
WITH_RUNTIME_TYPES = """\
#define TILE 128
__device__ cudaError_t lane_status(int lane) { return lane < 32 ? cudaSuccess : cudaErrorInvalidValue; }

extern "C" __global__ void scale_rows(const float* x, float* y, int n)
{
    int i = blockIdx.x * TILE + threadIdx.x;
    if (i < n && lane_status(threadIdx.x % 32) == cudaSuccess) y[i] = 2.0f * x[i];
}
"""


def _compile(tu: str, extra: list[str]):
    from cuda.bindings import nvrtc

    result, log, cubin = ours._compile_once(nvrtc, tu, "sm_90", extra)
    return result == nvrtc.nvrtcResult.NVRTC_SUCCESS, log, cubin


def _solutions() -> list[tuple[str, str]]:
    out = []
    for folder in sorted(BANK.iterdir()):
        if (folder / "problem.yaml").exists():
            package = load_package(folder).with_variant(None)
            out.append((folder.name, translation_unit(package.solution, package.kernel)))
    return out


def test_minimal_gives_the_same_cubin_for_every_bank_solution():
    compared, solutions = 0, _solutions()
    for name, tu in solutions:
        plain_ok, _, plain = _compile(tu, [])
        minimal_ok, _, minimal = _compile(tu, [ours.MINIMAL])
        assert minimal_ok == plain_ok, name
        if plain_ok:
            assert minimal == plain, f"{name}: --minimal changed the cubin"
            compared += 1
    assert compared >= len(solutions) - 2  # every solution but the cooperative-groups ones (nvcc's)


def test_a_source_that_needs_the_runtime_types_compiles_again_without_minimal():
    tu = translation_unit(WITH_RUNTIME_TYPES, SPEC)
    refused, log, _ = _compile(tu, [ours.MINIMAL])
    assert not refused and b"cudaError_t" in log  # what --minimal leaves out
    reply = ours.compile_in_process(tu, "sm_90")
    assert reply.ok and reply.cubin[:4] == b"\x7fELF"
    assert reply.cubin == _compile(tu, [])[2]


def test_the_backend_compiles_it_with_nvrtc_not_nvcc(backend):  # noqa: F811 (the imported fixture)
    build = backend.compile(WITH_RUNTIME_TYPES, SPEC)
    assert build.compile.ok and build.handle.compiler == "nvrtc"
    assert build.resources.registers and build.resources.registers > 0


def test_a_compile_error_is_still_reported_with_the_students_line(backend, nvcc):  # noqa: F811
    broken = WITH_RUNTIME_TYPES.replace("2.0f * x[i]", "2.0f * x[j]")
    build = backend.compile(broken, SPEC)
    assert not build.compile.ok
    assert [(m.line, m.severity) for m in build.compile.messages if m.severity == "error"] == [(7, "error")]


def test_the_compile_parts_reach_the_stage_clock(backend):  # noqa: F811
    """The stage log's compile_* figures (issue 17): the GPU backend says how long it waited for its warm
    child, for the compiler's round trip and for NVRTC itself, each within the compile stage."""
    from grader.stages import TimedBackend, stages

    with stages(1) as clock:
        build = TimedBackend(backend).compile(WITH_RUNTIME_TYPES, SPEC)
    assert build.compile.ok
    parts = {k: v for k, v in clock.figures.items() if k.startswith("compile_")}
    assert set(parts) == {"compile_child", "compile_call", "compile_nvrtc"}
    assert 0 < parts["compile_nvrtc"] <= parts["compile_call"] <= clock.figures["compile"]
