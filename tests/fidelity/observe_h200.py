#!/usr/bin/env python3
"""Run every fidelity case on a real GPU without WarpDrill: plain nvcc, the CUDA driver API
(cuda.bindings) and compute-sanitizer. The ground truth the judge is held to.

    python3 tests/fidelity/observe_h200.py --out $OUT/h200_observed.json [--only slug,slug] [--jobs 6]

For each case: `nvcc -arch=sm_90 -cubin -lineinfo -Xptxas -v` of kernel.cu; then every test case
plainly, and the smallest one under compute-sanitizer memcheck, racecheck and synccheck. Each run is
a child process of this script in its own session, killed with SIGKILL (its whole process group) at
its limit: a hang is recorded as "hang", never waited out. Inputs come from the case's harness with
the judge's seeds (101, 102, ...); `out` buffers start as 0xFF bytes (zeros with `init: zeros`),
as the GPU backend fills them. Outputs are compared with the harness's reference at the case's
tolerance and their SHA-256 is kept. Writes one JSON document (schema in `observe_case`).

Needs numpy, PyYAML and cuda.bindings; no Django, no PyCUDA.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from tests.fidelity.cases import FidelityCase, load_case, load_cases  # noqa: E402

PLAIN_LIMIT_S = 10
SANITIZER_LIMIT_S = 30
TOOLS = ("memcheck", "racecheck", "synccheck")
SANITIZER = os.environ.get("COMPUTE_SANITIZER", "/usr/local/cuda/bin/compute-sanitizer")
NVCC = os.environ.get("NVCC", "/usr/local/cuda/bin/nvcc")
DTYPES = {"float32": np.float32, "float64": np.float64, "int32": np.int32, "uint32": np.uint32,
          "int64": np.int64, "uint64": np.uint64, "uint8": np.uint8, "int8": np.int8, "int16": np.int16,
          "uint16": np.uint16, "float16": np.float16}


# ---- the child: one launch of one test case ----------------------------------------------------

def _check(result, what: str):
    """cuda.bindings returns (CUresult, values...): raise with the error's name where it failed."""
    err, *rest = result if isinstance(result, tuple) else (result,)
    if int(err) != 0:
        raise RuntimeError(f"{what}: {err.name if hasattr(err, 'name') else err}")
    return rest[0] if len(rest) == 1 else rest


def run_child(case: FidelityCase, cubin: Path, test_index: int, entry: str) -> dict:
    """Launch the case's kernel once on GPU 0 and report what happened (a dict, printed as JSON)."""
    from cuda.bindings import driver as cu

    from grader.core.launch import build_launch

    meta = case.meta
    params = dict(meta["tests"][test_index])
    launch = build_launch(meta["launch"]["block"], meta["launch"]["grid"], meta["launch"].get("shared_bytes", "0"),
                          params)
    harness: dict = {}
    exec(compile(case.harness_source, f"{case.slug}/harness.py", "exec"), harness)
    inputs = harness["generate"](dict(params), np.random.default_rng(101 + test_index))
    expected = harness["reference"]({k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in inputs.items()})

    _check(cu.cuInit(0), "cuInit")
    dev = _check(cu.cuDeviceGet(0), "cuDeviceGet")
    ctx = _check(cu.cuDevicePrimaryCtxRetain(dev), "cuDevicePrimaryCtxRetain")
    _check(cu.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
    image = np.frombuffer(cubin.read_bytes(), dtype=np.uint8)
    module = _check(cu.cuModuleLoadData(image.ctypes.data), "cuModuleLoadData")
    func = _check(cu.cuModuleGetFunction(module, entry.encode()), "cuModuleGetFunction")
    stream = _check(cu.cuStreamCreate(0), "cuStreamCreate")

    holders, device = [], {}
    for arg in meta["args"]:
        name, role, dtype = arg["name"], arg["role"], DTYPES[arg["dtype"]]
        if role == "scalar":
            holders.append(np.array([inputs[name]], dtype=dtype))
            continue
        host = np.ascontiguousarray(np.asarray(inputs[name], dtype=dtype).reshape(-1))
        if role == "out":
            host = np.zeros_like(host) if arg.get("init") == "zeros" else np.frombuffer(
                b"\xff" * host.nbytes, dtype=dtype).copy()
        nbytes = max(host.nbytes, 1)
        dptr = _check(cu.cuMemAlloc(nbytes), f"cuMemAlloc({name})")
        if host.nbytes:
            _check(cu.cuMemcpyHtoD(dptr, host.ctypes.data, host.nbytes), f"cuMemcpyHtoD({name})")
        device[name] = (dptr, host)
        holders.append(np.array([int(dptr)], dtype=np.uint64))
    kernel_params = np.array([h.ctypes.data for h in holders], dtype=np.uint64)

    report = {"test": test_index, "params": params, "grid": list(launch.grid), "block": list(launch.block),
              "shared_bytes": launch.shared_bytes}
    opt_in = meta["launch"].get("max_dynamic_shared_bytes")
    if opt_in:
        _check(cu.cuFuncSetAttribute(func, cu.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                     int(opt_in)), "cuFuncSetAttribute")
    threads = launch.block[0] * launch.block[1] * launch.block[2]
    err, per_sm = cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(func, threads, launch.shared_bytes)
    if int(err) == 0:
        sms = _check(cu.cuDeviceGetAttribute(cu.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev), "sms")
        report["co_resident_blocks"] = {"per_sm": per_sm, "sms": sms, "gpu": per_sm * sms}
    started = time.monotonic()
    launcher = cu.cuLaunchCooperativeKernel if meta["launch"].get("cooperative") else cu.cuLaunchKernel
    extra = () if meta["launch"].get("cooperative") else (0,)
    err = launcher(func, *launch.grid, *launch.block, launch.shared_bytes, stream, kernel_params.ctypes.data, *extra)
    err = err[0] if isinstance(err, tuple) else err
    if int(err) != 0:
        report.update(status="launch_error", cuda_error=err.name, seconds=round(time.monotonic() - started, 4))
        return report
    (err,) = cu.cuStreamSynchronize(stream)
    report["seconds"] = round(time.monotonic() - started, 4)
    if int(err) != 0:
        report.update(status="fault", cuda_error=err.name)
        return report
    report["status"] = "completed"
    outputs, checksums, errors = {}, {}, {}
    for name, (dptr, host) in device.items():
        if name not in expected:
            continue
        back = np.empty_like(host)
        _check(cu.cuMemcpyDtoH(back.ctypes.data, dptr, back.nbytes), f"cuMemcpyDtoH({name})")
        outputs[name] = back
        checksums[name] = hashlib.sha256(back.tobytes()).hexdigest()[:16]
    tol = meta.get("tolerance", {"atol": 1.0e-5, "rtol": 1.0e-5})
    matches = True
    for name, exp in expected.items():
        got = outputs[name].reshape(np.asarray(exp).shape)
        exp = np.asarray(exp)
        if np.issubdtype(exp.dtype, np.floating):
            ok = np.allclose(got, exp, atol=float(tol.get("atol", 0)), rtol=float(tol.get("rtol", 0)), equal_nan=True)
            diff = np.abs(got.astype(np.float64) - exp.astype(np.float64))
            errors[name] = {"max_abs_error": float(np.nanmax(diff)) if diff.size else 0.0,
                            "mismatches": int((~np.isclose(got, exp, atol=float(tol.get("atol", 0)),
                                                           rtol=float(tol.get("rtol", 0)), equal_nan=True)).sum())}
        else:
            ok = bool((got == exp).all())
            errors[name] = {"mismatches": int((got != exp).sum())}
        matches = matches and bool(ok)
    report.update(matches_reference=matches, checksums=checksums, errors=errors)
    if not matches and test_index == 0 and os.environ.get("OBSERVE_DUMP"):
        np.savez(Path(os.environ["OBSERVE_DUMP"]) / f"{case.slug}.npz", **{f"got_{k}": v for k, v in outputs.items()},
                 **{f"expected_{k}": np.asarray(v) for k, v in expected.items()})
    return report


# ---- the parent: compile, run children, parse sanitizer logs ----------------------------------

def run_limited(cmd: list[str], limit_s: float, env: dict | None = None) -> tuple[str, int | None, str, float]:
    """Run `cmd` in its own session; SIGKILL its process group at `limit_s`.
    Returns (status "exited" | "hang", return code or None, stdout+stderr text, seconds)."""
    started = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
                            env=env, text=True, errors="replace")
    try:
        out, _ = proc.communicate(timeout=limit_s)
        return "exited", proc.returncode, out, time.monotonic() - started
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        return "hang", None, out, time.monotonic() - started


def compile_case(case: FidelityCase, work: Path) -> dict:
    """nvcc the case to a cubin; the report has rc, the log's tail, and ptxas's registers and smem."""
    src = work / f"{case.slug}.cu"
    src.write_text(case.source)
    cubin = work / f"{case.slug}.cubin"
    status, rc, log, secs = run_limited([NVCC, "-arch=sm_90", "-cubin", "-lineinfo", "-Xptxas", "-v",
                                         "-o", str(cubin), str(src)], 120)
    rep = {"rc": rc, "seconds": round(secs, 2), "log": log[-1500:]}
    m = re.search(r"Used (\d+) registers", log)
    if m:
        rep["registers"] = int(m.group(1))
    m = re.search(r"Compiling entry function '([^']+)'", log)
    rep["entry"] = m.group(1) if m else case.meta.get("kernel", "k")
    m = re.search(r"(\d+) bytes smem", log)
    if m:
        rep["static_smem_bytes"] = int(m.group(1))
    rep["ok"] = rc == 0 and cubin.exists()
    return rep


SUMMARY = re.compile(r"(ERROR SUMMARY: \d+ errors?|RACECHECK SUMMARY: .*)")
LINE = re.compile(r"\.cu:(\d+)")


def parse_sanitizer(log: str) -> dict:
    """The tool's summary, its distinct record headlines and the kernel.cu lines its records name."""
    body = [ln.removeprefix("=========").strip() for ln in log.splitlines() if ln.startswith("=========")]
    summary = next((m.group(1) for ln in body if (m := SUMMARY.search(ln))), None)
    heads = []
    for ln in body:
        if ln and not ln.startswith(("at ", "by thread", "in ", "Saved host", "Host Frame", "Device Frame",
                                     "COMPUTE-SANITIZER", "ERROR SUMMARY", "RACECHECK SUMMARY")) \
                and not ln.startswith("=") and ln not in heads:
            heads.append(ln)
    counts = [int(x) for x in re.findall(r"(\d+) (?:errors?|hazards displayed)", summary or "")]
    return {"summary": summary, "findings": max(counts) if counts else None, "records": heads[:8],
            "lines": sorted({int(x) for x in LINE.findall(log)})[:20]}


def child_cmd(case: FidelityCase, cubin: Path, test: int, entry: str) -> list[str]:
    return [sys.executable, str(Path(__file__).resolve()), "--child", str(case.folder), str(cubin), str(test), entry]


def last_json(text: str) -> dict | None:
    for line in reversed(text.strip().splitlines()):
        if line.startswith("{"):
            try:
                return json.loads(line)
            except json.JSONDecodeError:
                return None
    return None


def observe_case(case: FidelityCase, work: Path) -> dict:
    """{compile: {...}, runs: [one per test: status completed|hang|launch_error|fault|crashed, ...],
    sanitizers: {tool: {status, rc, summary, findings, records, lines, seconds}}} for one case."""
    rep: dict = {"shows": case.meta["shows"], "expected_verdict": case.verdict}
    rep["compile"] = comp = compile_case(case, work)
    if not comp["ok"]:
        return rep
    cubin = work / f"{case.slug}.cubin"
    rep["runs"] = []
    for k in range(len(case.meta["tests"])):
        status, rc, out, secs = run_limited(child_cmd(case, cubin, k, comp["entry"]), PLAIN_LIMIT_S)
        run = last_json(out) if status == "exited" else None
        if run is None:
            run = {"test": k, "status": "hang" if status == "hang" else "crashed", "rc": rc, "tail": out[-800:]}
        run["wall_s"] = round(secs, 2)
        rep["runs"].append(run)
        if run["status"] != "completed":
            break
    hung = rep["runs"][0]["status"] == "hang"
    rep["sanitizers"] = {}
    for tool in TOOLS:
        cmd = [SANITIZER, "--tool", tool, "--print-limit", "100"]
        if tool == "racecheck":
            cmd += ["--racecheck-report", "analysis"]
        status, rc, out, secs = run_limited(cmd + child_cmd(case, cubin, 0, comp["entry"]), 10 if hung else SANITIZER_LIMIT_S)
        child = last_json(out)
        rep["sanitizers"][tool] = {"status": status, "rc": rc, "seconds": round(secs, 2),
                                   "run_status": child.get("status") if child else None,
                                   "cuda_error": child.get("cuda_error") if child else None, **parse_sanitizer(out)}
    return rep


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--child", nargs=4, metavar=("CASE_DIR", "CUBIN", "TEST", "ENTRY"))
    parser.add_argument("--out", default="h200_observed.json")
    parser.add_argument("--only", default="")
    parser.add_argument("--jobs", type=int, default=6)
    args = parser.parse_args()
    if args.child:
        folder, cubin, test, entry = args.child
        try:
            print(json.dumps(run_child(load_case(Path(folder)), Path(cubin), int(test), entry)), flush=True)
        except Exception as exc:  # recorded by the parent as this run's result
            print(json.dumps({"test": int(test), "status": "driver_error", "error": f"{type(exc).__name__}: {exc}"}))
        return 0
    cases = load_cases()
    if args.only:
        cases = [c for c in cases if c.slug in args.only.split(",")]
    work = Path(tempfile.mkdtemp(prefix="observe-"))
    doc = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "tools": {}}
    for name, cmd in {"nvcc": [NVCC, "--version"], "compute-sanitizer": [SANITIZER, "--version"],
                      "gpu": ["nvidia-smi", "--query-gpu=name,driver_version,compute_cap", "--format=csv,noheader"]}.items():
        doc["tools"][name] = run_limited(cmd, 30)[2].strip().splitlines()[-1:]
    started = time.monotonic()
    doc["cases"] = {}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {pool.submit(observe_case, c, work): c for c in cases}
        for fut in concurrent.futures.as_completed(futures):
            c = futures[fut]
            try:
                doc["cases"][c.slug] = fut.result()
            except Exception as exc:
                doc["cases"][c.slug] = {"error": f"{type(exc).__name__}: {exc}"}
            r = doc["cases"][c.slug]
            runs = [x.get("status") for x in r.get("runs", [])]
            san = {t: v.get("findings") if v.get("status") == "exited" else v.get("status")
                   for t, v in r.get("sanitizers", {}).items()}
            print(f"{c.slug:48s} compile={r.get('compile', {}).get('ok')} runs={runs} "
                  f"ref={[x.get('matches_reference') for x in r.get('runs', [])]} {san}", flush=True)
    doc["cases"] = dict(sorted(doc["cases"].items()))
    doc["seconds"] = round(time.monotonic() - started, 1)
    Path(args.out).write_text(json.dumps(doc, indent=1))
    print(f"wrote {args.out}: {len(doc['cases'])} cases in {doc['seconds']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
