"""How many of the bank's sources NVRTC compiles, and what the others cost, before and after the headers
NVRTC is given (grader/core/gpu/nvrtc_headers.py): issue 17's compile stage on the GPU worker.

    python bench/nvrtc_fallbacks.py [--arch sm_90] [--repeat 3]

For each bank source (solutions and wrong/*.cu): NVRTC in this process, "before" (the seven host
headers given empty, nothing else, as until 2026-12-06) and "after" (nvrtc_headers' prelude and
headers), `--repeat` times each (the median kept); where NVRTC refuses a source the GPU
worker compiles it again with nvcc, timed here once when nvcc is on PATH or in /usr/local/cuda/bin. Needs
the cuda-bindings package (NVRTC runs without a GPU). Prints figures; the last line is JSON.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# As in the compiler child (gpu/isolation.py): NVRTC's own cache off, or a repeated compile (and one whose source
# differs only in comments) is served from it and the figures are not the compiler's.
os.environ["CUDA_CACHE_DISABLE"] = "1"
sys.path.insert(0, str(ROOT))

from grader.core.gpu import nvrtc_headers  # noqa: E402
from grader.core.gpu.nvcc import translation_unit  # noqa: E402
from grader.core.gpu.nvrtc import options  # noqa: E402
from problems.core.package.parser import load_package  # noqa: E402

OLD_EMPTY = ("cstdio", "stdio.h", "cuda_runtime.h", "cuda_runtime_api.h", "cuda.h", "device_launch_parameters.h",
             "cuda_device_runtime_api.h")


def bank_sources() -> list[tuple[str, str]]:
    """(name, translation unit) of every bank source, under each package's default variant."""
    out = []
    for folder in sorted((ROOT / "problems" / "bank").iterdir()):
        if not (folder / "problem.yaml").exists():
            continue
        package = load_package(folder).with_variant(None)
        for name, source in [("solution", package.solution)] + [(w.name, w.source) for w in package.wrong]:
            out.append((f"{folder.name}/{name}", translation_unit(source, package.kernel)))
    return out


def nvrtc_compile(tu: str, arch: str, headers: dict[str, str], extra: list[str]) -> tuple[bool, float]:
    """(NVRTC_SUCCESS, seconds) for one compile in this process."""
    from cuda.bindings import nvrtc

    err, prog = nvrtc.nvrtcCreateProgram(tu.encode(), b"tu.cu", len(headers), [t.encode() for t in headers.values()],
                                         [h.encode() for h in headers])
    opts = [o.encode() for o in options(arch) + extra]
    started = time.perf_counter()
    (result,) = nvrtc.nvrtcCompileProgram(prog, len(opts), opts)
    took = time.perf_counter() - started
    nvrtc.nvrtcDestroyProgram(prog)
    return result == nvrtc.nvrtcResult.NVRTC_SUCCESS, took


def nvcc_seconds(tu: str, arch: str) -> float | None:
    """Seconds nvcc takes to make the cubin (None without nvcc)."""
    nvcc = shutil.which("nvcc") or next((p for p in ("/usr/local/cuda/bin/nvcc",) if os.path.exists(p)), None)
    if nvcc is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "k.cu").write_text(tu)
        started = time.perf_counter()
        subprocess.run([nvcc, f"-arch={arch}", "-cubin", "-lineinfo", "-Xptxas=-v", "-o", "k.cubin", "k.cu"], cwd=tmp,
                       capture_output=True)
        return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arch", default="sm_90")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    sources = bank_sources()
    nvrtc_compile('extern "C" __global__ void w(int* p) { *p = 1; }\n', args.arch, {}, [])  # load NVRTC
    modes = {"before": lambda tu: ({h: "" for h in OLD_EMPTY}, []),
             "after": lambda tu: (nvrtc_headers.headers(), nvrtc_headers.extra_options(tu))}
    report = {"sources": len(sources), "arch": args.arch, "nproc": os.cpu_count()}
    refused_before = []
    for mode, setup in modes.items():
        times, refused = [], []
        for name, tu in sources:
            headers, extra = setup(tu)
            runs = [nvrtc_compile(tu, args.arch, headers, extra) for _ in range(args.repeat)]
            ok, took = runs[0][0], statistics.median(t for _, t in runs)
            times.append(took)
            if not ok:
                refused.append(name)
        if mode == "before":
            refused_before = refused
        report[mode] = {"nvrtc_refused": len(refused), "refused": refused,
                        "nvrtc_p50_ms": round(statistics.median(times) * 1000, 1),
                        "nvrtc_mean_ms": round(statistics.mean(times) * 1000, 1)}
        print(f"{mode}: NVRTC refused {len(refused)} of {len(sources)} (each then compiled by nvcc); NVRTC p50 "
              f"{report[mode]['nvrtc_p50_ms']} ms, mean {report[mode]['nvrtc_mean_ms']} ms")
    refused_any = sorted(set(refused_before) | set(report["after"]["refused"]))
    nvcc = {name: nvcc_seconds(tu, args.arch) for name, tu in sources if name in refused_any}
    if all(v is not None for v in nvcc.values()):
        report["nvcc_s"] = {name: round(v, 3) for name, v in nvcc.items()}
        for mode in modes:
            fallback = sum(nvcc[name] for name in report[mode]["refused"])
            # what a compile costs on average: NVRTC's try, and nvcc's compile after a refusal
            report[mode]["per_compile_ms"] = round(report[mode]["nvrtc_mean_ms"] + 1000 * fallback / len(sources), 1)
            print(f"{mode}: {report[mode]['per_compile_ms']} ms a compile on average, nvcc's "
                  f"{len(report[mode]['refused'])} fallbacks included ({fallback:.2f} s of nvcc)")
    print(json.dumps(report))


if __name__ == "__main__":
    main()
