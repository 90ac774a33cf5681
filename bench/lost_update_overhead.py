"""The cost of the lost-update marks (grader/core/emulator/rmw.py) on kernels without races.

Usage (from the repository root): REPS=5 ONLY=reduce .venv/bin/python bench/lost_update_overhead.py

Each case (emulator_bench.py's reduction and matmul, plus an axpy `y[i] += a * x[i]` on the fast
path) is compiled twice, with the marks and with the rewriter's marks switched off, and the two
binaries are run alternately REPS times (default 3); the minimum child time of each is printed,
with their ratio (marked / unmarked). ONLY keeps the cases whose name starts with it. The last line
is JSON.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import emulator_bench as eb  # noqa: E402
from grader.core.backends.base import LaunchConfig, RunRequest  # noqa: E402
from grader.core.backends.emulator import EmulatorBackend  # noqa: E402
from grader.core.emulator import rmw  # noqa: E402

AXPY = """__global__ void axpy(const float* x, float* y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] += a * x[i];
}
"""


def cases():
    n = 1 << 24
    x = np.random.default_rng(1).random(n, dtype=np.float32)
    axpy = ("axpy_2^24", AXPY, eb._spec("axpy", ("x", "in", "float32"), ("y", "inout", "float32"),
                                        ("a", "scalar", "float32"), ("n", "scalar", "int32")),
            LaunchConfig((n // 256, 1, 1), (256, 1, 1)), {"x": x, "y": np.ones(n, np.float32), "a": 2.0, "n": n},
            n, 1.0, lambda out: np.allclose(out["y"], 1 + 2 * x))
    found = [c for c in eb.cases() if not c[0].startswith("vector")] + [axpy]
    return [c for c in found if c[0].startswith(os.environ.get("ONLY", ""))]


def main() -> None:
    backend = EmulatorBackend()
    marks = rmw.rmw_edits
    reps = int(os.environ.get("REPS", "3"))
    results = {}
    for name, src, kspec, launch, inputs, _elements, _budget, verify in cases():
        builds = {}
        for mode in ("marked", "unmarked"):
            rmw.rmw_edits = marks if mode == "marked" else (lambda tokens: [])
            try:
                builds[mode] = backend.compile(src, kspec)
            finally:
                rmw.rmw_edits = marks
            if not builds[mode].compile.ok:
                raise SystemExit(builds[mode].compile.log)
        best = {"marked": float("inf"), "unmarked": float("inf")}
        for _ in range(reps):
            for mode in ("unmarked", "marked"):
                out = backend.run(builds[mode], RunRequest(launch, dict(inputs), time_limit_s=60))
                if out.status.value != "ok" or not verify(out.outputs):
                    raise SystemExit(f"{name} ({mode}): {out.status.value} {out.message}")
                best[mode] = min(best[mode], out.time_s)
        for build in builds.values():
            backend.close(build)
        results[name] = {mode: round(t, 3) for mode, t in best.items()}
        results[name]["ratio"] = round(best["marked"] / best["unmarked"], 3)
        print(f"{name:14} marked {best['marked']:7.3f} s  unmarked {best['unmarked']:7.3f} s  "
              f"ratio {results[name]['ratio']}", flush=True)
    print(json.dumps({"cases": results, "reps": reps, "load": os.getloadavg()[0]}))


if __name__ == "__main__":
    main()
