"""Benchmark the emulator backend against Numba's CUDA simulator on the same kernels.

Usage (from the repository root):

    python3 -m venv /tmp/numbavenv && /tmp/numbavenv/bin/pip install numba numpy   # once, throwaway
    PYTHONPATH=. .venv/bin/python bench/emulator_bench.py --numba-python /tmp/numbavenv/bin/python
    PYTHONPATH=. .venv/bin/python bench/emulator_bench.py --part native --reps 5   # the loop-mode goal only

Numba is NOT a project requirement: it runs in its own interpreter (--numba-python, or the
NUMBA_PYTHON environment variable); without one the Numba column is skipped. Numba gets smaller
problem sizes (its simulator runs every CUDA thread as a Python thread), so both are compared in
elements per second. Run times exclude compilation. Prints a table; the last line is JSON.

Barrier-free kernels (issue #17: within 5x of a plain C++ loop doing the same work on the same cores)
run beside bench/native_loops.cpp, compiled with the emulator's flags, on the same job directory and
worker count, the two alternating `--reps` times: the grid alone (`launch`, wall and process CPU
seconds, from the result file) and the whole process (reading the inputs, writing the output). The
emulator binary runs outside the sandbox there, so the sandbox's start is in neither. On a loaded
machine the CPU seconds are the figure (the wall time is mostly waiting for a core); `uptime`'s load
is printed beside them.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
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
from grader.core.emulator import jobs, toolchain  # noqa: E402

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

# Barrier-free: one thread per output element, no shared memory (a loop per block in the emulator).
MATMUL_NAIVE = """__global__ void matmul(const float* A, const float* B, float* C, int n) {
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n || col >= n) return;
    float acc = 0.0f;
    for (int k = 0; k < n; ++k) acc += A[row * n + k] * B[k * n + col];
    C[row * n + col] = acc;
}
"""
NATIVE_SOURCE = Path(__file__).resolve().parent / "native_loops.cpp"


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


def _load() -> float:
    return os.getloadavg()[0]


def _direct(argv: list[str]) -> tuple[float, float, subprocess.CompletedProcess]:
    """Run `argv` outside the sandbox: (wall s, CPU s of the process and its threads, the process)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc


def native_cases():
    """(name, kernel source, spec, launch, inputs, native kind, n, verify) of the barrier-free cases."""
    n_add, n_mm = 1 << 24, 512
    rng = np.random.default_rng(1)
    a, b = rng.random(n_add, dtype=np.float32), rng.random(n_add, dtype=np.float32)
    A, B = rng.random((n_mm, n_mm), dtype=np.float32), rng.random((n_mm, n_mm), dtype=np.float32)
    io = (("a", "in", "float32"), ("b", "in", "float32"), ("c", "out", "float32"), ("n", "scalar", "int32"))
    mm = (("A", "in", "float32"), ("B", "in", "float32"), ("C", "out", "float32"), ("n", "scalar", "int32"))
    return [
        ("vector_add_2^24", VECADD, _spec("vadd", *io), LaunchConfig((n_add // 256, 1, 1), (256, 1, 1)),
         {"a": a, "b": b, "c": np.zeros(n_add, np.float32), "n": n_add}, "vector_add", n_add,
         lambda c: np.array_equal(c, a + b)),
        ("matmul_naive_512^3", MATMUL_NAIVE, _spec("matmul", *mm), LaunchConfig((n_mm // 16, n_mm // 16, 1), (16, 16, 1)),
         {"A": A, "B": B, "C": np.zeros((n_mm, n_mm), np.float32), "n": n_mm}, "matmul_naive", n_mm,
         lambda c: np.allclose(c.reshape(n_mm, n_mm), A @ B, rtol=1e-3)),
    ]


def native_comparison(backend: EmulatorBackend, reps: int) -> dict:
    """The barrier-free kernels in loop mode beside the same loops in plain C++ (see the docstring)."""
    out = {}
    with tempfile.TemporaryDirectory(prefix="wd-native-") as tmp:
        native = Path(tmp) / "native_loops"
        subprocess.run([toolchain.DEFAULT_CXX, *toolchain.COMMON_FLAGS, "-O2", str(NATIVE_SOURCE), "-o", str(native),
                        "-lpthread"], check=True)
        for name, src, kspec, launch, inputs, kind, n, verify in native_cases():
            build = backend.compile(src, kspec)
            if not build.compile.ok:
                raise SystemExit(build.compile.log)
            work = Path(tmp) / name
            work.mkdir()
            jobs.write_job(work, kspec, launch, inputs, fibers=build.handle.needs_fibers, workers=backend.workers,
                           start_aligned=False, time_limit_s=60)
            rows = {"emulator": [], "native": []}
            ok = True
            for _ in range(reps):
                for who in ("emulator", "native"):
                    argv = ([str(build.handle.binaries["fast"]), str(work / "job.txt")] if who == "emulator"
                            else [str(native), kind, str(work), str(backend.workers), str(n)])
                    (work / "a2.bin.out").unlink(missing_ok=True)
                    wall, cpu, proc = _direct(argv)
                    inner = (json.loads((work / "result.json").read_text()) if who == "emulator"
                             else json.loads(proc.stdout.strip().splitlines()[-1]))
                    ok &= inner.get("status", "ok") == "ok" and bool(verify(np.fromfile(work / "a2.bin.out", np.float32)))
                    rows[who].append((inner["launch_s"], inner["launch_cpu_s"], wall, cpu, _load()))
            backend.close(build)
            med = {who: [statistics.median(r[k] for r in rows[who]) for k in range(5)] for who in rows}
            e, nat = med["emulator"], med["native"]
            out[name] = {
                "mode": "fibers" if build.handle.needs_fibers else "loop", "reps": reps, "correct": bool(ok),
                "emulator": dict(zip(("launch_s", "launch_cpu_s", "process_s", "process_cpu_s", "load"), map(_r, e))),
                "native": dict(zip(("launch_s", "launch_cpu_s", "process_s", "process_cpu_s", "load"), map(_r, nat))),
                "ratio_launch_cpu": _r(e[1] / max(nat[1], 1e-6), 2), "ratio_launch_wall": _r(e[0] / max(nat[0], 1e-6), 2),
                "ratio_process_cpu": _r(e[3] / max(nat[3], 1e-6), 2), "goal_ratio": 5.0,
            }
    return out


def _grid_alone(backend: EmulatorBackend, build, kspec, launch, inputs, reps: int) -> dict:
    """Medians of the grid's own wall and CPU seconds (the result file's launch_s, launch_cpu_s), the
    binary run outside the sandbox `reps` times, with the machine's load beside them. A kernel with a
    coroutine copy (coro mode) is run both ways, the modes alternating: `fibers_*` are the fiber
    scheduler's figures, the baseline of coro mode."""
    modes = ["fibers", "coro"] if build.handle.fast_text is not None else ["fibers" if build.handle.needs_fibers else "loop"]
    rows = {m: [] for m in modes}
    with tempfile.TemporaryDirectory(prefix="wd-grid-") as tmp:
        for _ in range(reps):
            for mode in modes:
                jobs.write_job(Path(tmp), kspec, launch, inputs, fibers=mode == "fibers", coro=mode == "coro",
                               workers=backend.workers, start_aligned=False, time_limit_s=60)
                _direct([str(build.handle.binaries["fast"]), str(Path(tmp) / "job.txt")])
                r = json.loads((Path(tmp) / "result.json").read_text())
                rows[mode].append((r["launch_s"], r["launch_cpu_s"], _load()))

    def medians(m: str) -> dict:
        return {"launch_s": _r(statistics.median(r[0] for r in rows[m]), 3),
                "launch_cpu_s": _r(statistics.median(r[1] for r in rows[m]), 3),
                "load": _r(statistics.median(r[2] for r in rows[m]), 1)}

    out = {"mode": modes[-1], **medians(modes[-1])}
    if len(modes) == 2:
        out.update({f"fibers_{k}": v for k, v in medians("fibers").items()})
    return out


def _r(x: float, digits: int = 4) -> float:
    return round(float(x), digits)


def print_native(native: dict) -> None:
    print(f"{'barrier-free case':20} {'mode':6} {'launch CPU s':>13} {'native':>8} {'ratio':>6} {'launch wall s':>14} "
          f"{'native':>8} {'ratio':>6} {'process CPU s':>14} {'native':>8} {'ratio':>6} {'load':>5}")
    for name, r in native.items():
        e, n = r["emulator"], r["native"]
        print(f"{name:20} {r['mode']:6} {e['launch_cpu_s']:13.4f} {n['launch_cpu_s']:8.4f} {r['ratio_launch_cpu']:6.2f} "
              f"{e['launch_s']:14.4f} {n['launch_s']:8.4f} {r['ratio_launch_wall']:6.2f} {e['process_cpu_s']:14.4f} "
              f"{n['process_cpu_s']:8.4f} {r['ratio_process_cpu']:6.2f} {e['load']:5.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--numba-python", default=os.environ.get("NUMBA_PYTHON"))
    parser.add_argument("--part", choices=("all", "native", "cases"), default="all",
                        help="native: only the barrier-free kernels beside plain C++ loops; cases: all but those")
    parser.add_argument("--reps", type=int, default=5, help="repetitions of the native comparison (medians)")
    args = parser.parse_args()
    backend = EmulatorBackend()
    native = native_comparison(backend, args.reps) if args.part in ("all", "native") else {}
    if args.part == "native":
        print_native(native)
        print(json.dumps({"native": native, "cpus": os.cpu_count(), "workers": backend.workers, "load": _r(_load(), 2)}))
        return
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
        grid = _grid_alone(backend, build, kspec, launch, inputs, args.reps)
        backend.close(build)
        results[name] = {"run_s": round(best_wall, 3), "kernel_s": round(best_child, 3), "budget_s": budget,
                         "elements_per_s": elements / best_wall, "correct": bool(ok), **grid}
    rates = numba_rates(args.numba_python)
    for name, r in results.items():
        if name in rates:
            r["numba_elements_per_s"] = rates[name]
            r["speedup_vs_numba"] = round(r["elements_per_s"] / rates[name], 1)
    summary = {"cases": results, "native": native, "compile_s": round(compile_time(backend), 3),
               "peak_rss_1024_thread_blocks_mib": round(peak_memory_1024(backend) / 2**20, 1),
               "cpus": os.cpu_count(), "workers": backend.workers}
    print(f"{'case':18} {'mode':6} {'run s':>7} {'kernel s':>9} {'grid s':>7} {'grid CPU s':>10} {'load':>5} {'budget':>7} "
          f"{'elem/s':>10} {'numba elem/s':>13} {'speedup':>8}")
    for name, r in results.items():
        print(f"{name:18} {r['mode']:6} {r['run_s']:7.3f} {r['kernel_s']:9.3f} {r['launch_s']:7.3f} {r['launch_cpu_s']:10.3f} "
              f"{r['load']:5.1f} {r['budget_s']:7.1f} {r['elements_per_s']:10.3g} "
              f"{r.get('numba_elements_per_s', float('nan')):13.3g} {r.get('speedup_vs_numba', float('nan')):8}")
    for name, r in results.items():
        if "fibers_launch_s" in r:
            print(f"{name:18} fibers (baseline): grid {r['fibers_launch_s']:.3f} s, grid CPU {r['fibers_launch_cpu_s']:.3f} s; "
                  f"coro: grid {r['launch_s']:.3f} s, grid CPU {r['launch_cpu_s']:.3f} s "
                  f"({r['fibers_launch_s'] / max(r['launch_s'], 1e-9):.1f}x)")
    print_native(native)
    print(f"compile (typical submission): {summary['compile_s']} s; peak RSS, 1024-thread blocks: "
          f"{summary['peak_rss_1024_thread_blocks_mib']} MiB")
    print(json.dumps(summary))


if __name__ == "__main__":
    resource.setrlimit(resource.RLIMIT_STACK, resource.getrlimit(resource.RLIMIT_STACK))
    main()
