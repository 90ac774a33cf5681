"""NVRTC with --minimal tried first (grader/core/gpu/nvrtc.py MINIMAL) against NVRTC without it, on the
bank: issue 17's compile stage on the GPU worker.

    python bench/nvrtc_minimal.py [--arch sm_90] [--repeat 3]

For each bank source (solutions and wrong/*.cu, each package's default variant), in this process,
alternating: "before" (one NVRTC compile without --minimal, as until 2026-12-06) and "after"
(compile_in_process: --minimal first, again without it where that fails), `--repeat` times each (the
median kept). Sources NVRTC refuses both ways (they go to nvcc) are counted, not timed. Needs the
cuda-bindings package (NVRTC runs without a GPU). Prints figures; the last line is JSON.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# As in the compiler child (gpu/isolation.py): NVRTC's own cache off, or a repeated compile (and one whose source
# differs only in comments) is served from it and the figures are not the compiler's.
os.environ["CUDA_CACHE_DISABLE"] = "1"
sys.path.insert(0, str(ROOT))

from bench.nvrtc_fallbacks import bank_sources  # noqa: E402
from grader.core.gpu import nvrtc as ours  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arch", default="sm_90")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    from cuda.bindings import nvrtc

    ours.warm_up(args.arch)
    before, after, refused, retried, same = [], [], 0, 0, 0
    for name, tu in bank_sources():
        b_times, a_times = [], []
        for _ in range(args.repeat):
            started = time.perf_counter()
            result, _, plain = ours._compile_once(nvrtc, tu, args.arch, [])
            b_times.append(time.perf_counter() - started)
            reply = ours.compile_in_process(tu, args.arch)
            a_times.append(reply.time_s)
        if result != nvrtc.nvrtcResult.NVRTC_SUCCESS:
            refused += 1
            continue
        retried += ours._compile_once(nvrtc, tu, args.arch, [ours.MINIMAL])[0] != nvrtc.nvrtcResult.NVRTC_SUCCESS
        same += reply.cubin == plain
        before.append(statistics.median(b_times))
        after.append(statistics.median(a_times))
    figures = {"sources": len(before) + refused, "arch": args.arch, "nproc": os.cpu_count(), "repeat": args.repeat,
               "nvrtc_refused": refused, "compiled_again_without_minimal": retried, "same_cubin": same,
               "before_p50_ms": round(statistics.median(before) * 1000, 1),
               "before_mean_ms": round(statistics.fmean(before) * 1000, 1),
               "after_p50_ms": round(statistics.median(after) * 1000, 1),
               "after_mean_ms": round(statistics.fmean(after) * 1000, 1)}
    print(f"{len(before)} sources NVRTC compiles ({refused} refused both ways: nvcc's); the same cubin for {same}; "
          f"{retried} compiled again without --minimal")
    print(f"before (no --minimal): p50 {figures['before_p50_ms']} ms, mean {figures['before_mean_ms']} ms")
    print(f"after (--minimal first): p50 {figures['after_p50_ms']} ms, mean {figures['after_mean_ms']} ms")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
