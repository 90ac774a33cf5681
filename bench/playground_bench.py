"""Benchmark a playground run on the emulator: what one run costs a worker, stage by stage.

Usage (from the repository root):

    .venv/bin/python bench/playground_bench.py [--n 1024] [--repeat 3]

Runs playground.core.run.run_playground on the emulator (the checking mode a playground run always
uses, plus the write-map run) for two kernels: the example (every thread writes its index) over
--n elements, and a kernel racing on shared memory. Reports the median wall time of --repeat runs
(the first run, which also compiles the runtime variants, is reported apart as "cold"), and the
size of the stored result (JSON bytes: what the database keeps per run).

Prints a table; the last line is JSON.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from grader.core.backends.registry import get_backend  # noqa: E402
from playground.core.run import PlaygroundRequest, run_playground  # noqa: E402
from playground.core.spec import kernel_name, parse_arguments, parse_launch  # noqa: E402

IOTA = """\
__global__ void iota(int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = i;
}
"""
RACY = """\
__global__ void count(int* out, int n) {
    __shared__ int total;
    if (threadIdx.x == 0) total = 0;
    __syncthreads();
    total += 1;
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = total;
}
"""


def request(source: str, size: int, grid: str, block: str) -> PlaygroundRequest:
    args = parse_arguments([{"name": "out", "kind": "output", "dtype": "int32", "size": str(size)},
                            {"name": "n", "kind": "scalar", "dtype": "int32", "value": str(size)}])
    return PlaygroundRequest(source, kernel_name(source), args, parse_launch(grid, block, "", args))


def measure(backend, req: PlaygroundRequest, repeat: int) -> dict:
    times, result = [], None
    for _ in range(repeat + 1):
        started = time.monotonic()
        result = run_playground(req, backend)
        times.append(time.monotonic() - started)
    return {"cold_s": round(times[0], 3), "median_s": round(statistics.median(times[1:]), 3),
            "ending": result.ending, "diagnostics": len(result.diagnostics),
            "writemaps": len(result.writemaps), "stored_bytes": len(json.dumps(result.to_dict()))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1024)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    backend = get_backend("emulator")
    figures = {
        "iota": measure(backend, request(IOTA, options.n, "ceil_div(n, 256)", "256"), options.repeat),
        "racy": measure(backend, request(RACY, 2, "2", "64"), options.repeat),
    }
    print(f"{'kernel':<8}{'cold s':>9}{'median s':>10}{'ending':>8}{'diags':>7}{'maps':>6}{'stored B':>10}")
    for name, f in figures.items():
        print(f"{name:<8}{f['cold_s']:>9}{f['median_s']:>10}{f['ending']:>8}{f['diagnostics']:>7}"
              f"{f['writemaps']:>6}{f['stored_bytes']:>10}")
    print(json.dumps({"n": options.n, "repeat": options.repeat, **figures}))


if __name__ == "__main__":
    main()
