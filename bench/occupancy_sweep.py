#!/usr/bin/env python3
"""Measure the CUDA runtime's occupancy answers on the local GPU and write them as a JSON table.

Run it on a machine with an NVIDIA GPU and nvcc (no Django, no third-party Python packages):

    python3 bench/occupancy_sweep.py --out /tmp/occupancy.json

What it does:
1. Writes one CUDA translation unit per register target. Each unit holds a register-hungry kernel
   for each static shared-memory size and is compiled with ``-maxrregcount=<target>``, so the
   compiler is forced down to (at most) that many registers per thread. A light kernel without a
   cap adds the small natural register counts.
2. Links a host program that, for every kernel, reads the ACTUAL registers and static shared memory
   with ``cudaFuncGetAttributes`` and asks ``cudaOccupancyMaxActiveBlocksPerMultiprocessor`` for a
   grid of (threads per block, dynamic shared memory) pairs in three phases:
   - ``default``: the kernel's default dynamic-shared limit (48 KiB minus static, no opt-in);
   - ``optin``:   ``cudaFuncAttributeMaxDynamicSharedMemorySize`` raised to the device's opt-in
                  maximum minus static, so dynamic shared memory above 48 KiB is allowed;
   - ``carveout``: a few kernels again with ``cudaFuncAttributePreferredSharedMemoryCarveout`` set.
3. Writes {date, device properties, cc, kernels, columns, rows} where each row is one configuration:
   threads, regs (actual), static smem, dynamic smem, the kernel's max dynamic smem attribute at
   query time, the carveout preference (-1 = default), blocks per SM, and the runtime's error name
   (null when the call succeeded). Rows are lists in the order of "columns", one per line.

The WarpDrill test suite compares every row with ``problems.core.occupancy`` (tests/occupancy/).
"""
from __future__ import annotations

import argparse
import concurrent.futures
import datetime as _dt
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# Register caps (-maxrregcount). The body below keeps ~320 floats live, so ptxas uses the whole cap.
REG_TARGETS = [16, 32, 40, 41, 48, 64, 65, 72, 96, 127, 128, 168, 200, 255]
# Static shared memory per kernel, bytes (static shared memory is limited to 48 KiB per block).
STATIC_SMEM = [0, 1000, 20000, 48000]
THREADS = [32, 33, 64, 128, 192, 256, 384, 512, 1000, 1024]
# Dynamic shared memory for the opt-in phase; "max" and "max+1" are added per kernel.
DYNAMIC = [0, 1000, 2048, 8192, 16384, 32768, 49152, 65536, 100000, 200000]
CARVEOUTS = [0, 10, 25, 50, 75, 100]
CARVEOUT_THREADS = [128, 256, 1024]
CARVEOUT_DYNAMIC = [0, 8192, 32768, 65536, 100000]
# (reg target or None for the light kernel, static smem) pairs swept with carveouts.
CARVEOUT_KERNELS = [(32, 0), (64, 20000), (128, 1000), (None, 48000)]

LIVE_VALUES = 320

DEVICE_CODE = r"""
#include <cuda_runtime.h>
#include <vector>
#include "entries.h"

// Keeps LIVE values alive across three dependent rounds: register pressure far above any cap.
template <int SMEM>
__device__ __forceinline__ void heavy_body(const float* __restrict__ in, float* __restrict__ out, int n) {
    float v[LIVE];
#pragma unroll
    for (int j = 0; j < LIVE; ++j) v[j] = in[(threadIdx.x + j * 97) & (n - 1)];
#pragma unroll
    for (int r = 0; r < 3; ++r) {
#pragma unroll
        for (int j = 0; j < LIVE; ++j) v[j] = fmaf(v[j], v[(j + 1) % LIVE], v[(j + 7) % LIVE]);
    }
    float s = 0.f;
#pragma unroll
    for (int j = 0; j < LIVE; ++j) s += v[j] * (float)(j + 1);
    if constexpr (SMEM > 0) {
        __shared__ unsigned char buf[SMEM];
        buf[threadIdx.x % SMEM] = (unsigned char)s;
        __syncthreads();
        s += (float)buf[(threadIdx.x + 1) % SMEM];
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

template <int SMEM>
__device__ __forceinline__ void light_body(const float* __restrict__ in, float* __restrict__ out, int n) {
    float s = in[threadIdx.x & (n - 1)] * 2.0f;
    if constexpr (SMEM > 0) {
        __shared__ unsigned char buf[SMEM];
        buf[threadIdx.x % SMEM] = (unsigned char)s;
        __syncthreads();
        s += (float)buf[(threadIdx.x + 1) % SMEM];
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
"""

ENTRIES_H = r"""
#pragma once
#include <vector>
struct Entry { const char* name; const void* fn; int target_regs; int static_target; };
"""


def kernel_unit(tag: str, target: int | None) -> str:
    """One translation unit: a kernel per static size, and a function that lists them."""
    body = "heavy_body" if target is not None else "light_body"
    lines = [f"#define LIVE {LIVE_VALUES}", DEVICE_CODE]
    for s in STATIC_SMEM:
        lines.append(
            f"__global__ void k_{tag}_s{s}(const float* __restrict__ in, float* __restrict__ out, int n)"
            f" {{ {body}<{s}>(in, out, n); }}"
        )
    lines.append(f"void register_{tag}(std::vector<Entry>& v) {{")
    for s in STATIC_SMEM:
        lines.append(f'  v.push_back({{"k_{tag}_s{s}", (const void*)k_{tag}_s{s}, {target or 0}, {s}}});')
    lines.append("}")
    return "\n".join(lines) + "\n"


def host_unit(tags: list[str]) -> str:
    decls = "\n".join(f"void register_{t}(std::vector<Entry>& v);" for t in tags)
    calls = "\n".join(f"  register_{t}(ks);" for t in tags)
    ints = lambda xs: ", ".join(str(x) for x in xs)  # noqa: E731
    carve = "\n".join(
        f'  carve_names.push_back("k_{"r" + str(r) if r else "light"}_s{s}");' for r, s in CARVEOUT_KERNELS
    )
    return f"""
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>
#include <cuda_runtime.h>
#include "entries.h"
{decls}

static const char* err_name(cudaError_t e) {{ return e == cudaSuccess ? "-" : cudaGetErrorName(e); }}

static void row(const char* phase, const Entry& k, const cudaFuncAttributes& a, int t, long long d, int carve) {{
  int blocks = 0;
  cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k.fn, t, (size_t)d);
  if (e != cudaSuccess) {{ cudaGetLastError(); }}
  printf("ROW\\t%s\\t%s\\t%d\\t%d\\t%zu\\t%lld\\t%d\\t%d\\t%d\\t%s\\n", phase, k.name, t, a.numRegs, a.sharedSizeBytes,
         d, a.maxDynamicSharedSizeBytes, carve, blocks, err_name(e));
}}

int main() {{
  std::vector<Entry> ks;
{calls}
  cudaDeviceProp p;
  if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) {{ printf("ERROR\\tno device\\n"); return 2; }}
  int reserved = 0, drv = 0, rt = 0;
  cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, 0);
  cudaDriverGetVersion(&drv); cudaRuntimeGetVersion(&rt);
  printf("DEV\\tname\\t%s\\n", p.name);
  printf("DEV\\tmajor\\t%d\\nDEV\\tminor\\t%d\\n", p.major, p.minor);
  printf("DEV\\tmultiProcessorCount\\t%d\\n", p.multiProcessorCount);
  printf("DEV\\tmaxThreadsPerMultiProcessor\\t%d\\n", p.maxThreadsPerMultiProcessor);
  printf("DEV\\tmaxBlocksPerMultiProcessor\\t%d\\n", p.maxBlocksPerMultiProcessor);
  printf("DEV\\tmaxThreadsPerBlock\\t%d\\n", p.maxThreadsPerBlock);
  printf("DEV\\tregsPerMultiprocessor\\t%d\\nDEV\\tregsPerBlock\\t%d\\n", p.regsPerMultiprocessor, p.regsPerBlock);
  printf("DEV\\tsharedMemPerMultiprocessor\\t%zu\\n", p.sharedMemPerMultiprocessor);
  printf("DEV\\tsharedMemPerBlock\\t%zu\\nDEV\\tsharedMemPerBlockOptin\\t%zu\\n", p.sharedMemPerBlock, p.sharedMemPerBlockOptin);
  printf("DEV\\treservedSharedMemPerBlock\\t%zu\\nDEV\\treservedSharedMemoryPerBlockAttr\\t%d\\n", p.reservedSharedMemPerBlock, reserved);
  printf("DEV\\twarpSize\\t%d\\nDEV\\tdriverVersion\\t%d\\nDEV\\truntimeVersion\\t%d\\n", p.warpSize, drv, rt);

  const int threads[] = {{{ints(THREADS)}}};
  const long long dyn[] = {{{ints(DYNAMIC)}}};
  const int carveouts[] = {{{ints(CARVEOUTS)}}};
  const int carve_threads[] = {{{ints(CARVEOUT_THREADS)}}};
  const long long carve_dyn[] = {{{ints(CARVEOUT_DYNAMIC)}}};
  std::vector<std::string> carve_names;
{carve}
  for (const Entry& k : ks) {{
    cudaFuncAttributes a;
    cudaError_t e = cudaFuncGetAttributes(&a, k.fn);
    if (e != cudaSuccess) {{ printf("KERR\\t%s\\t%s\\n", k.name, cudaGetErrorName(e)); cudaGetLastError(); continue; }}
    printf("KERNEL\\t%s\\t%d\\t%d\\t%d\\t%zu\\t%zu\\t%d\\n", k.name, k.target_regs, a.numRegs, k.static_target,
           a.sharedSizeBytes, a.localSizeBytes, a.maxThreadsPerBlock);
    // Phase 1: default limit (no opt-in). The edge of 48 KiB and just past it.
    long long def_max = (long long)a.maxDynamicSharedSizeBytes;
    const long long d1[] = {{0, 2048, def_max, def_max + 1, 65536}};
    for (int t : {{128, 1024}}) for (long long d : d1) row("default", k, a, t, d, -1);
    // Phase 2: opt in to the device's maximum.
    long long optin = (long long)p.sharedMemPerBlockOptin - (long long)a.sharedSizeBytes;
    e = cudaFuncSetAttribute(k.fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)optin);
    if (e != cudaSuccess) {{ printf("SETERR\\t%s\\t%s\\n", k.name, cudaGetErrorName(e)); cudaGetLastError(); continue; }}
    cudaFuncGetAttributes(&a, k.fn);
    for (int t : threads) {{
      for (long long d : dyn) row("optin", k, a, t, d, -1);
      row("optin", k, a, t, optin, -1);
      row("optin", k, a, t, optin + 1, -1);
    }}
    // Phase 3: carveout preferences, on a few kernels.
    bool carve = false;
    for (const std::string& n : carve_names) carve = carve || n == k.name;
    if (!carve) continue;
    for (int c : carveouts) {{
      e = cudaFuncSetAttribute(k.fn, cudaFuncAttributePreferredSharedMemoryCarveout, c);
      if (e != cudaSuccess) {{ printf("SETERR\\t%s\\tcarveout %d %s\\n", k.name, c, cudaGetErrorName(e)); cudaGetLastError(); continue; }}
      for (int t : carve_threads) for (long long d : carve_dyn) row("carveout", k, a, t, d, c);
    }}
    cudaFuncSetAttribute(k.fn, cudaFuncAttributePreferredSharedMemoryCarveout, -1);
  }}
  printf("DONE\\n");
  return 0;
}}
"""


def sh(cmd: list[str], cwd: Path) -> str:
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr[-4000:]}")
    return proc.stdout + proc.stderr


def build(work: Path, arch: str, jobs: int) -> Path:
    """Write and compile the kernels and the host program; return the executable."""
    (work / "entries.h").write_text(ENTRIES_H)
    units: list[tuple[str, int | None]] = [(f"r{r}", r) for r in REG_TARGETS] + [("light", None)]
    for tag, target in units:
        (work / f"{tag}.cu").write_text(kernel_unit(tag, target))
    (work / "main.cu").write_text(host_unit([t for t, _ in units]))

    def compile_unit(item: tuple[str, int | None]) -> str:
        tag, target = item
        cmd = ["nvcc", "-std=c++17", "-O3", f"-arch={arch}", "-c", f"{tag}.cu", "-o", f"{tag}.o", "-Xptxas", "-v"]
        if target is not None:
            cmd.insert(1, f"-maxrregcount={target}")
        return sh(cmd, work)

    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        logs = list(pool.map(compile_unit, units))
    (work / "ptxas.log").write_text("\n".join(logs))
    sh(["nvcc", "-std=c++17", "-O2", f"-arch={arch}", "-o", "sweep", "main.cu"] + [f"{t}.o" for t, _ in units], work)
    print(f"built {len(units)} units in {time.time() - t0:.1f} s", file=sys.stderr)
    return work / "sweep"


def parse(output: str) -> dict:
    device: dict = {}
    kernels: list[dict] = []
    rows: list[list] = []
    errors: list[str] = []
    for line in output.splitlines():
        f = line.split("\t")
        if f[0] == "DEV":
            device[f[1]] = f[2] if f[1] == "name" else int(f[2])
        elif f[0] == "KERNEL":
            kernels.append({
                "name": f[1], "target_regs": int(f[2]) or None, "regs": int(f[3]), "static_target": int(f[4]),
                "static_smem": int(f[5]), "local_bytes": int(f[6]), "max_threads_per_block": int(f[7]),
            })
        elif f[0] == "ROW":
            phase, name, t, regs, static, d, maxdyn, carve, blocks, err = f[1:]
            rows.append([int(t), int(regs), int(static), int(d), int(maxdyn), int(carve), int(blocks),
                         None if err == "-" else err])
        elif f[0] in ("KERR", "SETERR", "ERROR"):
            errors.append(line)
    return {"device": device, "kernels": kernels, "rows": rows, "errors": errors, "complete": "DONE" in output}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(os.environ.get("OUT", "."), "occupancy_h200.json"))
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 4)
    ap.add_argument("--keep", help="keep the generated sources and ptxas log in this folder")
    args = ap.parse_args()

    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="occ_sweep_"))
    work.mkdir(parents=True, exist_ok=True)
    exe = build(work, args.arch, args.jobs)
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=240)
    result = parse(run.stdout)
    if run.returncode != 0:
        result["errors"].append(f"sweep exited {run.returncode}: {run.stderr[-2000:]}")
    nvcc = sh(["nvcc", "--version"], work).strip().splitlines()[-1]
    dev = result["device"]
    table = {
        "date": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "device_name": dev.get("name"),
        "cc": f"{dev.get('major')}.{dev.get('minor')}",
        "nvcc": nvcc,
        "method": "cudaFuncGetAttributes (numRegs, sharedSizeBytes) + cudaOccupancyMaxActiveBlocksPerMultiprocessor",
        "device": dev,
        "kernels": result["kernels"],
        "columns": ["threads", "regs", "static_smem", "dynamic_smem", "max_dynamic_smem", "carveout", "blocks",
                    "error"],
        "rows": result["rows"],
        "errors": result["errors"],
        "complete": result["complete"],
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w") as fh:
        # One row per line: the file stays diffable and greppable.
        head = {k: v for k, v in table.items() if k != "rows"}
        text = json.dumps(head, indent=1)[:-2]
        fh.write(text + ',\n "rows": [\n')
        fh.write(",\n".join(json.dumps(r) for r in table["rows"]))
        fh.write("\n ]\n}\n")
    print(f"{len(table['rows'])} configurations, {len(table['kernels'])} kernels, errors: {len(table['errors'])},"
          f" complete: {table['complete']} -> {args.out}", file=sys.stderr)
    return 0 if table["complete"] and table["rows"] else 1


if __name__ == "__main__":
    sys.exit(main())
