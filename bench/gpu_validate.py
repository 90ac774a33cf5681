#!/usr/bin/env python3
"""Validate a judge backend against the problem bank and the emulator-fidelity kernels.

    python3 bench/gpu_validate.py --backend gpu --json /tmp/gpu.json [--logs /tmp/logs.tar]
    python3 bench/gpu_validate.py --backend emulator --json /tmp/emulator.json

Plain Python over the judge core (no Django, no database). Three parts:
1. bank: every package under problems/bank/ (what exists when it runs): solution.cu must be
   ACCEPTED and every wrong/*.cu must get the verdict it declares.
2. fidelity: the kernels of the emulator issue (reduce4 at 128/256/512/1024 threads, the
   turnstile `if (t < 128) __syncthreads();` with the others exiting, barriers in both branches,
   warps parked at a barrier while others spin on a flag, a neighbour read without a barrier,
   warp-synchronous reductions with neither volatile nor __syncwarp / volatile only / __syncwarp,
   a missing bounds check), each with the verdict it should get.
3. recovery (gpu only): a hung kernel killed at the limit, then a correct grading on the same
   backend instance, with the times.
4. cases: the fidelity cases of issue 11 (tests/fidelity/cases/), each with the verdict WarpDrill
   must give (`expect.verdict`; where the GPU path cannot see the fault by design, `expect.gpu`
   lists what it may give instead, and the row says so).
Writes one JSON document and prints a Markdown table per part. With --logs, the raw
compute-sanitizer reports of every check pass are saved in a tar file (parser fixtures).
"""
from __future__ import annotations

import argparse
import io
import json
import platform
import sys
import tarfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.core.backends.registry import hang_explainer  # noqa: E402
from grader.core.judge import LaunchChoice, judge  # noqa: E402
from problems.core.package import load_package, parse_package  # noqa: E402

BANK = ROOT / "problems" / "bank"

# ---- the fidelity kernels --------------------------------------------------------------------

MINI_YAML = """\
slug: {slug}
title: {{en: {slug}}}
topic: synchronization
kind: kernel
difficulty: 3
kernel:
  name: k
  args:
    - {{name: x, role: in, dtype: float32}}
    - {{name: y, role: out, dtype: float32}}
    - {{name: n, role: scalar, dtype: int32}}
launch:
  block: "256"
  grid: "ceil_div(n, 256)"
limits: {{time_s: {time_s}}}
tolerance: {{atol: 1.0e-3, rtol: 1.0e-5}}
checks: [memcheck, racecheck, synccheck]
tests:
  - {{name: small, params: {{n: {small}}}, seed: 1, sample: true}}
  - {{name: large, params: {{n: {big}}}, seed: 2}}
"""

# Reference outputs by harness kind (n is a multiple of 256 except for "map").
HARNESS = """\
import numpy as np
KIND = {kind!r}

def generate(case, rng):
    n = case["n"]
    m = (n + 255) // 256 if KIND == "blocksum" else n
    return {{"x": rng.uniform(-1, 1, n).astype(np.float32), "y": np.empty(m, np.float32), "n": n}}

def reference(inputs):
    x = inputs["x"]
    if KIND == "blocksum":
        return {{"y": x.reshape(-1, 256).astype(np.float64).sum(axis=1).astype(np.float32)}}
    if KIND == "reverse":
        return {{"y": x.reshape(-1, 256)[:, ::-1].reshape(-1).copy()}}
    if KIND == "rotate":
        return {{"y": np.roll(x.reshape(-1, 256), -1, axis=1).reshape(-1).copy()}}
    if KIND == "turnstile":
        b = x.reshape(-1, 256).copy()
        b[:, :128] = b[:, :128][:, ::-1]
        return {{"y": b.reshape(-1)}}
    return {{"y": (2 * x).astype(np.float32)}}
"""

PROLOGUE = "    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;\n"
TREE_TO_32 = """    __shared__ float s[256];
    s[t] = x[i];
    __syncthreads();
    for (int k = 128; k > 32; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
"""
SPIN_BEHIND_BARRIER = """    __shared__ float s[256];
    __shared__ volatile int ready;
    if (t == 0) ready = 0;
    s[t] = x[i];
    __syncthreads();
    if (t == 0) { __syncthreads(); ready = 1; }
    else { while (ready == 0) { } }
    y[i] = s[255 - t];
"""

FIDELITY = [
    # (slug, harness kind, expected verdict, time limit s, kernel body, what it shows)
    ("turnstile-others-exit", "turnstile", "ACCEPTED", 5, """    __shared__ float s[128];
    if (t >= 128) { y[i] = x[i]; return; }   // these threads exit
    s[t] = x[i];
    if (t < 128) __syncthreads();
    y[i] = s[127 - t];
""", "`if (t < 128) __syncthreads();`, threads 128..255 exited"),
    ("barriers-in-both-branches", "reverse", "SYNC_ERROR", 5, """    __shared__ float s[256];
    s[t] = x[i];
    if (t % 2) { __syncthreads(); } else { __syncthreads(); }
    y[i] = s[255 - t];
""", "two different barriers: undefined behaviour"),
    ("spin-behind-barrier", "reverse", "DEADLOCK", 2, SPIN_BEHIND_BARRIER,
     "thread 0 parked at a barrier the spinning threads never reach"),
    ("neighbour-without-barrier", "rotate", "SYNC_ERROR", 5, """    __shared__ float s[256];
    s[t] = x[i];
    y[i] = s[(t + 1) % 256];
""", "read of a neighbour's slot with no barrier"),
    ("warp-sync-neither", "blocksum", "SYNC_ERROR", 5, TREE_TO_32 + """    if (t < 32) {
        s[t] += s[t + 32]; s[t] += s[t + 16]; s[t] += s[t + 8];
        s[t] += s[t + 4]; s[t] += s[t + 2]; s[t] += s[t + 1];
    }
    if (t == 0) y[blockIdx.x] = s[0];
""", "pre-Volta warp-synchronous tail: no volatile, no __syncwarp"),
    ("warp-sync-volatile-only", "blocksum", "SYNC_ERROR", 5, TREE_TO_32 + """    if (t < 32) {
        volatile float* v = s;
        v[t] += v[t + 32]; v[t] += v[t + 16]; v[t] += v[t + 8];
        v[t] += v[t + 4]; v[t] += v[t + 2]; v[t] += v[t + 1];
    }
    if (t == 0) y[blockIdx.x] = s[0];
""", "volatile only: the lanes are still unordered"),
    ("warp-sync-syncwarp", "blocksum", "ACCEPTED", 5, TREE_TO_32 + """    if (t < 32) {
        for (int k = 32; k > 0; k >>= 1) {
            if (t < k) s[t] += s[t + k];
            __syncwarp();
        }
    }
    if (t == 0) y[blockIdx.x] = s[0];
""", "__syncwarp between steps, guarded reads"),
    ("missing-bounds-check", "map", "MEMORY_ERROR", 5, """    y[i] = 2.0f * x[i];
""", "no `if (i < n)`; n = 1000 and 262147"),
]

REDUCE4_SIZES = {128: "MEMORY_ERROR", 256: "ACCEPTED", 512: "ACCEPTED", 1024: "WRONG_ANSWER"}


def mini_package(slug: str, kind: str, time_s: float, body: str):
    """A one-kernel package `k(const float* x, float* y, int n)` with all three checks."""
    source = f"__global__ void k(const float* x, float* y, int n)\n{{\n{PROLOGUE}{body}}}\n"
    small, big = (1000, 262147) if kind == "map" else (1024, 256 * 1024)
    files = {
        "problem.yaml": MINI_YAML.format(slug=slug, time_s=time_s, small=small, big=big),
        "statement.md": slug, "starter.cu": source, "solution.cu": source,
        "harness.py": HARNESS.format(kind=kind),
    }
    return parse_package(files), source


# ---- running ---------------------------------------------------------------------------------

def make_backend(name: str):
    if name == "gpu":
        from grader.core.backends.gpu import GpuBackend

        class RecordingGpuBackend(GpuBackend):
            """The GPU backend, keeping every sanitizer report for the --logs tar file."""

            logs: list[tuple[str, str]] = []
            label = ""

            def __init__(self, **options):
                super().__init__(**options)
                sanitize = self.sanitizers._sanitize

                def recording(tools, job, arrays, limit_s):
                    results, error = sanitize(tools, job, arrays, limit_s)
                    for tool, (_, text) in results.items():
                        self.logs.append((f"{self.label}.{tool}.log", text))
                    return results, error

                self.sanitizers._sanitize = recording

        return RecordingGpuBackend()
    from grader.core.backends.emulator import EmulatorBackend

    return EmulatorBackend()


def grade(backend, package, source, expected: str, label: str, choice: LaunchChoice | None = None) -> dict:
    """Judge one source; `expected` may list alternatives as "A|B"."""
    if hasattr(backend, "label"):
        backend.label = label
    stages: dict[str, float] = {}
    started = time.monotonic()

    def progress(stage, done, total):
        stages.setdefault(stage, time.monotonic() - started)

    try:
        result = judge(package, source, backend, launch_choice=choice, progress=progress,
                       explainer=hang_explainer(backend))
        verdict, message = str(result.verdict), result.message
        diags = [f"{d.kind}@{d.line}" if d.line else str(d.kind) for d in result.diagnostics]
        resources = result.resources.to_dict() if result.resources else None
        cached = bool(result.compile and result.compile.cached)
    except Exception as exc:  # PlatformError and bugs alike: record, do not stop the run
        verdict, message, diags, resources, cached = "EXCEPTION", f"{type(exc).__name__}: {exc}", [], None, False
    elapsed = time.monotonic() - started
    row = {"case": label, "expected": expected, "got": verdict, "agree": verdict in expected.split("|"),
           "seconds": round(elapsed, 3), "stages": {k: round(v, 3) for k, v in stages.items()},
           "diagnostics": diags[:6], "message": message[:300], "compile_cached": cached,
           "registers": (resources or {}).get("registers")}
    print(f"{'ok ' if row['agree'] else 'BAD'} {label:58s} {expected:22s} {verdict:14s} {elapsed:6.2f}s "
          f"{' '.join(diags[:3])}", flush=True)
    return row


def bank_rows(backend) -> list[dict]:
    rows = []
    for folder in sorted(p for p in BANK.iterdir() if (p / "problem.yaml").exists()):
        package = load_package(folder)
        # A package with variant parameters is judged under each variant of its validation set,
        # its sources rendered for that variant (as grader/core/validate.py does).
        for variant in (package.variants.validation_set() if package.variants else [None]):
            bound = package.with_variant(variant)
            tag = "" if variant is None else " [" + ", ".join(f"{k}={v}" for k, v in bound.variant.items()) + "]"
            rows.append(grade(backend, bound, bound.solution, "ACCEPTED", f"{package.slug}/solution.cu{tag}"))
            for wrong in bound.wrong:
                rows.append(grade(backend, bound, wrong.source, str(wrong.expected_on(backend.name)),
                                  f"{package.slug}/wrong/{wrong.name}{tag}"))
    return rows


def fidelity_rows(backend) -> list[dict]:
    rows = []
    reduce4 = BANK / "reduce4-any-block"
    if reduce4.exists():
        package = load_package(reduce4)
        seed = next((w.source for w in package.wrong if w.name == "seed_reduce4_1024_threads.cu"), None)
        for block, expected in REDUCE4_SIZES.items() if seed else ():
            choice = LaunchChoice(block=str(block), grid=f"min(ceil_div(n, {block}), 264)", shared_bytes="block_x * 4")
            row = grade(backend, package, seed, expected, f"reduce4 (seed notes) at {block} threads", choice)
            row["note"] = "the seed notes' reduce4, unchanged"
            rows.append(row)
    for slug, kind, expected, time_s, body, note in FIDELITY:
        package, source = mini_package(slug, kind, time_s, body)
        row = grade(backend, package, source, expected, slug)
        row["note"] = note
        rows.append(row)
    return rows


def recovery_rows(backend) -> list[dict]:
    """A hang killed at the limit, then a correct grading on the same backend instance (twice)."""
    hang, hang_src = mini_package("recovery-hang", "reverse", 2, SPIN_BEHIND_BARRIER)
    ok, ok_src = mini_package("recovery-ok", "map", 5, "    if (i < n) y[i] = 2.0f * x[i];\n")
    rows = []
    for _ in range(2):
        rows.append(grade(backend, hang, hang_src, "DEADLOCK|TIME_LIMIT", "hung kernel (limit 2 s)"))
        rows.append(grade(backend, ok, ok_src, "ACCEPTED", "correct kernel right after, same backend"))
    return rows


def case_rows(backend) -> list[dict]:
    """The fidelity cases of tests/fidelity/cases/, judged as one-kernel packages. A row agrees only
    with `expect.verdict`; where the GPU path cannot see the fault by design, `expect.gpu` names what
    it gives instead and the row is marked explained (with `expect.gpu_reason`)."""
    from tests.fidelity.cases import load_cases

    rows = []
    on_gpu = getattr(backend, "name", "") == "gpu"
    for case in load_cases():
        expect = case.meta.get("expect") or {}
        try:
            package = case.package()
        except Exception as exc:  # the package format cannot say this case yet
            row = {"case": case.slug, "expected": case.verdict, "got": "PACKAGE_ERROR", "agree": False, "seconds": 0.0,
                   "stages": {}, "diagnostics": [], "message": str(exc)[:300], "compile_cached": False, "registers": None}
            print(f"BAD {case.slug:58s} {case.verdict:22s} PACKAGE_ERROR  {exc}", flush=True)
        else:
            row = grade(backend, package, case.source, case.verdict, case.slug)
        if on_gpu and expect.get("gpu") and not row["agree"] and row["got"] == expect["gpu"]:
            row["explained"] = expect.get("gpu_reason", "")
        row["note"] = case.meta["shows"]
        if not case.measured:  # written without a GPU: this run is its first measurement
            row["unmeasured"] = str(case.meta["h200"]["unmeasured"])
        rows.append(row)
    return rows


def table(rows: list[dict]) -> str:
    lines = ["| case | expected | got | s | diagnostics |", "| --- | --- | --- | --- | --- |"]
    for r in rows:
        mark = "" if r["agree"] else (" (explained)" if r.get("explained") else " **≠**")
        lines.append(f"| {r['case']} | {r['expected']} | {r['got']}{mark} | {r['seconds']:.2f} | "
                     f"{', '.join(r['diagnostics'][:3])} |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--backend", default="gpu", choices=["gpu", "emulator"])
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--logs", help="write the raw sanitizer reports into this tar file (gpu)")
    parser.add_argument("--parts", default="bank,fidelity,recovery")
    args = parser.parse_args()
    from bench.judge_settings import configure_judge

    configure_judge()  # the sandbox and options a worker would get from the environment
    backend = make_backend(args.backend)
    parts = [p for p in args.parts.split(",") if not (p == "recovery" and args.backend != "gpu")]
    report = {"date": time.strftime("%Y-%m-%d"), "backend": args.backend, "host": platform.node(),
              "problems": sorted(p.name for p in BANK.iterdir() if (p / "problem.yaml").exists())}
    if args.backend == "gpu":
        info = backend.pool.main_child().wait_ready()
        report["device"] = {k: info.get(k) for k in ("device", "cc", "pycuda")}
        print(f"# device: {report['device']}", flush=True)
    runners = {"bank": bank_rows, "fidelity": fidelity_rows, "recovery": recovery_rows, "cases": case_rows}
    for part in parts:
        print(f"\n## {part}", flush=True)
        report[part] = runners[part](backend)
        print(table(report[part]), flush=True)
    rows = [r for p in parts for r in report[p]]
    report["summary"] = {"cases": len(rows), "agree": sum(r["agree"] for r in rows)}
    print(f"\n{report['summary']['agree']}/{len(rows)} cases got the expected verdict", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))
    if args.logs and getattr(backend, "logs", None):
        with tarfile.open(args.logs, "w") as tar:
            for name, text in backend.logs:
                data = text.encode()
                entry = tarfile.TarInfo(name.replace("/", "__").replace(" ", "_"))
                entry.size = len(data)
                tar.addfile(entry, io.BytesIO(data))
    if hasattr(backend, "shutdown"):
        backend.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
