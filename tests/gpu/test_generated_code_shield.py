"""The GPU path's signature check is shielded from the student's macros (gpu/nvcc.py, macros.py).

Compiles with the real nvcc and NVRTC, which need no GPU: these run wherever the CUDA toolkit
and the nvidia-cuda-nvrtc package are installed. The identifiers are taken from the generated
check itself, so a name added to it later is covered without being listed here.
"""
from __future__ import annotations

import re

import pytest

from grader.core.backends.base import ArgRole, ArgSpec, KernelSpec
from grader.core.gpu.nvcc import compile_cubin, signature_check, translation_unit
from grader.core.macros import identifiers

SPEC = KernelSpec("scale", (ArgSpec("x", ArgRole.IN, "float32"), ArgSpec("y", ArgRole.OUT, "float32"),
                            ArgSpec("n", ArgRole.SCALAR, "int32"), ArgSpec("a", ArgRole.SCALAR, "float32")))


def code_lines(text: str) -> str:
    """Generated text without its directive lines (the shield's own push/undef/pop)."""
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))


CHECK_NAMES = [n for n in identifiers(code_lines(signature_check(SPEC))) if n != "scale"]
# The student's file: the usual tile and size macros before the kernel, then every identifier of
# the generated check (keywords and types included) #defined to junk after it.
SOURCE = ("#define T 16\n#define A 1024\n#define B (A / T)\n#define P 4\n#define TILE 16\n"
          'extern "C" __global__ void scale(const float* __restrict__ x, float* y, int n, float a)\n'
          "{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
          "    if (i < n) y[i] = a * x[i] + (float)(B + P + TILE);\n}\n"
          + "".join(f"#define {n} )junk(\n" for n in CHECK_NAMES))


def test_the_check_is_shielded_from_every_name_it_uses():
    """Every identifier of the check but the kernel's name is pushed and #undef'd before it."""
    text = signature_check(SPEC)
    assert {"T", "A", "B", "P", "strip", "same", "params", "value", "bool", "static_assert"} <= set(CHECK_NAMES)
    assert set(CHECK_NAMES) <= set(re.findall(r"#undef (\w+)", text))
    assert "#undef scale" not in text


def test_a_kernel_that_defines_every_name_of_the_check_compiles_with_nvcc(nvcc):
    """nvcc compiles the macro-heavy extern "C" kernel; the check still refuses a wrong signature."""
    result = compile_cubin(SOURCE, SPEC, "sm_90")
    assert result.compile.ok, result.compile.log
    assert result.entry == "scale"
    wrong = KernelSpec("scale", SPEC.args[:3] + (ArgSpec("a", ArgRole.SCALAR, "int32"),))
    refused = compile_cubin(SOURCE, wrong, "sm_90")
    assert not refused.compile.ok
    assert any("must be declared at file scope as __global__ void scale(" in m.message
               for m in refused.compile.messages)


def _nvrtc():
    try:
        from cuda.bindings import nvrtc

        if nvrtc.nvrtcVersion()[0] != nvrtc.nvrtcResult.NVRTC_SUCCESS:
            pytest.skip("NVRTC does not load")
    except Exception:
        pytest.skip("NVRTC (cuda-bindings, nvidia-cuda-nvrtc) is not installed")
    from grader.core.gpu import nvrtc as ours

    return ours


def test_a_kernel_that_defines_every_name_of_the_check_compiles_with_nvrtc():
    """NVRTC compiles the same translation unit (push_macro/pop_macro included) to a cubin."""
    ours = _nvrtc()
    reply = ours.compile_in_process(translation_unit(SOURCE, SPEC), "sm_90")
    assert reply.ok, reply.log
    wrong = KernelSpec("scale", SPEC.args[:3] + (ArgSpec("a", ArgRole.SCALAR, "int32"),))
    refused = ours.compile_in_process(translation_unit(SOURCE, wrong), "sm_90")
    assert not refused.ok and "static assertion" in refused.log
