"""Benchmark the write map: drawing a 1M-element map as the page does, and the cost of recording one.

Usage (from the repository root):

    .venv/bin/python bench/writemap_bench.py [--side 1024] [--repeat 5]

1. Served: a 1024 x 1024 output's stored map (grader.core.writemap.store.encode, as the judge keeps it in
   the result) decoded and drawn to SVG (render_stored, what the verdict page does per map): the
   median of --repeat runs, in ms; the goal is under 300 ms. Also a 1M-element 1-D output.
2. Recorded: a tiled transpose of a side x side matrix on the emulator, run plainly (backend.run) and
   with the write map (backend.run_writemap), compile time excluded: the median of --repeat runs each.

Prints a table; the last line is JSON.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from grader.core.backends.base import ArgRole, ArgSpec, KernelSpec, LaunchConfig, RunRequest  # noqa: E402
from grader.core.writemap.model import WriteMap  # noqa: E402
from grader.core.writemap.store import encode, render_stored  # noqa: E402

TRANSPOSE = r'''
#define TILE 16
extern "C" __global__ void transpose(float* out, const float* in, int rows, int cols) {
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < cols && y < rows) out[x * rows + y] = in[y * cols + x];
}
'''
SPEC = KernelSpec("transpose", (ArgSpec("out", ArgRole.OUT, "float32"), ArgSpec("in", ArgRole.IN, "float32"),
                                ArgSpec("rows", ArgRole.SCALAR, "int32"), ArgSpec("cols", ArgRole.SCALAR, "int32")))


def _median_ms(fn, repeat: int, clock=time.perf_counter) -> float:
    """Median milliseconds of `fn` on `clock` (wall time, or time.process_time: this process's CPU time,
    which a loaded machine does not inflate)."""
    times = []
    for _ in range(repeat):
        start = clock()
        fn()
        times.append((clock() - start) * 1000)
    return statistics.median(times)


def transposed_map(side: int, tile: int = 16) -> WriteMap:
    """The map a tiled transpose leaves: out[c, r] written by the thread at x = c, y = r."""
    r, c = np.meshgrid(np.arange(side), np.arange(side), indexing="xy")  # element (c, r) of out
    blocks = (c // tile) + (side // tile) * (r // tile)
    writer = blocks * tile * tile + (c % tile) + tile * (r % tile)
    grid = (side // tile, side // tile, 1)
    return WriteMap("out", (side, side), writer.ravel().astype(np.int64), np.ones(side * side, np.uint8), grid,
                    (tile, tile, 1))


def bench_served(side: int, repeat: int) -> dict:
    wm = transposed_map(side)
    n = side * side
    expected = np.arange(n, dtype=np.float32)
    got = expected.copy()
    got[::97] = -1
    stored = encode(wm, test="big", sample=True, expected=expected, got=got)
    stored_bytes = len(json.dumps(stored))
    svg = render_stored(stored)
    served_2d = _median_ms(lambda: render_stored(stored), repeat)
    one_d = WriteMap("out", (n,), np.arange(n, dtype=np.int64), np.ones(n, np.uint8), (n // 256, 1, 1), (256, 1, 1))
    stored_1d = encode(one_d, test="big", sample=True, expected=expected, got=got)
    served_1d = _median_ms(lambda: render_stored(stored_1d), repeat)
    cpu_2d = _median_ms(lambda: render_stored(stored), repeat, time.process_time)
    cpu_1d = _median_ms(lambda: render_stored(stored_1d), repeat, time.process_time)
    return {"elements": n, "served_2d_ms": round(served_2d, 1), "served_1d_ms": round(served_1d, 1),
            "served_2d_cpu_ms": round(cpu_2d, 1), "served_1d_cpu_ms": round(cpu_1d, 1),
            "svg_bytes": len(svg), "stored_bytes": stored_bytes}


def bench_recorded(side: int, repeat: int) -> dict:
    from grader.core.backends.emulator import EmulatorBackend

    backend = EmulatorBackend()
    build = backend.compile(TRANSPOSE, SPEC)
    assert build.compile.ok, build.compile.log
    try:
        inputs = {"out": np.zeros((side, side), np.float32), "in": np.random.default_rng(0).random((side, side),
                                                                                                  np.float32),
                  "rows": side, "cols": side}
        request = RunRequest(LaunchConfig((side // 16, side // 16, 1), (16, 16, 1), 0), inputs, time_limit_s=60.0)
        start = time.perf_counter()
        backend.run_writemap(build, request)  # builds the writemap variant once
        compile_ms = (time.perf_counter() - start) * 1000
        plain = _median_ms(lambda: backend.run(build, request), repeat)
        recorded = _median_ms(lambda: backend.run_writemap(build, request), repeat)
        outcome = backend.run_writemap(build, request)
        assert outcome.writemaps["out"].counts()["never"] == 0
    finally:
        backend.close(build)
    return {"threads": side * side, "plain_run_ms": round(plain, 1), "writemap_run_ms": round(recorded, 1),
            "writemap_overhead": round(recorded / plain, 2), "first_writemap_run_with_build_ms": round(compile_ms)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--side", type=int, default=1024, help="matrix side (side x side elements)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-run", action="store_true", help="only the drawing part (no emulator)")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    print(f"load average before: {load:.1f} on {os.cpu_count()} cores")
    served = bench_served(args.side, args.repeat)
    print(f"drawn  {served['elements']:>9} elements  2-D {served['served_2d_ms']:7.1f} ms "
          f"({served['served_2d_cpu_ms']:.1f} ms CPU)  1-D {served['served_1d_ms']:7.1f} ms "
          f"({served['served_1d_cpu_ms']:.1f} ms CPU)  (SVG {served['svg_bytes'] >> 10} KiB, "
          f"stored {served['stored_bytes'] >> 10} KiB; goal < 300 ms)")
    result = {"load_average": round(load, 1), "served": served}
    if not args.no_run:
        recorded = bench_recorded(args.side, args.repeat)
        print(f"run    {recorded['threads']:>9} threads   plain {recorded['plain_run_ms']:7.1f} ms  "
              f"with write map {recorded['writemap_run_ms']:7.1f} ms  (x{recorded['writemap_overhead']}; "
              f"first run incl. the variant's build {recorded['first_writemap_run_with_build_ms']} ms)")
        result["recorded"] = recorded
    print(json.dumps(result))


if __name__ == "__main__":
    main()
