"""Emulator compile time of a typical submission, with the precompiled prelude and without it.

Usage (from the repository root):

    PYTHONPATH=. .venv/bin/python bench/emulator_compile.py [--rounds 7]

Compiles the reduction kernel of bench/emulator_bench.py through EmulatorBackend.compile (rewrite,
g++ in the sandbox, objcopy, link), the cache defeated by a unique comment each time, alternating
the modes in the same run so all see the same machine load: "shipped" is the backend as it is
(toolchain.pch_dir first on the include path, toolchain.LINKER gold), "pch" the same with the
default linker (bfd), "baseline" with neither (the header parsed every time, as before). Reports the median wall time of the sandboxed
compile and the median CPU time (user + system) of the same compile command run again outside the
sandbox on the same text (the box's processes are not this process's to reap, and wall time is
noise on a shared machine; the box's own start is not in the CPU figure), and the load average. The goal (issue #17) is <= 0.2 s. Last line is JSON.
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
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from emulator_bench import REDUCE, _spec  # noqa: E402
from grader.core import sandbox  # noqa: E402
from grader.core.backends.emulator import EmulatorBackend  # noqa: E402
from grader.core.emulator import toolchain  # noqa: E402

SHIPPED_PCH_DIR, SHIPPED_LINKER = toolchain.pch_dir, toolchain.LINKER
MODES = ("baseline", "pch", "no-coro", "shipped")


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def compile_once(backend: EmulatorBackend, mode: str, tag: str) -> tuple[float, float]:
    """(wall s, CPU s) of one uncached compile in `mode`: "baseline" (no precompiled prelude, the
    default linker, no coroutine copy), "pch" (the precompiled prelude, the default linker, no copy),
    "no-coro" (the toolchain as is, without the kernel's coroutine copy: as before coro mode) or
    "shipped" (the toolchain as is: the reduction gets its coroutine copy, emulator/coro.py)."""
    toolchain.pch_dir = SHIPPED_PCH_DIR if mode != "baseline" else (lambda variant: "/wd/no-pch")
    toolchain.LINKER = SHIPPED_LINKER if mode in ("shipped", "no-coro") else []
    backend.coro = mode == "shipped"
    spec = _spec("reduce", ("x", "in", "float32"), ("y", "out", "float32"), ("n", "scalar", "int32"))
    wall = time.perf_counter()
    build = backend.compile(REDUCE + f"// bench {tag}\n", spec)
    wall = time.perf_counter() - wall
    if not build.compile.ok:
        raise SystemExit(build.compile.log)
    runtime = backend.runtime("fast")
    with tempfile.TemporaryDirectory(prefix="wd-bench-cc-") as tmp:
        (Path(tmp) / "kernel.cpp").write_text(build.handle.text_of("fast"))
        argv = sandbox.unsafe_argv(toolchain.compile_argv("fast", "kernel.cpp", "kernel.bin"), Path(tmp),
                                    {str(toolchain.INCLUDE_DIR): toolchain.SANDBOX_INCLUDE,
                                     str(runtime.lib_dir): toolchain.SANDBOX_LIB})
        cpu = _children_cpu()
        subprocess.run(argv, cwd=tmp, check=True, capture_output=True)
        cpu = _children_cpu() - cpu
    backend.close(build)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    backend = EmulatorBackend()
    backend.runtime("fast")  # the runtime and its precompiled prelude, built once (not timed)
    pch_file = backend.runtime("fast").lib_dir / "pch-fast" / toolchain.PRELUDE.replace(".hpp", ".hpp.gch")
    load_before = os.getloadavg()[0]
    figures: dict[str, dict[str, list[float]]] = {m: {"wall": [], "cpu": []} for m in MODES}
    for i in range(args.rounds):
        for mode in MODES:
            wall, cpu = compile_once(backend, mode, f"{time.time_ns()} {i}")
            figures[mode]["wall"].append(wall)
            figures[mode]["cpu"].append(cpu)
    load = round((load_before + os.getloadavg()[0]) / 2, 1)
    summary = {m: {"wall_s_p50": round(statistics.median(f["wall"]), 3),
                   "cpu_s_p50": round(statistics.median(f["cpu"]), 3)} for m, f in figures.items()}
    summary.update({"linker": SHIPPED_LINKER, "rounds": args.rounds, "pch_present": pch_file.exists(), "load_average": load,
                    "cpus": os.cpu_count(), "goal_s": 0.2})
    print(f"{'mode':10} {'wall p50 s':>11} {'cpu p50 s':>10}")
    for mode in MODES:
        print(f"{mode:10} {summary[mode]['wall_s_p50']:11.3f} {summary[mode]['cpu_s_p50']:10.3f}")
    print(f"load average {load} on {os.cpu_count()} CPUs; precompiled prelude present: {pch_file.exists()}")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
