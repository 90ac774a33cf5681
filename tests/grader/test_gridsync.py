"""grid.sync() found in the source (grader/core/gridsync.py), the GPU build's check at every call, and the
GPU backend's RUNTIME_ERROR when a thread reaches one in an ordinary launch, as the emulator and the
H200 (a trap) give. The check itself runs on the GPU: tests/gpu/test_launch_options_gpu.py."""
from __future__ import annotations

import numpy as np

from grader.core import messages as M
from grader.core.backends.base import ArgRole, ArgSpec, Build, KernelSpec, LaunchConfig, RunRequest, RunStatus
from grader.core.backends.gpu import GpuBackend, GpuHandle
from grader.core.gpu.nvcc import translation_unit
from grader.core.gridsync import GPU_PRELUDE, grid_sync_line, instrument
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


def test_the_gpu_build_checks_every_grid_sync_call_where_it_stands():
    """Each call is wrapped in the prelude's check with its own line; lines are kept; a block's sync
    and a file without grid.sync() are left alone (no prelude either)."""
    source = """#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(float* y) {
  cg::grid_group grid = cg::this_grid();   // grid.sync() in a comment
  y[0] = 1; grid.sync();
  if (y[0]) cg::sync(grid); else cooperative_groups::this_grid().sync();
  cg::this_thread_block().sync();
}"""
    out = instrument(source)
    assert out.count("\n") == source.count("\n")
    lines = out.splitlines()
    assert lines[3] == source.splitlines()[3]
    assert lines[4] == "  y[0] = 1; (__warpdrill_grid_sync_check(5), grid.sync());"
    assert lines[5] == ("  if (y[0]) (__warpdrill_grid_sync_check(6), cg::sync(grid)); "
                        "else (__warpdrill_grid_sync_check(6), cooperative_groups::this_grid().sync());")
    assert lines[6] == "  cg::this_thread_block().sync();"
    assert instrument("__global__ void k(float* y) { y[0] = 1; }") is None
    spec = KernelSpec("k", (ArgSpec("y", ArgRole.OUT, "float32"),))
    tu = translation_unit(source, spec)
    assert GPU_PRELUDE in tu and tu.index(GPU_PRELUDE) < tu.index('#line 1 "kernel.cu"')
    assert GPU_PRELUDE not in translation_unit("__global__ void k(float* y) { y[0] = 1; }", spec)


def test_a_grid_reached_through_a_member_is_checked_from_the_start_of_its_chain():
    """`ctx.grid.sync()` and `p->grid.sync()` (a grid_group kept in a struct, as cooperative kernels
    that pass a context around do) are wrapped whole; a chain through an index is left alone."""
    source = """#include <cooperative_groups.h>
namespace cg = cooperative_groups;
struct Ctx { cg::grid_group grid; float* data; };
extern "C" __global__ void k(Ctx ctx, Ctx* p, Ctx* many) {
  ctx.data[0] = 1; ctx.grid.sync();
  p -> grid.sync();
  many[1].grid.sync();
}"""
    lines = instrument(source).splitlines()
    assert lines[4] == "  ctx.data[0] = 1; (__warpdrill_grid_sync_check(5), ctx.grid.sync());"
    assert lines[5] == "  (__warpdrill_grid_sync_check(6), p -> grid.sync());"
    assert lines[6] == "  many[1].grid.sync();"


def test_a_trapped_grid_sync_check_is_the_emulators_runtime_error():
    """The child's reply names the line its mapped word got: the outcome is CUDA_ERROR_LAUNCH_FAILED at
    that line, RUNTIME_ERROR, with the emulator's message; a fault without it stays a CUDA error."""
    backend = GpuBackend.__new__(GpuBackend)
    spec = KernelSpec("k", (ArgSpec("y", ArgRole.OUT, "float32"),))
    handle = GpuHandle(source="", spec=spec, cubin=np.zeros(1, np.uint8), entry="k")
    request = RunRequest(LaunchConfig((16, 1, 1), (128, 1, 1)), {"y": np.zeros(4, np.float32)})
    reply = {"status": "fault", "error": "CUDA_ERROR_LAUNCH_FAILED", "message": "unspecified launch failure",
             "sticky": True, "grid_sync_line": 7}
    out = backend._outcome(reply, {}, handle, request)
    assert out.status is RunStatus.FAULT
    (diag,) = out.diagnostics
    assert diag.line == 7 and diag.message.template == M.RUNTIME_GRID_SYNC_NOT_COOPERATIVE
    assert DIAGNOSTIC_VERDICT[diag.kind] is Verdict.RUNTIME_ERROR
    del reply["grid_sync_line"]
    other = backend._outcome(reply, {}, handle, request)
    assert other.diagnostics[0].message.template == M.CUDA_ERROR
