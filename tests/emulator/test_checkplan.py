"""The check plan (grader/core/emulator/checkplan.py, racefree.py): the race run and the initcheck are
skipped only where they can find nothing, and racy or out-of-bounds kernels are still caught by every
plan, the full one (WARPDRILL_FULL_CHECK_PASS=1) and the planned one alike."""
from __future__ import annotations

import numpy as np
import pytest

from grader.core.backends.base import LaunchConfig, RunRequest, RunStatus
from grader.core.backends.emulator import EmulatorBackend
from grader.core.emulator import checkplan
from grader.core.emulator.racefree import indexed_by_global_id, launch_is_1d
from grader.core.emulator.tokens import tokenize

from .conftest import kinds, spec

VECTOR_ADD = """#include <cstdio>
// One thread per element.
__global__ void vector_add(const float* a, const float* __restrict__ b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}
"""
VECTOR_ADD_SPEC = spec("vector_add", ("a", "in", "float32"), ("b", "in", "float32"), ("c", "out", "float32"),
                       ("n", "scalar", "int32"))


def proven(source: str, name: str = "vector_add") -> bool:
    return indexed_by_global_id(tokenize(source), name)


def with_body(body: str, params: str = "const float* a, const float* b, float* c, int n") -> str:
    return f"__global__ void vector_add({params})\n{{\n{body}\n}}\n"


GID = "int i = blockIdx.x * blockDim.x + threadIdx.x;\n"


@pytest.mark.parametrize("source", [
    VECTOR_ADD,
    with_body("unsigned int i = threadIdx.x + blockDim.x * blockIdx.x;\nif (i >= n) return;\nc[i] = 2.0f * a[i];"),
    with_body("const size_t i = threadIdx.x + (blockIdx.x * blockDim.x);\nif (i < n && i >= 0) c[i] = a[i] - b[i];"),
    "__global__ void __launch_bounds__(256) vector_add(float* c, int n) {\n" + GID + "if (i != n) c[i] += 1.0f;\n}\n",
])
def test_kernels_indexed_by_their_global_id_are_proven(source):
    """Every pointer parameter used only as p[i], i = blockIdx.x * blockDim.x + threadIdx.x in any of
    its orders and never changed: proven race-free (a read-modify-write of one's own element too)."""
    assert proven(source)


@pytest.mark.parametrize("source", [
    with_body(GID + "if (i < n) atomicAdd(&c[0], a[i]);"),  # one element for all threads
    with_body(GID + "if (i < n) c[0] += a[i];"),  # a lost update
    with_body(GID + "if (i + 1 < n) c[i + 1] = a[i];"),  # another thread's element
    with_body(GID + "for (; i < n; i += blockDim.x * gridDim.x) c[i] = a[i];"),  # i changes
    with_body(GID + "i++;\nc[i] = a[i];"),
    with_body(GID + "--i;\nc[i] = a[i];"),
    with_body(GID + "i <<= 1;\nc[i] = a[i];"),
    with_body(GID + "int* p = &i;\nc[i] = a[i];"),
    with_body(GID + "{ int i = 0; c[i] = a[i]; }"),  # shadowed
    with_body(GID + "float* d = c;\nd[i] = a[i];"),  # an alias of c
    with_body(GID + "memset(&c[i], 0, 64);"),
    with_body("int i = blockIdx.x * blockDim.x + threadIdx.y;\nc[i] = a[i];"),  # not the global id
    with_body("int i = blockIdx.x * (blockDim.x + threadIdx.x);\nc[i] = a[i];"),
    with_body("char i = blockIdx.x * blockDim.x + threadIdx.x;\nc[i] = a[i];"),  # wraps at 256
    with_body("{ int n = blockIdx.x * blockDim.x + threadIdx.x; }\nc[n] = a[n];"),  # the parameter n
    with_body("__shared__ float s[256];\n" + GID + "s[threadIdx.x] = a[i];\nc[i] = s[255 - threadIdx.x];"),
    "#define IDX (blockIdx.x * blockDim.x + threadIdx.x)\n" + with_body("int i = IDX;\nc[i] = a[i];"),
    "float total;\n" + with_body(GID + "total = a[i];\nc[i] = total;"),  # a host global every thread shares
    "__device__ float twice(float x) { return 2 * x; }\n" + with_body(GID + "c[i] = twice(a[i]);"),
    with_body(GID + "c[i] = a[i];", params="float** a, float* c"),
])
def test_anything_else_is_not_proven(source):
    """A shared element, a changed or shadowed index, an alias, a macro, a device function, a global,
    shared memory or an unusual parameter: not proven, so the race run goes as before."""
    assert not proven(source)


def test_the_plan_skips_only_what_can_find_nothing():
    """No shared memory: no initcheck; proven indexing under a 1-D launch: no race run; a 2-D launch
    (threads (x, 0) and (x, 1) share an id) or the full switch: everything."""
    facts = checkplan.kernel_facts(VECTOR_ADD, tokenize(VECTOR_ADD), "vector_add")
    assert facts == checkplan.KernelFacts(shared=False, indexed_by_global_id=True)
    assert checkplan.plan(facts, (4, 1, 1), (256, 1, 1)) == checkplan.CheckPlan(aligned=False, race=False, initcheck=False)
    assert checkplan.plan(facts, (4, 1, 1), (16, 2, 1)).variants == ("tsan",)
    assert checkplan.plan(facts, (4, 2, 1), (256, 1, 1)).variants == ("tsan",)
    assert checkplan.plan(facts, (4, 1, 1), (256, 1, 1), full=True) == checkplan.FULL
    shared = "__global__ void k(int* out) { __shared__ int s[4]; out[0] = s[0]; }"
    assert checkplan.plan(checkplan.kernel_facts(shared, tokenize(shared), "k"), (1, 1, 1), (4, 1, 1)).variants == \
        ("tsan", "initcheck")
    assert not launch_is_1d((1 << 23, 1, 1), (1024, 1, 1))  # 2^33 threads overflow an int id


@pytest.fixture(scope="module", params=["planned", "full"])
def any_plan(request):
    """The backend with the check plan and with the full check pass (WARPDRILL_FULL_CHECK_PASS=1)."""
    return EmulatorBackend(full_check_pass=request.param == "full")


def checked(backend, source, kspec, grid, block, inputs):
    build = backend.compile(source, kspec)
    assert build.compile.ok, build.compile.log
    try:
        outcome = backend.run(build, RunRequest(LaunchConfig(grid, block, 0), inputs, time_limit_s=10.0, check=True,
                                                test_name="t"))
        return outcome, set(build.handle.binaries)
    finally:
        backend.close(build)


def test_missing_syncthreads_between_shared_write_and_read_is_a_race_in_every_plan(any_plan):
    """A neighbour's shared slot read with no barrier after the write: RACE on both lines."""
    src = """__global__ void k(int* out) {
    __shared__ int s[64];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i;
    out[i] = s[(threadIdx.x + 1) % 64];
}"""
    out, _ = checked(any_plan, src, spec("k", ("out", "out", "int32")), (2, 1, 1), (64, 1, 1),
                     {"out": np.zeros(128, np.int32)})
    races = [d for d in out.diagnostics if str(d.kind) == "race"]
    assert out.status is RunStatus.OK and len(races) == 1
    assert {races[0].line, races[0].detail["other_line"]} == {4, 5}


def test_a_global_lost_update_is_a_race_in_every_plan(any_plan):
    """Every thread adds into out[0] without an atomic: a RACE (a lost update) on that line."""
    src = """__global__ void k(const int* x, int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[0] += x[i];
}"""
    kspec = spec("k", ("x", "in", "int32"), ("out", "out", "int32"))
    out, built = checked(any_plan, src, kspec, (2, 1, 1), (32, 1, 1),
                         {"x": np.ones(64, np.int32), "out": np.zeros(1, np.int32)})
    races = [d for d in out.diagnostics if str(d.kind) == "race"]
    assert races and races[0].line == 3 and "tsan" in built


@pytest.mark.parametrize("guard", ["i <= n", "i < n + 1"])
def test_an_out_of_bounds_write_is_caught_in_every_plan(any_plan, guard):
    """A guard one too wide writes c[n]: the plain run of the check pass faults there whatever the plan
    (the kernel is proven race-free, so the planned pass runs no race build)."""
    src = with_body(GID + f"if ({guard}) c[i] = a[i] + b[i];")
    n = 100
    inputs = {"a": np.ones(n, np.float32), "b": np.ones(n, np.float32), "c": np.zeros(n, np.float32), "n": n}
    out, _ = checked(any_plan, src, VECTOR_ADD_SPEC, (1, 1, 1), (128, 1, 1), inputs)
    assert out.status is RunStatus.FAULT
    assert "out_of_bounds" in kinds(out), kinds(out)


def test_an_underflowing_write_is_caught_by_the_aligned_run_in_every_plan(any_plan):
    """c[i - 1] for thread 0 writes before the buffer: the page-aligned run of every plan faults."""
    src = with_body(GID + "if (i < n) c[i - 1] = a[i];")
    n = 64
    inputs = {"a": np.ones(n, np.float32), "b": np.ones(n, np.float32), "c": np.zeros(n, np.float32), "n": n}
    out, _ = checked(any_plan, src, VECTOR_ADD_SPEC, (1, 1, 1), (64, 1, 1), inputs)
    assert out.status is RunStatus.FAULT and "out_of_bounds" in kinds(out), kinds(out)


def test_a_proven_kernel_gets_the_same_diagnostics_without_the_two_builds(any_plan, monkeypatch):
    """The bank's vector add: nothing to report in either plan; the planned pass builds neither the
    race nor the initcheck variant and runs only the plain run, the full one builds both and runs
    the aligned run too."""
    n = 1000
    inputs = {"a": np.ones(n, np.float32), "b": np.ones(n, np.float32), "c": np.zeros(n, np.float32), "n": n}
    runs = []
    run_once = any_plan._run_once
    monkeypatch.setattr(any_plan, "_run_once", lambda build, request, variant, start_aligned, **kw: (
        runs.append((variant, start_aligned)), run_once(build, request, variant, start_aligned, **kw))[1])
    out, built = checked(any_plan, VECTOR_ADD, VECTOR_ADD_SPEC, (4, 1, 1), (256, 1, 1), inputs)
    assert out.status is RunStatus.OK and out.diagnostics == []
    assert out.outputs["c"].tolist() == [2.0] * n
    assert built == ({"fast", "tsan", "initcheck"} if any_plan.full_check_pass else {"fast"})
    full_runs = [("fast", False), ("fast", True), ("tsan", False), ("initcheck", False)]
    assert runs == (full_runs if any_plan.full_check_pass else [("fast", False)])


def test_the_full_check_pass_option_reaches_the_emulator_backend_only():
    """The judge's OPTIONS["full_check_pass"] (config/settings.py: WARPDRILL_FULL_CHECK_PASS) is a
    constructor option of the emulator backend; the dummy backend is not given it."""
    from grader.core.backends import registry
    from grader.core.backends.dummy import DummyBackend

    options = {"full_check_pass": True, "cxx": "/usr/bin/g++"}
    assert registry.options_for(EmulatorBackend, options)["full_check_pass"] is True
    assert "full_check_pass" not in registry.options_for(DummyBackend, options)
    assert EmulatorBackend(**registry.options_for(EmulatorBackend, options)).full_check_pass is True
