#!/usr/bin/env python3
"""Submit-to-verdict latency and gradings per minute of a warm GPU backend on the shipped problems.

    python3 bench/gpu_bench.py [--reps 1] [--json out.json]

Plain Python over the judge core (no Django, no database, no queue: the queue adds its own
hop). One backend, as one Celery worker per GPU holds one, warmed by two gradings first. Every
solution.cu and wrong/*.cu of problems/bank/ (except those that must hang: they take their time
limit by design) is judged in three settings:
- new: a source the compile cache has never seen (a unique comment is appended), with the
  problem's sanitizer checks: what a student's fresh submission costs;
- resubmitted: the same sources again (compile cache hits), with checks;
- no-checks: new sources, checks off: the cost without compute-sanitizer.
Stage times come from the judge's progress callback (compiling -> running -> checking).
The last line printed is one JSON object with the figures.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.core.backends.registry import hang_explainer  # noqa: E402
from grader.core.judge import judge  # noqa: E402
from grader.core.verdicts import Verdict  # noqa: E402
from problems.core.package import load_package  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def submissions():
    for folder in sorted(p for p in (ROOT / "problems" / "bank").iterdir() if (p / "problem.yaml").exists()):
        package = load_package(folder)
        yield package, "solution.cu", package.solution
        for wrong in package.wrong:
            if wrong.verdict not in (Verdict.DEADLOCK, Verdict.TIME_LIMIT):
                yield package, f"wrong/{wrong.name}", wrong.source


def timed(backend, package, source, run_checks=True) -> dict:
    marks: dict[str, float] = {}
    started = time.monotonic()

    def progress(stage, done, total):
        marks.setdefault(stage, time.monotonic())

    result = judge(package, source, backend, progress=progress, run_checks=run_checks,
                   explainer=hang_explainer(backend))
    end = time.monotonic()
    compiling, running = marks.get("compiling", started), marks.get("running", end)
    checking = marks.get("checking", end)
    return {"total": end - started, "compile": running - compiling, "tests": checking - running,
            "checks": end - checking if "checking" in marks else 0.0, "verdict": str(result.verdict),
            "cached": bool(result.compile and result.compile.cached)}


def summary(rows: list[dict]) -> dict:
    totals = [r["total"] for r in rows]
    mean = statistics.fmean(totals) if totals else float("nan")
    return {
        "n": len(rows),
        "p50_s": round(percentile(totals, 0.5), 3),
        "p95_s": round(percentile(totals, 0.95), 3),
        "mean_s": round(mean, 3),
        "per_minute": round(60.0 / mean, 1) if totals else 0.0,
        "stage_mean_s": {k: round(statistics.fmean(r[k] for r in rows), 3) for k in ("compile", "tests", "checks")},
    }


def parallel(subs, workers: int) -> dict:
    """N backends (as N Celery pool processes would hold) grading new sources at once on one GPU."""
    from concurrent.futures import ThreadPoolExecutor

    from grader.core.backends.gpu import GpuBackend

    backends = [GpuBackend() for _ in range(workers)]
    for b in backends:
        b.pool.main_child().wait_ready()
        judge(subs[0][0], subs[0][2] + f"\n// warm {uuid.uuid4()}\n", b)
    jobs = [(package, source + f"\n// par {uuid.uuid4()}\n") for package, _, source in subs * 2]
    chunks = [jobs[k::workers] for k in range(workers)]

    def work(k):
        return [timed(backends[k], package, source) for package, source in chunks[k]]

    started = time.monotonic()
    with ThreadPoolExecutor(workers) as pool:
        rows = [r for part in pool.map(work, range(workers)) for r in part]
    wall = time.monotonic() - started
    for b in backends:
        b.shutdown()
    out = summary(rows)
    out["workers"] = workers
    out["wall_s"] = round(wall, 2)
    out["per_minute"] = round(len(rows) / wall * 60, 1)  # throughput of all workers together
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=1, help="passes over the bank per setting")
    parser.add_argument("--json", help="also write the figures here")
    parser.add_argument("--max", type=int, default=0, help="at most this many submissions per pass (spread over the bank)")
    parser.add_argument("--settings", default="new,resubmitted,no_checks")
    parser.add_argument("--concurrency", type=int, default=0,
                        help="also measure N worker processes' worth of backends sharing the GPU (new sources)")
    args = parser.parse_args()
    from bench.judge_settings import configure_judge

    configure_judge()  # the sandbox and options a worker would get from the environment
    from grader.core import sandbox
    from grader.core.backends.gpu import GpuBackend

    backend = GpuBackend()
    info = backend.pool.main_child().wait_ready()
    subs = list(submissions())
    if args.max and len(subs) > args.max:
        step = len(subs) / args.max
        subs = [subs[int(k * step)] for k in range(args.max)]
    for package, _, source in subs[:2]:  # warm-up: sanitizer children, imports, the driver's caches
        judge(package, source + f"\n// warm {uuid.uuid4()}\n", backend)
    settings = {}
    wanted = args.settings.split(",")
    for name, fresh, checks in (("new", True, True), ("resubmitted", False, True), ("no_checks", True, False)):
        if name not in wanted:
            continue
        rows = []
        for _ in range(args.reps):
            for package, path, source in subs:
                text = source + f"\n// bench {uuid.uuid4()}\n" if fresh else source
                backend.last_check = {}
                row = timed(backend, package, text, run_checks=checks)
                row["check"] = backend.last_check
                row["case"] = f"{package.slug}/{path}"
                rows.append(row)
                print(f"{name:12s} {row['case']:60s} {row['total']:6.3f}s compile {row['compile']:.3f} "
                      f"tests {row['tests']:.3f} checks {row['checks']:.3f} {row['verdict']}", flush=True)
        settings[name] = summary(rows)
        checks = [r["check"] for r in rows if r.get("check")]
        if checks:
            settings[name]["check_timings_mean_s"] = {
                k: round(statistics.fmean(c[k] for c in checks if k in c), 3) for k in checks[0]}
        print(f"# {name}: {json.dumps(settings[name])}", flush=True)
    backend.shutdown()
    if args.concurrency > 1:
        settings[f"parallel_{args.concurrency}"] = parallel(subs, args.concurrency)
        print(f"# parallel: {json.dumps(settings[f'parallel_{args.concurrency}'])}", flush=True)
    result = {"date": time.strftime("%Y-%m-%d"), "device": info.get("device"), "cc": info.get("cc"),
              "sandboxed": sandbox.box.DEFAULT.works(), "submissions_per_pass": len(subs), **settings,
              "p50_s": settings.get("new", {}).get("p50_s"), "p95_s": settings.get("new", {}).get("p95_s"),
              "gradings_per_minute_per_gpu": settings.get("new", {}).get("per_minute")}
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
