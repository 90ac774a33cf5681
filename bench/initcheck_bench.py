"""Benchmark the shared-memory initcheck: what the check pass adds to the smallest test.

Usage (from the repository root):

    .venv/bin/python bench/initcheck_bench.py [--n 65536] [--repeat 3]

A shared-memory histogram (256 threads per block, 16 bins zeroed in shared memory, an atomicAdd per
element) of --n elements, compile time excluded: the plain run (backend._run_once "fast") and the
initcheck run (backend._run_once "initcheck", what emulator/initcheck.py does), the median of --repeat
runs each, in ms, and their ratio. Also the one-off compile of the initcheck variant. The last line is JSON.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from grader.core.backends.base import ArgRole, ArgSpec, KernelSpec, LaunchConfig, RunRequest  # noqa: E402

HISTOGRAM = r'''
__global__ void histogram(const int* data, int* bins, int n) {
    __shared__ int local[16];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x < 16) local[threadIdx.x] = 0;
    __syncthreads();
    if (i < n) atomicAdd(&local[data[i] % 16], 1);
    __syncthreads();
    if (threadIdx.x < 16) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}
'''
SPEC = KernelSpec("histogram", (ArgSpec("data", ArgRole.IN, "int32"), ArgSpec("bins", ArgRole.INOUT, "int32"),
                                ArgSpec("n", ArgRole.SCALAR, "int32")))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=65536)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    from grader.core.backends.emulator import EmulatorBackend

    backend = EmulatorBackend()
    build = backend.compile(HISTOGRAM, SPEC)
    assert build.compile.ok, build.compile.log
    t0 = time.perf_counter()
    ok, _m, log, _cached = backend._build_variant(build.handle, "initcheck")
    compile_ms = (time.perf_counter() - t0) * 1e3
    assert ok, log
    data = np.arange(args.n, dtype=np.int32)
    req = RunRequest(LaunchConfig(((args.n + 255) // 256, 1, 1), (256, 1, 1), 0),
                     {"data": data, "bins": np.zeros(16, np.int32), "n": args.n}, time_limit_s=60.0, test_name="bench")
    times = {}
    for variant in ("fast", "initcheck"):
        runs = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            out = backend._run_once(build, req, variant, start_aligned=False)
            runs.append((time.perf_counter() - t0) * 1e3)
            assert str(out.status) == "ok", out.message
            assert list(out.outputs["bins"]) == [args.n // 16] * 16
        times[variant] = statistics.median(runs)
    backend.close(build)
    ratio = times["initcheck"] / times["fast"]
    print(f"{'run':<12}{'median ms':>12}")
    for variant, ms in times.items():
        print(f"{variant:<12}{ms:>12.1f}")
    print(f"initcheck / fast: {ratio:.2f}x; initcheck variant compile {compile_ms:.0f} ms (cached after)")
    print(json.dumps({"n": args.n, "fast_ms": round(times["fast"], 1), "initcheck_ms": round(times["initcheck"], 1),
                      "ratio": round(ratio, 2), "initcheck_compile_ms": round(compile_ms)}))


if __name__ == "__main__":
    main()
