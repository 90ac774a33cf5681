"""The grid-sync family's keys agree with the judge (docs/synchronization.md rows 17, 17b and 18, and
the cooperative launch's rule).

`synchronization.grid_sync` asks what a grid-wide synchronization does: a cooperative launch with
grid.sync() ("works" / "rejected"), an inter-block spin barrier in an ordinary launch
("not_guaranteed" / "hangs"), grid.sync() in an ordinary launch ("trap"), __syncthreads() meant for
the grid ("block_only") and two kernels in one stream ("works"). Its keys come from the occupancy
model (blocks per SM x SMs) for the question's GPU, threads and registers per thread.

1. For every question the family generates (3 difficulties x 300 seeds), the judge's own decisions on
   that exact launch give the key: cooperative_launch_problem refuses exactly the "rejected" grids,
   with cudaErrorCooperativeLaunchTooLarge, and coresidency.resident_blocks fits exactly the
   "not_guaranteed" spin barriers.
2. For every (scenario, key) the family can give, a real kernel of that scenario in the style of
   public CUDA code is judged end to end on the emulator, for the question's GPU (target_gpu), block
   size and registers (a backend whose build reports the question's registers instead of ptxas's), and
   gets the key's verdict: ACCEPTED, SYNC_ERROR for co-residency, RUNTIME_ERROR with CUDA's error,
   DEADLOCK, SYNC_ERROR for a race between blocks. The family's grids are 15 000 to 4 million threads;
   where a key needs every block resident at once (works, not_guaranteed) and the question's grid is
   more than the emulator holds (MAX_CORESIDENT_THREADS), the same launch runs with fewer blocks that
   still fit on that GPU, and the question's own grid is checked to be refused as the platform's limit
   (UnsupportedLaunchError), never the student's runtime error.
"""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import yaml

from grader.core.backends.base import ArgRole, ArgSpec, KernelSpec, LaunchConfig, RunRequest, RunStatus
from grader.core.backends.emulator import EmulatorBackend
from grader.core.coresidency import resident_blocks
from grader.core.emulator.run_limits import MAX_CORESIDENT_THREADS
from grader.core.errors import UnsupportedLaunchError
from grader.core.judge import judge
from grader.core.launch import cooperative_launch_problem
from grader.core.results import Resources
from practice.core.questions import generate
from problems.core.gpus import gpu as gpu_by_key
from problems.core.package import parse_package

pytestmark = pytest.mark.slow

SEEDS = range(300)

COOPERATIVE = """#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#define THREADS {threads}

// phase1 writes this thread's word, phase2 reads the next thread's, often in another block.
extern "C" __global__ void __launch_bounds__(THREADS) two_phases(const float* x, float* data, float* y, int n)
{{
    cg::grid_group grid = cg::this_grid();
    unsigned long long i = grid.thread_rank();
    if (i < n) data[i] = 2.0f * x[i];                 // phase1
    grid.sync();{plain}
    if (i < n) y[i] = data[(i + 1) % n];              // phase2
}}
"""

SPIN_BARRIER = """#define THREADS {threads}

__device__ unsigned int arrived = 0;   // zero at every launch of the judge (a fresh module)

template <typename T>
__device__ void wait_for_every_block(T* counter)
{{
    __threadfence();                   // phase1's writes visible to every block
    __syncthreads();
    if (threadIdx.x == 0) {{
        atomicAdd(counter, 1u);
        while (atomicAdd(counter, 0u) < gridDim.x) {{ }}
    }}
    __syncthreads();
}}

extern "C" __global__ void two_phases(const float* x, float* data, float* y, int n)
{{
    int i = blockIdx.x * THREADS + threadIdx.x;
    if (i < n) data[i] = 2.0f * x[i];
    wait_for_every_block(&arrived);
    if (i < n) y[i] = ((volatile float*)data)[(i + 1) % n];
}}
"""

SYNCTHREADS = """#define THREADS {threads}

extern "C" __global__ void two_phases(const float* x, float* data, float* y, int n)
{{
    int i = blockIdx.x * THREADS + threadIdx.x;
    if (i < n) data[i] = 2.0f * x[i];
    __syncthreads();                   // meant to wait for every block
    if (i < n) y[i] = data[(i + 1) % n];
}}
"""

PHASE1 = """#define TILE {threads}
extern "C" __global__ void phase1_kernel(const float* x, float* data, int n)
{{
    int i = blockIdx.x * TILE + threadIdx.x;
    if (i < n) data[i] = 2.0f * x[i];
}}
"""

PHASE2 = """#define TILE {threads}
extern "C" __global__ void phase2_kernel(const float* data, float* y, int n)
{{
    int i = blockIdx.x * TILE + threadIdx.x;
    if (i < n) y[i] = data[(i + 1) % n];
}}
"""

HARNESS = """import numpy as np


def generate(case, rng):
    n = int(case["n"])
    return {"x": rng.uniform(-1, 1, n).astype(np.float32), "data": np.zeros(n, np.float32),
            "y": np.empty(n, np.float32), "n": n}


def reference(inputs):
    data = (2 * inputs["x"]).astype(np.float32)
    return {"data": data, "y": np.roll(data, -1)}
"""

ARGS = [{"name": "x", "role": "in", "dtype": "float32"}, {"name": "data", "role": "inout", "dtype": "float32"},
        {"name": "y", "role": "out", "dtype": "float32"}, {"name": "n", "role": "scalar", "dtype": "int32"}]


class StatedRegisters(EmulatorBackend):
    """The emulator, with ptxas's resource report replaced by the registers per thread the question
    states (nvcc's own count for these kernels is not the question's)."""

    wants_ptxas_report = False

    def __init__(self, registers: int):
        super().__init__()
        self.registers = registers

    def compile(self, source, spec):
        build = super().compile(source, spec)
        build.resources = Resources(registers=self.registers, shared_static_bytes=0, source="ptxas")
        return build


def questions() -> dict[tuple, str]:
    """{(scenario, gpu, threads, regs, grid): key} of every question the family generates."""
    seen = {}
    for d in (1, 2, 3):
        for seed in SEEDS:
            q = generate("synchronization.grid_sync", seed, d)
            p = q.params
            seen[(p["scenario"], p["gpu"], p["threads"], p["regs"], p["grid"])] = q.answer["result"]
    return seen


def fit_of(gpu_key: str, threads: int, regs: int) -> int:
    launch = LaunchConfig((1, 1, 1), (threads, 1, 1), 0)
    return resident_blocks(launch, gpu_by_key(gpu_key), regs, 0)[1]


def package(scenario: str, threads: int, grid: int):
    """A one-kernel package of the scenario: the launch the question describes, one sample test."""
    source = {"cooperative": COOPERATIVE.format(threads=threads, plain=""),
              "plain_grid_sync": COOPERATIVE.format(threads=threads, plain=""),
              "spin_barrier": SPIN_BARRIER.format(threads=threads),
              "syncthreads": SYNCTHREADS.format(threads=threads)}[scenario]
    launch = {"block": str(threads), "grid": str(grid)}
    if scenario == "cooperative":
        launch["cooperative"] = True
    problem = {"slug": "grid-sync-consistency", "title": {"en": "grid sync"}, "topic": "synchronization",
               "kind": "kernel", "difficulty": 3, "kernel": {"name": "two_phases", "args": ARGS}, "launch": launch,
               "limits": {"time_s": 10}, "tolerance": {"atol": 0, "rtol": 0},
               "checks": ["racecheck", "synccheck", "memcheck"],
               "tests": [{"name": "t", "params": {"n": grid * threads}, "seed": 7, "sample": True}]}
    files = {"problem.yaml": yaml.safe_dump(problem, sort_keys=False), "statement.md": scenario,
             "starter.cu": source, "solution.cu": source, "harness.py": HARNESS}
    return parse_package(files), source


def class_of(result) -> str:
    """The family's key that a judge result stands for (or what the result was, when none)."""
    verdict, kinds = str(result.verdict), {str(d.kind) for d in result.diagnostics}
    shapes = {d.detail.get("shape") for d in result.diagnostics}
    text = " ".join([result.message, *(d.message for d in result.diagnostics)])
    if verdict == "ACCEPTED":
        return "works"
    if verdict == "SYNC_ERROR" and "co_residency" in shapes:
        return "not_guaranteed"
    if verdict == "SYNC_ERROR" and "between_blocks" in shapes and "race" in kinds:
        return "block_only"
    if verdict == "RUNTIME_ERROR" and "cudaErrorCooperativeLaunchTooLarge" in text:
        return "rejected"
    if verdict == "RUNTIME_ERROR" and "CUDA_ERROR_LAUNCH_FAILED" in text and "cooperative launch" in text:
        return "trap"
    if verdict == "DEADLOCK":
        return "hangs"
    return f"{verdict}: {text[:200]}"


QUESTIONS = questions()


def test_the_judges_launch_decisions_give_every_generated_key():
    """Every generated cooperative launch is refused with CUDA's error exactly when keyed "rejected",
    and every spin barrier's grid fits on its GPU exactly when keyed "not_guaranteed"."""
    wrong = []
    for (scenario, key_gpu, threads, regs, grid), key in QUESTIONS.items():
        g = gpu_by_key(key_gpu)
        if scenario == "cooperative":
            refused = cooperative_launch_problem(LaunchConfig((grid, 1, 1), (threads, 1, 1), 0, cooperative=True),
                                                 g, regs, 0)
            got = "works" if refused is None else "rejected" if "CooperativeLaunchTooLarge" in refused else str(refused)
        elif scenario == "spin_barrier":
            got = "not_guaranteed" if grid <= fit_of(key_gpu, threads, regs) else "hangs"
        else:
            continue
        if got != key:
            wrong.append((scenario, key_gpu, threads, regs, grid, key, got))
    assert wrong == []
    assert set(QUESTIONS.values()) == {"works", "not_guaranteed", "rejected", "hangs", "trap", "block_only"}


def representatives() -> list[tuple]:
    """For each (scenario, key): the generated question with the fewest threads."""
    best: dict[tuple, tuple] = {}
    for (scenario, key_gpu, threads, regs, grid), key in QUESTIONS.items():
        item = (scenario, key_gpu, threads, regs, grid, key)
        if (scenario, key) not in best or grid * threads < best[(scenario, key)][4] * best[(scenario, key)][2]:
            best[(scenario, key)] = item
    return [best[k] for k in sorted(best)]


def runnable_grid(scenario: str, key: str, gpu_key: str, threads: int, regs: int, grid: int) -> int:
    """The question's grid, or fewer blocks that still fit on the GPU and on the emulator where the key
    runs every block at once; at least two blocks (the phases cross blocks)."""
    if key in ("rejected", "hangs") or grid * threads <= MAX_CORESIDENT_THREADS:
        return grid
    return max(2, min(grid, fit_of(gpu_key, threads, regs), MAX_CORESIDENT_THREADS // threads))


@pytest.mark.parametrize("scenario, gpu_key, threads, regs, grid, key", representatives(),
                         ids=lambda v: str(v))
def test_a_real_kernel_of_each_scenario_gets_the_keys_verdict(scenario, gpu_key, threads, regs, grid, key):
    """The scenario's kernel, launched as the question says (on fewer blocks only where the emulator
    could not hold them all), gets from the emulator's judge the verdict the key stands for."""
    backend = StatedRegisters(regs)
    g = gpu_by_key(gpu_key)
    if scenario == "two_kernels":
        assert key == "works"
        assert two_kernels_in_one_stream(backend, threads, runnable_grid(scenario, key, gpu_key, threads, regs, grid))
        return
    blocks = runnable_grid(scenario, key, gpu_key, threads, regs, grid)
    pkg, source = package(scenario, threads, blocks)
    result = judge(pkg, source, backend, target_cc=g.cc, target_gpu=gpu_key)
    assert class_of(result) == key, (scenario, gpu_key, threads, regs, grid, blocks, result.message)
    if blocks != grid and scenario == "cooperative":
        # The question's own grid: more threads than the emulator holds at once, which is the
        # platform's limit (a GPU worker grades it), not the student's error.
        pkg, source = package(scenario, threads, grid)
        with pytest.raises(UnsupportedLaunchError, match="co-resident threads"):
            judge(pkg, source, backend, target_cc=g.cc, target_gpu=gpu_key)


def two_kernels_in_one_stream(backend: EmulatorBackend, threads: int, grid: int) -> bool:
    """phase1_kernel then phase2_kernel, the second reading what the first wrote (the stream's order),
    each run with the check pass: both complete with no finding and y is the reference's."""
    n = grid * threads
    x = np.random.default_rng(7).uniform(-1, 1, n).astype(np.float32)
    launch = LaunchConfig((grid, 1, 1), (threads, 1, 1), 0)
    first = KernelSpec("phase1_kernel", (ArgSpec("x", ArgRole.IN, "float32"), ArgSpec("data", ArgRole.OUT, "float32"),
                                         ArgSpec("n", ArgRole.SCALAR, "int32")))
    second = KernelSpec("phase2_kernel", (ArgSpec("data", ArgRole.IN, "float32"),
                                          ArgSpec("y", ArgRole.OUT, "float32"), ArgSpec("n", ArgRole.SCALAR, "int32")))
    outputs = {}
    for spec, source, inputs in ((first, PHASE1, {"x": x, "data": np.empty(n, np.float32), "n": n}),
                                 (second, PHASE2, None)):
        build = backend.compile(source.format(threads=threads), spec)
        assert build.compile.ok, build.compile.log
        try:
            inputs = inputs or {"data": outputs["data"], "y": np.empty(n, np.float32), "n": n}
            out = backend.run(build, RunRequest(launch, inputs, time_limit_s=10.0, check=True, test_name="t"))
        finally:
            backend.close(build)
        assert out.status is RunStatus.OK and out.diagnostics == [], (out.status, out.message, out.diagnostics)
        outputs.update(out.outputs)
    return bool(np.array_equal(outputs["y"], np.roll(2 * x, -1)))


def test_a_cooperative_launch_the_emulator_cannot_hold_is_the_platforms_limit():
    """Beyond MAX_CORESIDENT_THREADS a cooperative launch that fits on the GPU is refused by the judge as
    UnsupportedLaunchError (a PlatformError), while one just within it runs and is ACCEPTED."""
    threads = 256
    within = MAX_CORESIDENT_THREADS // threads
    backend = StatedRegisters(32)
    pkg, source = package("cooperative", threads, within)
    assert str(judge(pkg, source, backend, target_cc="9.0", target_gpu="h200").verdict) == "ACCEPTED"
    pkg, source = package("cooperative", threads, within + 1)
    with pytest.raises(UnsupportedLaunchError):
        judge(pkg, source, backend, target_cc="9.0", target_gpu="h200")
    # One block more than the H200 holds (8 x 132) is CUDA's refusal first, whatever the emulator holds.
    pkg, source = package("cooperative", threads, 8 * 132 + 1)
    assert "cudaErrorCooperativeLaunchTooLarge" in judge(pkg, source, backend, target_cc="9.0", target_gpu="h200").message
