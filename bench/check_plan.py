"""Where a trivial kernel's grading goes, stage by stage, with the full check pass and the planned one,
alternating in one run (issue #17).

Usage: .venv/bin/python bench/check_plan.py [--rounds 4] [--slug vector-add-tail]

Judges the bank's solution of `--slug` through grader.core.judge.judge on the emulator, each round with
a fresh comment so that nothing comes from the binary cache; even rounds with full_check_pass (every
check pass compiles and runs the ThreadSanitizer and the initcheck builds, WARPDRILL_FULL_CHECK_PASS=1),
odd rounds with the check plan (grader/core/emulator/checkplan.py, runmemo.py). Each backend step is
timed: the compile of each build variant, each run (plain, page-aligned, tsan, initcheck), addr2line.
Prints the medians per mode; the last line is JSON.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from grader.core.backends.emulator import EmulatorBackend  # noqa: E402
from grader.core.judge import judge  # noqa: E402
from problems.core.package import load_package  # noqa: E402

MODES = ("full", "planned")


def timed(backend: EmulatorBackend, times: dict[str, list[float]]) -> None:
    """Wrap the backend's compile-variant, run and addr2line steps so that each adds its seconds to
    times["<step>:<variant>"] (a list per round, summed by the caller)."""
    def wrap(name, fn, key):
        def step(*args, **kwargs):
            began = time.monotonic()
            try:
                return fn(*args, **kwargs)
            finally:
                times[f"{name}:{key(args, kwargs)}"] += time.monotonic() - began
        return step

    backend._build_variant = wrap("compile", backend._build_variant, lambda a, k: a[1])
    backend._run_once = wrap("run", backend._run_once,
                             lambda a, k: a[2] + ("-aligned" if k.get("start_aligned") else ""))
    backend.addr2line = wrap("addr2line", backend.addr2line, lambda a, k: "")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=4, help="rounds of each mode")
    p.add_argument("--slug", default="vector-add-tail")
    args = p.parse_args()
    package = load_package(ROOT / "problems" / "bank" / args.slug)
    backends = {m: EmulatorBackend(full_check_pass=m == "full") for m in MODES}
    for b in backends.values():
        b.prepare()
    rounds: dict[str, list[dict[str, float]]] = {m: [] for m in MODES}
    verdicts = set()
    loads = [os.getloadavg()[0]]
    for i in range(2 * args.rounds):
        mode = MODES[i % 2]
        times: dict[str, float] = collections.defaultdict(float)
        timed(backends[mode], times)
        began = time.monotonic()
        result = judge(package, f"// round {i} {time.time_ns()}\n{package.solution}", backends[mode])
        times["judge"] = time.monotonic() - began
        backends[mode] = EmulatorBackend(full_check_pass=mode == "full")  # unwrapped for the next round
        rounds[mode].append(dict(times))
        verdicts.add(result.verdict.value)
        print(f"round {i + 1}: {mode:8} {times['judge']:.2f} s  {result.verdict.value}", flush=True)
    loads.append(os.getloadavg()[0])
    out = {}
    for mode, per_round in rounds.items():
        keys = sorted({k for r in per_round for k in r})
        out[mode] = {k: round(statistics.median(r.get(k, 0.0) for r in per_round), 3) for k in keys}
        print(f"{mode:8} median s: " + ", ".join(f"{k} {v:.3f}" for k, v in out[mode].items()))
    out.update(verdicts=sorted(verdicts), rounds=args.rounds, load_average_1min=[round(x, 2) for x in loads],
               cpus=os.cpu_count(), slug=args.slug)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
