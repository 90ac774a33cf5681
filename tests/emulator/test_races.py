"""Check mode: ThreadSanitizer-based race detection with CUDA's happens-before edges."""
from __future__ import annotations

import numpy as np

from grader.core.backends.base import RunStatus

from .conftest import kinds, spec
from .test_fidelity import REDUCE4, REDUCE4_SPEC

ONE_ARG = spec("k", ("out", "out", "int32"))


def test_neighbour_read_without_barrier_is_a_race(run):
    """Reading a neighbour's shared slot with no barrier in between is a RACE naming both lines and the array."""
    src = """__global__ void k(int* out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t;
    out[blockIdx.x * 64 + t] = s[(t + 1) % 64];
}"""
    out = run(src, ONE_ARG, (2, 1, 1), (64, 1, 1), {"out": np.zeros(128, np.int32)}, check=True)
    assert out.status is RunStatus.OK
    races = [d for d in out.diagnostics if str(d.kind) == "race"]
    assert len(races) == 1
    assert {races[0].line, races[0].detail["other_line"]} == {4, 5}
    assert races[0].detail["array"] == "s"


def test_barrier_orders_the_neighbour_read(run):
    """With __syncthreads() between the write and the neighbour read, check mode reports nothing."""
    src = """__global__ void k(int* out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    out[blockIdx.x * 64 + t] = s[(t + 1) % 64];
}"""
    out = run(src, ONE_ARG, (3, 1, 1), (64, 1, 1), {"out": np.zeros(192, np.int32)}, check=True)
    assert out.status is RunStatus.OK
    assert out.diagnostics == []


def test_reduce4_is_race_free_in_check_mode(run):
    """The seed's reduce4 at 256 threads passes the race check (barriers and __syncwarp order every access)."""
    n = 4096
    x = np.ones(n, np.float32)
    out = run(REDUCE4, REDUCE4_SPEC, (4, 1, 1), (256, 1, 1), {"y": np.zeros(4, np.float32), "x": x, "N": n},
              shared=1024, check=True)
    assert out.status is RunStatus.OK
    assert out.diagnostics == []
    assert out.outputs["y"].sum() == n


def test_warp_synchronous_reduction_with_volatile_only_races(run):
    """The volatile-only warp-synchronous reduction gives the right sum here but races (racecheck agrees)."""
    src = """__global__ void k(float* y, const float* x) {
    __shared__ float s[64];
    int t = threadIdx.x;
    s[t] = x[blockIdx.x * 64 + t];
    __syncthreads();
    if (t < 32) {
        volatile float* v = s;
        v[t] += v[t + 32]; v[t] += v[t + 16]; v[t] += v[t + 8];
        v[t] += v[t + 4]; v[t] += v[t + 2]; v[t] += v[t + 1];
    }
    if (t == 0) y[blockIdx.x] = s[0];
}"""
    kspec = spec("k", ("y", "out", "float32"), ("x", "in", "float32"))
    out = run(src, kspec, (1, 1, 1), (64, 1, 1), {"y": np.zeros(1, np.float32), "x": np.ones(64, np.float32)}, check=True)
    assert "race" in kinds(out)


def test_race_run_options_skip_the_exit_sleep_and_keep_equal_addresses():
    """The race run's ThreadSanitizer does not sleep a second at exit (its default atexit_sleep_ms=1000
    was 1.0 of the 1.4 s a trivial kernel's race run took; the run has one thread, so nothing can race
    at exit) and still reports both hazards of a lost update (suppress_equal_addresses=0)."""
    from grader.core.emulator import races

    options = dict(item.split("=", 1) for item in races.TSAN_OPTIONS.split())
    assert options["atexit_sleep_ms"] == "0"
    assert options["suppress_equal_addresses"] == "0"
    assert options["log_path"] == "/box/tsan"
