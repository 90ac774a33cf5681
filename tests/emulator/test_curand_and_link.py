"""cuRAND's XORWOW device API gives cuRAND's sequences; a link error names the function and the line.

The reference is tests/fidelity/harnesses/curand_xorwow.py: an independent NumPy implementation of
curand_init (seed scrambling, 2^67-step subsequences by GF(2) matrix powers) and of
curand_uniform/curand_normal, whose outputs an H200 running cuRAND matched on 2026-12-02
(tests/fidelity/cases/curand-*/case.yaml). FIRST_UNIFORM pins the first draws so that a change
of either implementation is seen even if both change together.
"""
from __future__ import annotations

import importlib

import numpy as np
import pytest

from .conftest import spec

CURAND = """\
#include <curand_kernel.h>
#define PER 4
__global__ void k(float* y, int n)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    if (id >= n) return;
    curandState state;
    curand_init(SEED_EXPR, SUBSEQ_EXPR, 0, &state);
    for (int j = 0; j < PER; ++j) y[PER * id + j] = DRAW(&state);
}
"""
# curand_init(1234, id, 0) then curand_uniform x4 for threads 0 and 1 (subsequences 0 and 1), as
# float32 bit patterns: the reference's values, which the H200 matched.
FIRST_UNIFORM = [0x3E14F578, 0x3EDEAB0C, 0x3F5EE6DB, 0x3EE90B67, 0x3F51F760, 0x3F6D29AE, 0x3F03030F, 0x3F099FBB]


def _reference(n: int, kind: str, subsequences: bool) -> np.ndarray:
    harness = importlib.import_module("tests.fidelity.harnesses.curand_xorwow")
    harness = importlib.reload(harness)
    harness.SEED, harness.PER, harness.KIND, harness.SUBSEQUENCES = 1234, 4, kind, subsequences
    return harness.reference({"n": n})["y"]


def _source(kind: str, subsequences: bool) -> str:
    draw = "curand_uniform" if kind == "uniform" else "curand_normal"
    seed, sub = ("1234", "id") if subsequences else ("1234 + id", "0")
    return CURAND.replace("SEED_EXPR", seed).replace("SUBSEQ_EXPR", sub).replace("DRAW", draw)


@pytest.mark.parametrize("kind,subsequences", [("uniform", False), ("uniform", True), ("normal", False),
                                               ("normal", True)])
def test_curand_sequences_match_curands(run, kind, subsequences):
    """curand_init(seed + id, 0, 0) and curand_init(seed, id, 0) (a subsequence per thread), then
    curand_uniform or curand_normal: the reference's values (uniform exactly, normal to float
    rounding of sin/log)."""
    n = 300
    out = run(_source(kind, subsequences), spec("k", ("y", "out", "float32"), ("n", "scalar", "int32")),
              (2, 1, 1), (256, 1, 1), {"y": np.zeros(4 * n, np.float32), "n": n})
    expected = _reference(n, kind, subsequences)
    if kind == "uniform":
        assert np.array_equal(out.outputs["y"], expected)
        if subsequences:
            assert out.outputs["y"][:8].view(np.uint32).tolist() == FIRST_UNIFORM
    else:
        assert np.allclose(out.outputs["y"], expected, rtol=2e-6, atol=2e-6)


SKIPS = """\
#include <curand_kernel.h>
__global__ void k(unsigned* out, int n)
{
    curandState a, b, c, d;
    curand_init(42, 0, 1000, &a);            // offset 1000
    curand_init(42, 0, 0, &b);
    for (int i = 0; i < 1000; ++i) curand(&b);  // the same, step by step
    curand_init(42, 1, 0, &c);               // subsequence 1 = 2^67 steps
    curand_init(42, 0, 1ULL << 62, &d);      // 2^62 steps, then 31 more jumps of 2^62
    for (int i = 0; i < 31; ++i) skipahead(1ULL << 62, &d);
    out[0] = curand(&a); out[1] = curand(&b);
    out[2] = curand(&c); out[3] = curand(&d);
}
"""


def test_skipahead_by_offset_and_by_subsequence_agree_with_stepping(run):
    """An offset of 1000 equals 1000 calls of curand(); subsequence 1 equals 32 jumps of 2^62 steps."""
    out = run(SKIPS, spec("k", ("out", "out", "uint32"), ("n", "scalar", "int32")), (1, 1, 1), (1, 1, 1),
              {"out": np.zeros(4, np.uint32), "n": 1})
    a, b, c, d = out.outputs["out"].tolist()
    assert a == b and c == d and a != c


LINK = """\
#define N 256
__device__ float helper(float x);
extern "C" __global__ void scale(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = helper(x[i]);
}
"""


def test_a_link_error_names_the_missing_function_and_the_calling_line(backend):
    """A __device__ function declared but never defined: a compile error on the line that calls
    it, naming the function, not the linker's own words."""
    build = backend.compile(LINK, spec("scale", ("x", "in", "float32"), ("y", "out", "float32"),
                                       ("n", "scalar", "int32")))
    assert not build.compile.ok
    assert [(m.line, m.severity) for m in build.compile.messages] == [(6, "error")]
    message = build.compile.messages[0]
    assert "undefined reference to 'helper(float)'" in message.message and "never defined" in message.message
    assert message.message.template and message.message.params == {"function": "helper(float)"}


def test_a_kernel_declared_but_not_defined_names_its_declaration(backend):
    build = backend.compile("#include <cuda_runtime.h>\n__global__ void scale(const float* x, float* y, int n);\n",
                            spec("scale", ("x", "in", "float32"), ("y", "out", "float32"), ("n", "scalar", "int32")))
    assert not build.compile.ok
    assert [m.line for m in build.compile.messages] == [2]
    assert "scale" in build.compile.messages[0].message
