"""The emulator's write map (src/writemap.cpp, emulator/writemap.py) on real CUDA kernels."""
from __future__ import annotations

import numpy as np
import pytest

from grader.core.backends.base import LaunchConfig, RunRequest, RunStatus
from grader.core.emulator import writemap as wm
from grader.core.writemap.model import NEVER
from grader.core.writemap.svg import render_svg

from ..emulator.conftest import backend, spec  # noqa: F401  (the session's backend fixture)

TRANSPOSE = r'''
#define TILE 16
extern "C" __global__ void transpose(float* out, const float* in, int rows, int cols) {
    int x = blockIdx.x * TILE + threadIdx.x;   // column of `in`
    int y = blockIdx.y * TILE + threadIdx.y;   // row of `in`
    if (x < cols && y < rows) out[x * rows + y] = in[y * cols + x];
}
'''
TRANSPOSE_SPEC = spec("transpose", ("out", "out", "float32"), ("in", "in", "float32"), ("rows", "scalar", "int32"),
                      ("cols", "scalar", "int32"))

# Forgets the ragged tail: the last partial tile of columns is skipped (x + TILE <= cols).
SKIP_TAIL = r'''
#define TILE 16
extern "C" __global__ void copy2d(float* out, const float* in, int rows, int cols) {
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (blockIdx.x * TILE + TILE <= cols && y < rows) out[y * cols + x] = in[y * cols + x];
}
'''
COPY_SPEC = spec("copy2d", ("out", "out", "float32"), ("in", "in", "float32"), ("rows", "scalar", "int32"),
                 ("cols", "scalar", "int32"))

# Uses threadIdx.x for the column but drops blockIdx.x: every block column writes the same tile.
COLLIDE = r'''
#define TILE 16
extern "C" __global__ void copy2d(float* out, const float* in, int rows, int cols) {
    int x = threadIdx.x;                        // bug: blockIdx.x * TILE + threadIdx.x
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < cols && y < rows) out[y * cols + x] = in[y * cols + x] + blockIdx.x;
}
'''


def _writemap(backend, source, kspec, rows, cols, grid, block=(16, 16, 1)):
    build = backend.compile(source, kspec)
    assert build.compile.ok, build.compile.log
    try:
        inputs = {"out": np.zeros((rows, cols) if kspec.name != "transpose" else (cols, rows), np.float32),
                  "in": np.arange(rows * cols, dtype=np.float32).reshape(rows, cols), "rows": rows, "cols": cols}
        outcome = backend.run_writemap(build, RunRequest(LaunchConfig(grid, block, 0), inputs, time_limit_s=10.0,
                                                         test_name="t"))
    finally:
        backend.close(build)
    assert outcome.status is RunStatus.OK, outcome.message
    return outcome.writemaps["out"], inputs


def _writer_of(row: int, col: int, grid, block=(16, 16, 1)) -> int:
    """The linear thread id of the thread at (blockIdx, threadIdx) whose global x, y are (col, row)."""
    bx, tx = divmod(col, block[0])
    by, ty = divmod(row, block[1])
    return (bx + grid[0] * by) * block[0] * block[1] + tx + block[0] * ty


def test_transposed_index_shows_the_permutation(backend):
    rows, cols, grid = 20, 36, (3, 2, 1)
    m, _ = _writemap(backend, TRANSPOSE, TRANSPOSE_SPEC, rows, cols, grid)
    assert m.shape == (cols, rows) and m.grid == grid and m.block == (16, 16, 1)
    writer = m.writer.reshape(cols, rows)
    # out[c, r] was written by the thread with x = c, y = r: the transpose of the launch's layout
    expected = np.array([[_writer_of(r, c, grid) for r in range(rows)] for c in range(cols)])
    assert (writer == expected).all()
    assert (m.hits == 1).all()
    assert m.thread_of(int(writer[35, 19])) == ((2, 1, 0), (3, 3, 0))


def test_skipped_ragged_tail_shows_the_gap(backend):
    rows, cols, grid = 16, 40, (3, 1, 1)  # 40 columns: tiles 0-15, 16-31 and the ragged 32-39
    m, _ = _writemap(backend, SKIP_TAIL, COPY_SPEC, rows, cols, grid)
    writer = m.writer.reshape(rows, cols)
    assert (writer[:, 32:] == NEVER).all() and (m.hits.reshape(rows, cols)[:, 32:] == 0).all()
    assert (writer[:, :32] >= 0).all()
    assert m.counts() == {"never": 16 * 8, "collided": 0, "written": 16 * 32}
    svg = render_svg(m)
    assert svg.count("never written") == 16 * 8 + 2  # every gap cell's title, the legend, the summary


def test_collision_shows_elements_written_twice(backend):
    rows, cols, grid = 16, 48, (3, 1, 1)
    m, _ = _writemap(backend, COLLIDE, COPY_SPEC, rows, cols, grid)
    hits = m.hits.reshape(rows, cols)
    assert (hits[:, :16] == 3).all()  # three block columns wrote the first tile in turn
    assert (hits[:, 16:] == 0).all()
    last = {m.thread_of(int(w))[0] for w in m.writer.reshape(rows, cols)[:, :16].ravel()}
    assert len(last) == 1  # one block was last (which one depends on the worker threads' order)
    svg = render_svg(m)
    assert "3 threads wrote it" in svg


def test_a_spoiled_side_file_is_dropped(tmp_path):
    launch = LaunchConfig((1, 1, 1), (4, 1, 1), 0)
    good = np.array([1, 2, 0, 4], "<u4").tobytes() + bytes([1, 1, 0, 2])
    (tmp_path / "a0.bin.wm").write_bytes(good)
    m = wm.read_side_file(tmp_path / "a0.bin.wm", "out", (4,), launch)
    assert m.writer.tolist() == [0, 1, NEVER, 3] and m.hits.tolist() == [1, 1, 0, 2]
    for bad in (good + b"\0",  # grown
                np.array([1, 2, 0, 5], "<u4").tobytes() + bytes([1, 1, 0, 2]),  # thread 4 of a 4-thread launch
                np.array([1, 2, 0, 4], "<u4").tobytes() + bytes([1, 1, 1, 2])):  # counted but no writer
        (tmp_path / "a0.bin.wm").write_bytes(bad)
        with pytest.raises(wm.WriteMapFileError):
            wm.read_side_file(tmp_path / "a0.bin.wm", "out", (4,), launch)
    maps, dropped = wm.read_all(tmp_path, {"out": ("a0.bin", (4,), np.float32)}, launch)
    assert maps == {} and len(dropped) == 1


OVERRUN = r'''
#define TILE 16
extern "C" __global__ void copy2d(float* out, const float* in, int rows, int cols) {
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (y < rows) out[y * cols + x] = in[y * cols + x];   // no x < cols guard: the last tile runs past
}
'''


def test_a_fault_keeps_the_map_up_to_the_fault(backend):
    """MEMORY_ERROR: the run faults past the buffer's end, and the elements stored before are in the map."""
    rows, cols = 16, 40
    build = backend.compile(OVERRUN, COPY_SPEC)
    assert build.compile.ok, build.compile.log
    try:
        inputs = {"out": np.zeros((rows, cols), np.float32), "in": np.zeros(rows * cols + 4096, np.float32),
                  "rows": rows, "cols": cols}
        outcome = backend.run_writemap(build, RunRequest(LaunchConfig((3, 1, 1), (16, 16, 1), 0), inputs,
                                                         time_limit_s=10.0, test_name="t"))
    finally:
        backend.close(build)
    assert outcome.status is RunStatus.FAULT
    m = outcome.writemaps["out"]
    assert m.counts()["written"] > 0
