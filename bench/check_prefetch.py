"""The check pass of a trivial kernel with its variants compiled side by side (prefetch) and one
after the other, alternating in one run.

Usage: .venv/bin/python bench/check_prefetch.py [--rounds 4]

Judges the bank's vector-add-tail solution (checks: memcheck, so the check pass runs the kernel
aligned, under ThreadSanitizer and under the initcheck, compiling the last two variants) through
grader.core.judge.judge on the emulator, each round with a fresh comment so that nothing comes from
the binary cache; odd rounds with grader/core/emulator/prefetch.py on, even rounds with it off.
Prints the judge's wall time per round and the medians; the last line is JSON.
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
sys.path.insert(0, str(ROOT))

from grader.core.backends.emulator import EmulatorBackend  # noqa: E402
from grader.core.emulator import prefetch  # noqa: E402
from grader.core.judge import judge  # noqa: E402
from problems.core.package import load_package  # noqa: E402

SLUG = "vector-add-tail"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=4, help="rounds of each mode")
    args = p.parse_args()
    package = load_package(ROOT / "problems" / "bank" / SLUG)
    source = package.solution
    backend = EmulatorBackend()
    backend.prepare()
    start = prefetch.start
    times: dict[str, list[float]] = {"prefetch": [], "one_after_another": []}
    verdicts = set()
    for i in range(2 * args.rounds):
        mode = "prefetch" if i % 2 == 0 else "one_after_another"
        prefetch.start = start if mode == "prefetch" else (lambda backend, handle, variants=(): [])
        began = time.monotonic()
        result = judge(package, f"// round {i} {time.time_ns()}\n{source}", backend)
        times[mode].append(time.monotonic() - began)
        verdicts.add(result.verdict.value)
        print(f"round {i + 1}: {mode:18} {times[mode][-1]:.2f} s  {result.verdict.value}")
    prefetch.start = start
    out = {m: {"median_s": round(statistics.median(v), 3), "runs_s": [round(x, 3) for x in v]} for m, v in times.items()}
    out.update(verdicts=sorted(verdicts), load_average_1min=round(os.getloadavg()[0], 2))
    print(f"median: prefetch {out['prefetch']['median_s']:.2f} s, one after another "
          f"{out['one_after_another']['median_s']:.2f} s (load {out['load_average_1min']})")
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
