"""Token pasting (`##`) in the student's macros is legitimate CUDA: accepted when every name it builds can
be followed and is allowed (grader/core/emulator/pasting.py); a paste that builds a forbidden or
reserved name, or one the check cannot follow, is refused."""
from __future__ import annotations

import numpy as np
import pytest

from grader.core.emulator.pasting import UNCHECKABLE
from grader.core.emulator.rewrite import rewrite

from .conftest import spec

PASTING_KERNEL = """\
#define CAT(a, b) a##b
#define XCAT(a, b) CAT(a, b)
#define DEVICE_OP(name, expr) __device__ float op_##name(float v) { return expr; }
#define SUFFIX one
DEVICE_OP(twice, 2.0f * v)
DEVICE_OP(plus_one, v + 1.0f)
#define APPLY(name, v) op_##name(v)
__global__ void scale(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int CAT(tmp, 0) = 0;
    if (i < n) y[i] = XCAT(op_plus_, SUFFIX)(APPLY(twice, x[i])) + CAT(tmp, 0);
}
"""


def messages(source, kernel="k"):
    return [p.message for p in rewrite(source, kernel).problems]


def test_a_kernel_built_with_pasting_macros_compiles_and_runs(run):
    assert messages(PASTING_KERNEL, "scale") == []
    kspec = spec("scale", ("x", "in", "float32"), ("y", "out", "float32"), ("n", "scalar", "int32"))
    n = 300
    out = run(PASTING_KERNEL, kspec, (3, 1, 1), (128, 1, 1),
              {"x": np.arange(n, dtype=np.float32), "y": np.zeros(n, np.float32), "n": n})
    assert np.array_equal(out.outputs["y"], 2 * np.arange(n, dtype=np.float32) + 1)


@pytest.mark.parametrize("source,expected", [
    # pasted where the macro is used, with the arguments as written
    ('#define JOIN(x, y) x##y\n__global__ void k(int* a) { JOIN(sys, tem)("touch x"); }\n',
     "'system' is not available in kernels (no file, process or host access)"),
    # pasted in the macro's body alone
    ("#define RUN sys##tem\n__global__ void k(int* a) { RUN(\"x\"); }\n",
     "'system' is not available in kernels (no file, process or host access)"),
    # forwarded through another macro, whose argument is expanded first
    ('#define CAT(a, b) a##b\n#define XCAT(a, b) CAT(a, b)\n#define TAIL tem\n'
     '__global__ void k(int* a) { XCAT(sys, TAIL)("x"); }\n',
     "'system' is not available in kernels (no file, process or host access)"),
    # the runtime's reserved names, also with a line number
    ("#define CAT(a, b) a##b\n#define XCAT(a, b) CAT(a, b)\n__global__ void k(int* a) { int XCAT(wd_, __LINE__) = 0; }\n",
     "'wd_0' is reserved for the emulator's runtime: choose another name"),
    ("#define CAT(a, b) a##b\n__global__ void k(int* a) { CAT(__builtin_, execve)(0, 0, 0); }\n",
     "'__builtin_execve' is not available in kernels (no file, process or host access)"),
    # what cannot be followed
    ("#define CAT(a, b) a##b\n#define APPLY(f, x, y) f(x, y)\n__global__ void k(int* a) { APPLY(CAT, sys, tem)(\"x\"); }\n",
     UNCHECKABLE),
    ("#define CAT(a, b) a##b\n__global__ void k(int* a) { CAT(CAT(sy, s), tem)(\"x\"); }\n", UNCHECKABLE),
    ("#define DIG(a) <##:\n__global__ void k(int* a) { }\n", UNCHECKABLE),
    ("#define CAT(a, b) a##b\n#define FN() sys\n#define XCAT(a, b) CAT(a, b)\n"
     "__global__ void k(int* a) { XCAT(FN(), tem)(\"x\"); }\n", UNCHECKABLE),
])
def test_pastes_that_build_forbidden_names_or_cannot_be_followed_are_refused(source, expected):
    assert expected in messages(source)


def test_a_pasted_barrier_counts_in_the_kernels_reach():
    source = "#define CAT(a, b) a##b\n__global__ void k(float* a) { CAT(__sync, threads)(); a[0] = 1; }\n"
    assert messages(source) == []
    assert rewrite(source, "k").needs_fibers
