"""Launch options on a real GPU (issue 11): an `init: zeros` out buffer, dynamic shared memory above
48 KiB with the opt-in, a cooperative launch with grid.sync(), and a cooperative grid too large to
be co-resident. Skipped unless PyCUDA and an NVIDIA device exist (conftest.require_gpu)."""
from __future__ import annotations

import numpy as np
import pytest

from grader.core.backends.base import ArgInit, ArgRole, ArgSpec, KernelSpec, LaunchConfig, RunRequest, RunStatus

from .conftest import require_gpu

pytestmark = pytest.mark.gpu


@pytest.fixture(scope="module")
def gpu():
    require_gpu()
    from grader.core import sandbox

    mp = pytest.MonkeyPatch()
    if not sandbox.box.DEFAULT.works():
        mp.setattr(sandbox.box, "DEFAULT", sandbox.Sandbox(allow_unsafe=True))  # the H200 test machine has no bubblewrap
    from grader.core.backends.gpu import GpuBackend

    backend = GpuBackend()
    yield backend
    backend.shutdown()
    mp.undo()


def run(gpu, source, spec, launch, inputs):
    build = gpu.compile(source, spec)
    assert build.compile.ok, build.compile.log
    try:
        return gpu.run(build, RunRequest(launch=launch, inputs=inputs, time_limit_s=10.0))
    finally:
        gpu.close(build)


HIST = KernelSpec("count", (ArgSpec("data", ArgRole.IN, "uint8"), ArgSpec("hist", ArgRole.OUT, "uint32", ArgInit.ZEROS),
                            ArgSpec("n", ArgRole.SCALAR, "int32")))


def test_an_init_zeros_out_buffer_starts_zeroed_for_atomics(gpu):
    """Global atomicAdd into an `init: zeros` out buffer counts from 0 (a poisoned one would start at -1)."""
    source = ("__global__ void count(const unsigned char* data, unsigned int* hist, int n) {\n"
              "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
              "    if (i < n) atomicAdd(&hist[data[i]], 1u);\n}\n")
    data = np.random.default_rng(1).integers(0, 256, 5000, dtype=np.uint8)
    out = run(gpu, source, HIST, LaunchConfig((20, 1, 1), (256, 1, 1)),
              {"data": data, "hist": np.empty(256, np.uint32), "n": 5000})
    assert out.status is RunStatus.OK, out.message
    assert np.array_equal(out.outputs["hist"], np.bincount(data, minlength=256).astype(np.uint32))


COPY = KernelSpec("k", (ArgSpec("x", ArgRole.IN, "float32"), ArgSpec("y", ArgRole.OUT, "float32"),
                        ArgSpec("n", ArgRole.SCALAR, "int32")))
BIG_SHARED = """
// 64 KiB of dynamic shared memory: 16384 floats, 64 per thread of a 256-thread block.
__global__ void k(const float* x, float* y, int n) {
    extern __shared__ float s[];
    int t = threadIdx.x;
    for (int j = 0; j < 64; ++j) s[j * 256 + t] = x[t] + j;
    __syncthreads();
    float sum = 0.0f;
    for (int j = 0; j < 64; ++j) sum += s[j * 256 + (255 - t)];
    y[t] = sum;
}
"""


def test_sixty_four_kib_of_dynamic_shared_memory_runs_with_the_opt_in(gpu):
    """A launch with 64 KiB of dynamic shared memory, opted in to 64 KiB, runs and reads what it wrote."""
    x = np.arange(256, dtype=np.float32)
    out = run(gpu, BIG_SHARED, COPY, LaunchConfig((1, 1, 1), (256, 1, 1), 64 * 1024, max_dynamic_shared_bytes=64 * 1024),
              {"x": x, "y": np.empty(256, np.float32), "n": 256})
    assert out.status is RunStatus.OK, out.message
    assert np.allclose(out.outputs["y"], 64 * x[::-1] + sum(range(64)))


GRID_SYNC = """
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// Each block writes its slot, the whole grid synchronises, then each block reads its neighbour's.
__global__ void k(const float* x, float* y, int n) {
    cg::grid_group grid = cg::this_grid();
    int b = blockIdx.x;
    if (threadIdx.x == 0) y[b] = x[b] * 2.0f;
    grid.sync();
    if (threadIdx.x == 0) y[n + b] = y[(b + 1) % n];
}
"""


def test_a_cooperative_launch_synchronises_the_grid(gpu):
    """grid.sync() in a cooperative launch of 132 blocks: every block sees its neighbour's write."""
    n = 132
    x = np.arange(n, dtype=np.float32)
    out = run(gpu, GRID_SYNC, COPY, LaunchConfig((n, 1, 1), (128, 1, 1), cooperative=True),
              {"x": x, "y": np.empty(2 * n, np.float32), "n": n})
    assert out.status is RunStatus.OK, out.message
    assert np.array_equal(out.outputs["y"][n:], np.roll(2 * x, -1))


def test_a_cooperative_grid_too_large_for_the_gpu_is_refused_with_cudas_error(gpu):
    """2048 blocks of 1024 threads cannot be co-resident on an H200 (264 fit): the driver refuses the
    cooperative launch with CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE and the next run is healthy."""
    n = 2048
    out = run(gpu, GRID_SYNC, COPY, LaunchConfig((n, 1, 1), (1024, 1, 1), cooperative=True),
              {"x": np.zeros(n, np.float32), "y": np.empty(2 * n, np.float32), "n": n})
    assert out.status is RunStatus.LAUNCH_ERROR
    assert "COOPERATIVE_LAUNCH_TOO_LARGE" in out.message or "too many blocks in cooperative launch" in out.message
    again = run(gpu, GRID_SYNC, COPY, LaunchConfig((4, 1, 1), (32, 1, 1), cooperative=True),
                {"x": np.arange(4, dtype=np.float32), "y": np.empty(8, np.float32), "n": 4})
    assert again.status is RunStatus.OK, again.message


def test_grid_sync_in_an_ordinary_launch_is_a_runtime_error_as_on_the_emulator(gpu):
    """grid.sync() reached in an ordinary launch: CUDA_ERROR_LAUNCH_FAILED at the call's line, decided when
    a thread reaches it (gridsync.instrument's check traps), also in a warm child that has just launched the
    same cubin cooperatively (where cooperative_groups' own check let the call through), and again after
    another cooperative launch."""
    from grader.core import messages as M

    n = 16
    inputs = {"x": np.arange(n, dtype=np.float32), "y": np.empty(2 * n, np.float32), "n": n}
    for cooperative in (False, True, False, True, False):
        out = run(gpu, GRID_SYNC, COPY, LaunchConfig((n, 1, 1), (128, 1, 1), cooperative=cooperative), dict(inputs))
        if cooperative:
            assert out.status is RunStatus.OK, out.message
            continue
        assert out.status is RunStatus.FAULT, out.message
        (diag,) = out.diagnostics
        assert diag.line == 9 and diag.detail["error"] == "CUDA_ERROR_LAUNCH_FAILED"
        assert diag.message.template == M.RUNTIME_GRID_SYNC_NOT_COOPERATIVE


def test_a_grid_sync_no_thread_reaches_is_not_refused(gpu):
    """The check is at run time: an ordinary launch whose threads never reach grid.sync() runs and is right."""
    source = GRID_SYNC.replace("    grid.sync();", "    if (n < 0) grid.sync();")
    n = 16
    x = np.arange(n, dtype=np.float32)
    out = run(gpu, source, COPY, LaunchConfig((n, 1, 1), (128, 1, 1)), {"x": x, "y": np.empty(2 * n, np.float32), "n": n})
    assert out.status is RunStatus.OK, out.message
    assert np.array_equal(out.outputs["y"][:n], 2 * x)
