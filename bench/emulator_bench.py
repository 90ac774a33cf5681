"""Benchmark the emulator backend against Numba's CUDA simulator on the same kernels.

Usage (from the repository root):

    python3 -m venv /tmp/numbavenv && /tmp/numbavenv/bin/pip install numba numpy   # once, throwaway
    PYTHONPATH=. .venv/bin/python bench/emulator_bench.py --numba-python /tmp/numbavenv/bin/python

Numba is NOT a project requirement: it runs in its own interpreter (--numba-python, or the
NUMBA_PYTHON environment variable); without one the Numba column is skipped. Numba gets smaller
problem sizes (its simulator runs every CUDA thread as a Python thread), so both are compared in
elements per second. Run times exclude compilation. Prints a table; the last line is JSON.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from grader.core.backends.base import ArgRole, ArgSpec, KernelSpec, LaunchConfig, RunRequest  # noqa: E402
from grader.core.backends.emulator import EmulatorBackend  # noqa: E402
from grader.core.emulator import jobs  # noqa: E402

VECADD = """__global__ void vadd(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
"""
REDUCE = """__global__ void reduce(const float* x, float* y, int n) {
    __shared__ float s[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) y[blockIdx.x] = s[0];
}
"""
MATMUL = """#define TILE 16
__global__ void matmul(const float* A, const float* B, float* C, int n) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int k0 = 0; k0 < n; k0 += TILE) {
        As[threadIdx.y][threadIdx.x] = A[row * n + k0 + threadIdx.x];
        Bs[threadIdx.y][threadIdx.x] = B[(k0 + threadIdx.y) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    C[row * n + col] = acc;
}
"""


def _spec(name, *args):
    return KernelSpec(name, tuple(ArgSpec(n, ArgRole(r), d) for n, r, d in args))


def cases():
    n_add, n_red, n_mm = 1 << 24, 1 << 22, 512
    rng = np.random.default_rng(0)
    a = rng.random(n_add, dtype=np.float32)
    x = rng.random(n_red, dtype=np.float32)
    A = rng.random((n_mm, n_mm), dtype=np.float32)
    B = rng.random((n_mm, n_mm), dtype=np.float32)
    return [
        ("vector_add_2^24", VECADD, _spec("vadd", ("a", "in", "float32"), ("b", "in", "float32"), ("c", "out", "float32"), ("n", "scalar", "int32")),
         LaunchConfig((n_add // 256, 1, 1), (256, 1, 1)), {"a": a, "b": a, "c": np.zeros(n_add, np.float32), "n": n_add}, n_add, 1.0,
         lambda out: np.allclose(out["c"], a + a)),
        ("reduce_2^22", REDUCE, _spec("reduce", ("x", "in", "float32"), ("y", "out", "float32"), ("n", "scalar", "int32")),
         LaunchConfig((n_red // 256, 1, 1), (256, 1, 1)), {"x": x, "y": np.zeros(n_red // 256, np.float32), "n": n_red}, n_red, 2.0,
         lambda out: np.allclose(out["y"], x.reshape(-1, 256).sum(axis=1), rtol=1e-4)),
        ("matmul_512^3", MATMUL, _spec("matmul", ("A", "in", "float32"), ("B", "in", "float32"), ("C", "out", "float32"), ("n", "scalar", "int32")),
         LaunchConfig((n_mm // 16, n_mm // 16, 1), (16, 16, 1)), {"A": A, "B": B, "C": np.zeros((n_mm, n_mm), np.float32), "n": n_mm},
         n_mm ** 3, 3.0, lambda out: np.allclose(out["C"], A @ B, rtol=1e-3)),
    ]


NUMBA_SCRIPT = textwrap.dedent("""
    import os, sys, json, time
    os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
    import numpy as np
    from numba import cuda, float32

    @cuda.jit
    def vadd(a, b, c, n):
        i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
        if i < n:
            c[i] = a[i] + b[i]

    @cuda.jit
    def reduce(x, y, n):
        s = cuda.shared.array(256, float32)
        t = cuda.threadIdx.x
        i = cuda.blockIdx.x * cuda.blockDim.x + t
        s[t] = x[i] if i < n else 0.0
        cuda.syncthreads()
        stride = cuda.blockDim.x // 2
        while stride > 0:
            if t < stride:
                s[t] += s[t + stride]
            cuda.syncthreads()
            stride //= 2
        if t == 0:
            y[cuda.blockIdx.x] = s[0]

    @cuda.jit
    def matmul(A, B, C, n):
        As = cuda.shared.array((16, 16), float32)
        Bs = cuda.shared.array((16, 16), float32)
        tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
        row, col = cuda.blockIdx.y * 16 + ty, cuda.blockIdx.x * 16 + tx
        acc = 0.0
        for k0 in range(0, n, 16):
            As[ty, tx] = A[row, k0 + tx]
            Bs[ty, tx] = B[k0 + ty, col]
            cuda.syncthreads()
            for k in range(16):
                acc += As[ty, k] * Bs[k, tx]
            cuda.syncthreads()
        C[row, col] = acc

    res = {}
    n = 1 << 12
    a = np.ones(n, np.float32); c = np.zeros(n, np.float32)
    t = time.perf_counter(); vadd[n // 256, 256](a, a, c, n); res["vector_add_2^24"] = n / (time.perf_counter() - t)
    n = 1 << 11
    x = np.ones(n, np.float32); y = np.zeros(n // 256, np.float32)
    t = time.perf_counter(); reduce[n // 256, 256](x, y, n); res["reduce_2^22"] = n / (time.perf_counter() - t)
    assert y.sum() == n
    m = 32
    A = np.ones((m, m), np.float32); C = np.zeros((m, m), np.float32)
    t = time.perf_counter(); matmul[(m // 16, m // 16), (16, 16)](A, A, C, m); res["matmul_512^3"] = m ** 3 / (time.perf_counter() - t)
    print(json.dumps(res))
""")


def numba_rates(python: str | None) -> dict:
    if not python:
        return {}
    proc = subprocess.run([python, "-c", NUMBA_SCRIPT], capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        print("numba failed:", proc.stderr[-2000:], file=sys.stderr)
        return {}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def compile_time(backend: EmulatorBackend) -> float:
    """Median wall time of compiling the reduction kernel, cache defeated by a unique comment."""
    times = []
    for i in range(3):
        src = REDUCE + f"// bench {time.time_ns()} {i}\n"
        build = backend.compile(src, _spec("reduce", ("x", "in", "float32"), ("y", "out", "float32"), ("n", "scalar", "int32")))
        times.append(build.compile.time_s)
        backend.close(build)
    return sorted(times)[1]


def peak_memory_1024(backend: EmulatorBackend) -> int:
    """Peak RSS (bytes) of the emulator process for a grid of 1024-thread blocks with barriers."""
    kspec = _spec("reduce", ("x", "in", "float32"), ("y", "out", "float32"), ("n", "scalar", "int32"))
    build = backend.compile(REDUCE.replace("s[256]", "s[1024]"), kspec)
    n = 1 << 20
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        jobs.write_job(work, kspec, LaunchConfig((n // 1024, 1, 1), (1024, 1, 1)),
                       {"x": np.ones(n, np.float32), "y": np.zeros(n // 1024, np.float32), "n": n},
                       fibers=True, workers=backend.workers, start_aligned=False, time_limit_s=60)
        probe = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True); "
                 "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
        out = subprocess.run([sys.executable, "-c", probe, str(build.handle.binaries["fast"]), str(work / "job.txt")],
                             capture_output=True, text=True, check=True)
        ok = json.loads((work / "result.json").read_text())["status"] == "ok"
    backend.close(build)
    return int(out.stdout.strip()) * 1024 if ok else -1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--numba-python", default=os.environ.get("NUMBA_PYTHON"))
    args = parser.parse_args()
    backend = EmulatorBackend()
    results = {}
    for name, src, kspec, launch, inputs, elements, budget, verify in cases():
        build = backend.compile(src, kspec)
        if not build.compile.ok:
            raise SystemExit(build.compile.log)
        best_wall, best_child, ok = 1e9, 1e9, True
        for _ in range(2):
            t = time.perf_counter()
            out = backend.run(build, RunRequest(launch, inputs, time_limit_s=60))
            wall = time.perf_counter() - t
            ok &= out.status.value == "ok" and verify(out.outputs)
            best_wall, best_child = min(best_wall, wall), min(best_child, out.time_s)
        backend.close(build)
        results[name] = {"run_s": round(best_wall, 3), "kernel_s": round(best_child, 3), "budget_s": budget,
                         "elements_per_s": elements / best_wall, "correct": bool(ok)}
    rates = numba_rates(args.numba_python)
    for name, r in results.items():
        if name in rates:
            r["numba_elements_per_s"] = rates[name]
            r["speedup_vs_numba"] = round(r["elements_per_s"] / rates[name], 1)
    summary = {"cases": results, "compile_s": round(compile_time(backend), 3),
               "peak_rss_1024_thread_blocks_mib": round(peak_memory_1024(backend) / 2**20, 1),
               "cpus": os.cpu_count(), "workers": backend.workers}
    print(f"{'case':18} {'run s':>7} {'kernel s':>9} {'budget':>7} {'elem/s':>10} {'numba elem/s':>13} {'speedup':>8}")
    for name, r in results.items():
        print(f"{name:18} {r['run_s']:7.3f} {r['kernel_s']:9.3f} {r['budget_s']:7.1f} {r['elements_per_s']:10.3g} "
              f"{r.get('numba_elements_per_s', float('nan')):13.3g} {r.get('speedup_vs_numba', float('nan')):8}")
    print(f"compile (typical submission): {summary['compile_s']} s; peak RSS, 1024-thread blocks: "
          f"{summary['peak_rss_1024_thread_blocks_mib']} MiB")
    print(json.dumps(summary))


if __name__ == "__main__":
    resource.setrlimit(resource.RLIMIT_STACK, resource.getrlimit(resource.RLIMIT_STACK))
    main()
