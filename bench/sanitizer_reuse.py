#!/usr/bin/env python3
"""Long-lived sanitizer children on a GPU: does each check get exactly its own report, and what does a check cost?

    python3 bench/sanitizer_reuse.py [--rounds 10] [--logs DIR] [--json out.json]

One GpuBackend (as one Celery pool process holds one). Four kernels, checked with memcheck,
racecheck and synccheck, in rounds of: clean, race, clean, divergent barrier, clean. Every
check's diagnostics are compared with what that kernel alone must give: a clean check right
after a racy one must report nothing (the race belongs to the job before its fence). Then an
out-of-bounds kernel, which ends memcheck's child (a sticky error): its report must still be
whole, and the next clean check must be clean on the successor.

Measured twice: with children that serve `--jobs` checks each (the default), and with
`--jobs 1`, a fresh child per check (what the backend did before). --logs copies each tool's raw
log (every fence included) there, as evidence of the format. Last line printed: one JSON object.
"""
from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.core.backends.base import ArgRole, ArgSpec, KernelSpec, LaunchConfig, RunRequest  # noqa: E402
from grader.core.verdicts import DiagnosticKind  # noqa: E402

SPEC = KernelSpec("k", (ArgSpec("x", ArgRole.IN, "float32"), ArgSpec("y", ArgRole.OUT, "float32"),
                        ArgSpec("n", ArgRole.SCALAR, "int32")))
HEAD = "__global__ void k(const float* x, float* y, int n)\n{\n    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;\n"
KERNELS = {  # name: (body, the (kind, line) set its check must give)
    "clean": ("    __shared__ float s[256];\n    s[t] = x[i];\n    __syncthreads();\n    y[i] = s[255 - t];\n}\n", set()),
    "race": ("    __shared__ float s[256];\n    s[t] = x[i];\n    y[i] = s[(t + 1) % 256];\n}\n",
             {("race", 5), ("race", 6)}),
    "divergent": ("    __shared__ float s[256];\n    s[t] = x[i];\n"
                  "    if (t % 2) { __syncthreads(); } else { __syncthreads(); }\n    y[i] = s[255 - t];\n}\n",
                  {("divergent_barrier", 6)}),
    "oob": ("    y[i + 8] = x[i];\n}\n", {("out_of_bounds", 4)}),
}
ROUND = ["clean", "race", "clean", "divergent", "clean"]


def check(backend, builds, name):
    n = 1024
    request = RunRequest(launch=LaunchConfig((n // 256, 1, 1), (256, 1, 1)), time_limit_s=5.0, check=True,
                         checks=("memcheck", "racecheck", "synccheck"),
                         inputs={"x": np.arange(n, dtype=np.float32), "y": np.empty(n, np.float32), "n": n})
    started = time.monotonic()
    out = backend.run(builds[name], request)
    took = time.monotonic() - started
    got = {(str(d.kind), d.line) for d in out.diagnostics if d.kind is not DiagnosticKind.NOTE}
    want = KERNELS[name][1]
    # race: either line of the pair may be named first; a clean kernel must give nothing at all
    ok = got == want if name != "race" else (bool(got) and got <= want)
    return {"kernel": name, "s": round(took, 4), "ok": ok, "got": sorted(got), "status": str(out.status),
            "timings": dict(backend.last_check)}


def measure(jobs: int, rounds: int, logs: Path | None) -> dict:
    from grader.core.backends.gpu import GpuBackend
    from grader.core.gpu.pool import ChildPool

    backend = GpuBackend(pool=ChildPool(sanitizer_jobs=jobs))
    backend.prepare()
    builds = {}
    for name, (body, _) in KERNELS.items():
        builds[name] = backend.compile(HEAD + body, SPEC)
        assert builds[name].compile.ok, builds[name].compile.log
    for tool in ("memcheck", "racecheck", "synccheck"):
        backend.pool.sanitizer_child(tool).wait_ready()
    rows = [check(backend, builds, name) for _ in range(rounds) for name in ROUND]
    rows.append(check(backend, builds, "oob"))
    rows.append(check(backend, builds, "clean"))
    if logs is not None:
        logs.mkdir(parents=True, exist_ok=True)
        for tool, child in backend.pool.children.items():
            src = child.workdir / "sanitizer.log"
            if src.exists():
                shutil.copy(src, logs / f"jobs{jobs}-{tool}.log")
    pids = {tool: child.proc.pid for tool, child in backend.pool.children.items()}
    backend.shutdown()
    times = [r["s"] for r in rows[:-2]]
    return {"jobs_per_child": jobs, "checks": len(rows), "all_as_expected": all(r["ok"] for r in rows),
            "wrong": [r for r in rows if not r["ok"]],
            "check_p50_s": round(statistics.median(times), 4), "check_mean_s": round(statistics.fmean(times), 4),
            "check_max_s": round(max(times), 4), "oob_s": rows[-2]["s"], "after_oob": rows[-1],
            "children_at_end": pids}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--jobs", type=int, default=100, help="checks per sanitizer child in the first measurement")
    parser.add_argument("--logs", help="copy the tools' raw logs into this folder")
    parser.add_argument("--json", help="also write the figures here")
    args = parser.parse_args()
    from bench.judge_settings import configure_judge

    configure_judge()  # the sandbox and options a worker would get from the environment
    logs = Path(args.logs) if args.logs else None
    result = {"date": time.strftime("%Y-%m-%d"), "long_lived": measure(args.jobs, args.rounds, logs),
              "fresh_per_check": measure(1, max(1, args.rounds // 5), logs)}
    for key in ("long_lived", "fresh_per_check"):
        print(f"# {key}: {json.dumps(result[key])}", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))
    print(json.dumps(result))
    return 0 if all(result[k]["all_as_expected"] for k in ("long_lived", "fresh_per_check")) else 1


if __name__ == "__main__":
    sys.exit(main())
