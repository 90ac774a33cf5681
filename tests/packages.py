"""A tiny valid package as a dict of files, for tests that need a problem without the bank."""
from __future__ import annotations

from problems.core.package import ProblemPackage, parse_package

PROBLEM_YAML = """\
slug: tiny-add
title: {en: Tiny add, ko: 작은 덧셈}
topic: indexing
kind: kernel
difficulty: 1
kernel:
  name: add
  args:
    - {name: a, role: in, dtype: float32}
    - {name: b, role: in, dtype: float32}
    - {name: c, role: out, dtype: float32}
    - {name: n, role: scalar, dtype: int32}
launch:
  block: "256"
  grid: "ceil_div(n, 256)"
limits: {time_s: 5}
tolerance: {atol: 1.0e-6, rtol: 1.0e-6}
tests:
  - {name: small, params: {n: 5}, seed: 1, sample: true}
  - {name: tail, params: {n: 1025}, seed: 2}
"""

HARNESS = """\
import numpy as np

def generate(case, rng):
    n = case["n"]
    return {"a": rng.standard_normal(n).astype(np.float32), "b": rng.standard_normal(n).astype(np.float32),
            "c": np.empty(n, np.float32), "n": n}

def reference(inputs):
    return {"c": inputs["a"] + inputs["b"]}
"""

SOLUTION = """\
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
"""

# A correct kernel whose thread 0 first spins: `SPIN % iterations` is the security tester's
# correct-but-slow kernel, for the tests of time limits and the run budget.
SPIN = """\
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) { volatile long x = 0; for (long k = 0; k < %dL; k++) x++; }
    if (i < n) c[i] = a[i] + b[i];
}
"""

WRONG_SUB = """\
// verdict: WRONG_ANSWER
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] - b[i];
}
"""


def tiny_package_files(**overrides) -> dict[str, str]:
    """The files of a valid 'tiny-add' package; keyword arguments replace files by path."""
    files = {
        "problem.yaml": PROBLEM_YAML,
        "statement.md": "Add two vectors: $c_i = a_i + b_i$.\n",
        "starter.cu": "__global__ void add(const float* a, const float* b, float* c, int n) {\n}\n",
        "solution.cu": SOLUTION,
        "wrong/subtracts.cu": WRONG_SUB,
        "harness.py": HARNESS,
    }
    files.update(overrides)
    return {k: v for k, v in files.items() if v is not None}


def tiny_package(problem_yaml: str = PROBLEM_YAML, *, time_s: float | None = None) -> ProblemPackage:
    """The parsed 'tiny-add' package with `problem_yaml` as its problem.yaml, its per-test limit set to
    `time_s` seconds when given (in place of PROBLEM_YAML's 5 s)."""
    if time_s is not None:
        if "limits: {time_s: 5}" not in problem_yaml:
            raise ValueError("problem_yaml has no 'limits: {time_s: 5}' to replace")
        problem_yaml = problem_yaml.replace("limits: {time_s: 5}", f"limits: {{time_s: {time_s:g}}}")
    return parse_package(tiny_package_files(**{"problem.yaml": problem_yaml}))
