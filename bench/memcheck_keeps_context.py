#!/usr/bin/env python3
"""Does a context survive memcheck's report of an out-of-bounds access? (issue 17, on a GPU machine)

    python3 bench/memcheck_keeps_context.py [--json out.json]

A GPU worker's memcheck child used to end after every faulting kernel (a sticky error), and its
successor's start under the tool (0.5-1.4 s) was waited for by the jobs behind it. compute-sanitizer's
`--destroy-on-device-error kernel` asks it to end only the kernel on a precise error. For each of
`context` (the default) and `kernel`, this runs a small program under memcheck that launches a
kernel writing one element past its buffer, then a correct kernel, and reports what the program saw:
the error of the faulting launch, whether the correct kernel then ran and gave the right output, and
whether memcheck reported the write. The last line printed is JSON.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

PROGRAM = r'''
import json, sys
import numpy as np
import pycuda.driver as drv
from pycuda.compiler import SourceModule
drv.init()
ctx = drv.Device(0).make_context()
mod = SourceModule("""
extern "C" __global__ void past_end(float* y, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i <= n) y[i] = 1.0f; }
extern "C" __global__ void twice(const float* x, float* y, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = 2.0f * x[i]; }
""", no_extern_c=True, options=["-lineinfo"])
out = {}
n = 256
y = drv.mem_alloc(n * 4)
try:
    mod.get_function("past_end")(y, np.int32(n), block=(257, 1, 1), grid=(1, 1, 1))
    ctx.synchronize()
    out["fault"] = "none"
except drv.Error as exc:
    out["fault"] = str(exc)
try:
    x = np.arange(n, dtype=np.float32)
    z = np.zeros_like(x)
    mod.get_function("twice")(drv.In(x), drv.Out(z), np.int32(n), block=(256, 1, 1), grid=(1, 1, 1))
    ctx.synchronize()
    out["after"] = "ran" if np.array_equal(z, 2 * x) else "wrong output"
except drv.Error as exc:
    out["after"] = str(exc)
print(json.dumps(out))
sys.stdout.flush()
ctx.pop()
'''


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", help="also write the figures here")
    args = parser.parse_args()
    sanitizer = shutil.which("compute-sanitizer") or "/usr/local/cuda/bin/compute-sanitizer"
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "probe.py")
        with open(script, "w") as f:
            f.write(PROGRAM)
        for mode in ("context", "kernel"):
            log = os.path.join(tmp, f"{mode}.log")
            proc = subprocess.run([sanitizer, "--tool", "memcheck", "--destroy-on-device-error", mode, "--log-file", log,
                                   sys.executable, script], capture_output=True, text=True, timeout=120)
            seen = {}
            for line in proc.stdout.splitlines():
                if line.startswith("{"):
                    seen = json.loads(line)
            report = open(log).read() if os.path.exists(log) else ""
            results[mode] = {"exit": proc.returncode, **seen, "reported": "Invalid __global__ write" in report,
                             "records": sum(1 for line in report.splitlines() if line.startswith("========= ") and not line.startswith("=========  ")),
                             "stderr": proc.stderr[-300:]}
            print(mode, json.dumps(results[mode]), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
