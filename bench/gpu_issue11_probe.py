"""Issue 11's open GPU-path questions, checked in one run on a real GPU (docs/gpu-validation.md).

1. grid.sync() in an ordinary launch: what the GPU backend gives now (refused from the source,
   gridsync.py), and what the kernel does when it is run anyway, compiled by NVRTC and by nvcc
   (with the count of trap instructions in each cubin's SASS).
2. The sanitizer children: the sequence of tests/gpu/test_gpu_backend.py's
   test_one_sanitizer_child_gives_each_check_its_own_report, with every child the pool retires
   logged (slot, jobs served, log records against the print limit, the caller), and its verdict.
3. The sandbox on the GPU children: whether bubblewrap and the seccomp filter are in use, and a
   plain run and a check of a small kernel under them.

Usage (on the GPU machine): python3 bench/gpu_issue11_probe.py --json OUT.json
The last line printed is the JSON summary.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from grader.core import sandbox  # noqa: E402
from grader.core.backends.base import ArgRole, ArgSpec, KernelSpec, LaunchConfig, RunRequest, RunStatus  # noqa: E402
from grader.core.verdicts import DiagnosticKind  # noqa: E402

SPEC = KernelSpec("k", (ArgSpec("x", ArgRole.IN, "float32"), ArgSpec("y", ArgRole.OUT, "float32"),
                        ArgSpec("n", ArgRole.SCALAR, "int32")))
CASE = ROOT / "tests" / "fidelity" / "cases" / "cg-grid-sync-ordinary-launch"


def kernel(body: str) -> str:
    return ("__global__ void k(const float* x, float* y, int n)\n{\n"
            "    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;\n" + body + "}\n")


RACY = kernel("    __shared__ float s[256];\n    s[t] = x[i];\n    y[i] = s[(t + 1) % 256];\n")
DIVERGENT = kernel("    __shared__ float s[256];\n    s[t] = x[i];\n"
                   "    if (t % 2) { __syncthreads(); } else { __syncthreads(); }\n    y[i] = s[255 - t];\n")
CLEAN = kernel("    __shared__ float s[256];\n    s[t] = x[i];\n    __syncthreads();\n    y[i] = s[255 - t];\n")


def run(gpu, source, n=1024, block=256, check=False):
    build = gpu.compile(source, SPEC)
    assert build.compile.ok, build.compile.log
    x = np.arange(n, dtype=np.float32)
    request = RunRequest(launch=LaunchConfig(((n + block - 1) // block, 1, 1), (block, 1, 1)),
                         inputs={"x": x, "y": np.empty(n, np.float32), "n": n}, time_limit_s=5.0, check=check)
    try:
        return gpu.run(build, request)
    finally:
        gpu.close(build)


def sass_traps(cubin: np.ndarray) -> int | str:
    with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
        f.write(cubin.tobytes())
        f.flush()
        try:
            sass = subprocess.run(["cuobjdump", "-sass", f.name], capture_output=True, text=True, timeout=60).stdout
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"cuobjdump failed: {exc}"
    return sum(1 for line in sass.splitlines() if "BPT.TRAP" in line or " TRAP" in line)


def grid_sync(gpu) -> dict:
    from grader.core.judge import judge
    from tests.fidelity.cases import load_case

    case = load_case(CASE)
    package = case.package()
    out: dict = {}
    result = judge(package, case.source, gpu)
    out["judged"] = {"verdict": str(result.verdict), "message": result.message[:300]}
    n = 16 * 256
    inputs = {"x": np.ones(n, np.float32), "partial": np.zeros(16, np.float32), "total": np.zeros(1, np.float32),
              "n": n}
    for compiler in ("nvrtc", "nvcc"):
        use = gpu.use_nvrtc
        gpu.use_nvrtc = compiler == "nvrtc"
        try:
            build = gpu.compile(case.source, package.kernel)
        finally:
            gpu.use_nvrtc = use
        row = {"compiled_by": build.handle.compiler, "trap_instructions": sass_traps(build.handle.cubin),
               "grid_sync_line": build.handle.grid_sync_line}
        request = RunRequest(LaunchConfig((16, 1, 1), (256, 1, 1)), dict(inputs), time_limit_s=5.0)
        refused = gpu.run(build, request)
        row["now"] = {"status": str(refused.status), "message": refused.message[:200]}
        build.handle.grid_sync_line = None  # run it as the backend did before the refusal
        ran = gpu.run(build, RunRequest(LaunchConfig((16, 1, 1), (256, 1, 1)), dict(inputs), time_limit_s=5.0))
        row["run_anyway"] = {"status": str(ran.status), "message": ran.message[:200],
                             "total": float(ran.outputs["total"][0]) if ran.outputs.get("total") is not None else None}
        gpu.close(build)
        out[compiler] = row
    return out


def grid_sync_after_cooperative(gpu) -> dict:
    """The same cubin launched cooperatively, then the ordinary way with the source check off (as the
    backend ran it before), twice: does the ordinary launch still trap after a cooperative one?"""
    from tests.fidelity.cases import load_case

    case = load_case(CASE)
    package = case.package()
    n = 10000
    rows = []
    build = gpu.compile(case.source, package.kernel)
    try:
        for cooperative in (False, True, False, False, True, False):
            inputs = {"x": np.ones(n, np.float32), "partial": np.zeros(16, np.float32),
                      "total": np.zeros(1, np.float32), "n": n}
            build.handle.grid_sync_line = None
            ran = gpu.run(build, RunRequest(LaunchConfig((16, 1, 1), (256, 1, 1), cooperative=cooperative), inputs,
                                            time_limit_s=5.0))
            rows.append({"cooperative": cooperative, "status": str(ran.status), "message": ran.message[:120],
                         "total": float(ran.outputs["total"][0]) if ran.outputs.get("total") is not None else None})
    finally:
        gpu.close(build)
    return {"compiled_by": build.handle.compiler, "runs": rows}


def sanitizer_children(gpu) -> dict:
    from grader.core.gpu import pool as pool_module

    retired = []
    original = pool_module.ChildPool._retire

    def logged(self, slot, start):
        child = self.children.get(slot)
        if child is not None:
            retired.append({"slot": slot, "jobs": child.jobs, "log_records": child.log_records,
                            "print_limit": child.print_limit, "alive": child.alive(),
                            "stderr": child.stderr_tail()[-400:],
                            "caller": [f"{f.name}:{f.lineno}" for f in traceback.extract_stack(limit=6)[:-1]]})
        return original(self, slot, start)

    pool_module.ChildPool._retire = logged
    steps = []
    try:
        run(gpu, CLEAN, check=True)
        children = {tool: gpu.pool.children[tool] for tool in ("memcheck", "racecheck", "synccheck")}
        for rnd in range(3):
            for name, src, want in (("racy", RACY, {"race"}), ("clean", CLEAN, set()),
                                    ("divergent", DIVERGENT, {"divergent_barrier"}), ("clean", CLEAN, set())):
                got = run(gpu, src, check=True)
                kinds = {str(d.kind) for d in got.diagnostics if d.kind is not DiagnosticKind.NOTE}
                steps.append({"round": rnd, "kernel": name, "kinds": sorted(kinds), "as_expected": kinds == want,
                              "children": {t: (gpu.pool.children.get(t) is children[t]) for t in children},
                              "records": {t: [gpu.pool.children[t].jobs, gpu.pool.children[t].log_records,
                                              gpu.pool.children[t].print_limit]
                                          for t in children if t in gpu.pool.children}})
        same = all(gpu.pool.children.get(t) is c for t, c in children.items())
    finally:
        pool_module.ChildPool._retire = original
    return {"same_children": same, "all_as_expected": all(s["as_expected"] for s in steps), "retired": retired,
            "steps": steps}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--json")
    parser.add_argument("--parts", default="plain_run,check_run,grid_sync,grid_sync_after_cooperative,sanitizer_children")
    args = parser.parse_args()
    from bench.judge_settings import configure_judge

    configure_judge()  # the sandbox and options a worker would get from the environment
    wanted = set(args.parts.split(","))
    summary: dict = {"started": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())}
    summary["bwrap"] = sandbox.box.DEFAULT.bwrap
    summary["bwrap_works"] = sandbox.box.DEFAULT.works()
    summary["bwrap_probe"] = sandbox.box.DEFAULT.probe()
    if not summary["bwrap_works"]:
        sandbox.box.DEFAULT = sandbox.Sandbox(allow_unsafe=True)  # this probe's own process: unsafe mode
    from grader.core.sandbox import seccomp
    from grader.core.backends.gpu import GpuBackend
    from grader.core.gpu.isolation import sandboxed

    summary["sandboxed"] = sandboxed()
    summary["seccomp_filter_bytes"] = len(seccomp.program() or b"")
    gpu = GpuBackend()
    try:
        summary["device"] = gpu.device_name()
        for part, fn in (("plain_run", lambda g: str(run(g, CLEAN).status)),
                         ("check_run", lambda g: sorted(str(d.kind) for d in run(g, RACY, check=True).diagnostics)),
                         ("grid_sync", grid_sync), ("grid_sync_after_cooperative", grid_sync_after_cooperative),
                         ("sanitizer_children", sanitizer_children)):
            if part not in wanted:
                continue
            started = time.monotonic()
            try:
                summary[part] = fn(gpu)
            except Exception as exc:  # record and go on: one run answers every question it can
                summary[part] = {"error": f"{type(exc).__name__}: {exc}", "trace": traceback.format_exc()[-1500:]}
            summary[f"{part}_s"] = round(time.monotonic() - started, 2)
    finally:
        gpu.shutdown()
    text = json.dumps(summary, default=str)
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=1, default=str))
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
