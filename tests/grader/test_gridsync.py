"""grid.sync() found in the source (grader/core/gridsync.py) and the GPU backend's refusal of it in an
ordinary launch: RUNTIME_ERROR, as the emulator and the H200 (a trap) give."""
from __future__ import annotations

import numpy as np

from grader.core import messages as M
from grader.core.backends.base import ArgRole, ArgSpec, Build, KernelSpec, LaunchConfig, RunRequest, RunStatus
from grader.core.backends.gpu import GpuBackend, GpuHandle
from grader.core.gridsync import grid_sync_line
from grader.core.results import CompileResult
from grader.core.verdicts import DIAGNOSTIC_VERDICT, Verdict


def test_grid_sync_calls_are_found_by_line():
    assert grid_sync_line("__global__ void k() {\n  cg::grid_group g = cg::this_grid();\n  g.sync();\n}") == 3
    assert grid_sync_line("__global__ void k() {\n  auto grid = cooperative_groups::this_grid();\n\n"
                          "  cooperative_groups::sync(grid);\n}") == 4
    assert grid_sync_line("__global__ void k() {\n  cg::this_grid().sync();\n}") == 2
    assert grid_sync_line("__device__ void b(cg::grid_group& gg) {\n  gg.sync();\n}") == 2


def test_other_groups_comments_and_rank_queries_are_not_grid_syncs():
    """A block's sync, a tile's, the grid's rank and size, and grid.sync() in a comment or a string."""
    source = """__global__ void k(float* y) {
  cg::grid_group grid = cg::this_grid();   // grid.sync() would need a cooperative launch
  cg::thread_block block = cg::this_thread_block();
  auto tile = cg::tiled_partition<32>(block);
  block.sync(); tile.sync(); cg::sync(block);
  printf("grid.sync()\\n");
  y[grid.thread_rank()] = grid.size();
}"""
    assert grid_sync_line(source) is None


def test_the_gpu_backend_refuses_an_ordinary_launch_of_a_grid_sync_kernel_without_running_it():
    """No child is asked: the outcome is the emulator's CUDA_ERROR_LAUNCH_FAILED at the call's line."""
    backend = GpuBackend.__new__(GpuBackend)  # no pool: run() must answer before it needs one
    spec = KernelSpec("k", (ArgSpec("y", ArgRole.OUT, "float32"),))
    handle = GpuHandle(source="", spec=spec, cubin=np.zeros(1, np.uint8), entry="k", grid_sync_line=7)
    build = Build(compile=CompileResult(ok=True), handle=handle)
    out = backend.run(build, RunRequest(LaunchConfig((16, 1, 1), (128, 1, 1)), {"y": np.zeros(4, np.float32)}))
    assert out.status is RunStatus.FAULT
    (diag,) = out.diagnostics
    assert diag.line == 7 and diag.message.template == M.RUNTIME_GRID_SYNC_NOT_COOPERATIVE
    assert DIAGNOSTIC_VERDICT[diag.kind] is Verdict.RUNTIME_ERROR
