"""The write map's model: which thread wrote each element of an output buffer.

The emulator's write-map variant (emulator/writemap.py reads its side file) records, for every
element of every OUT/INOUT buffer, the linear id of the thread that wrote it last and how many
times the writing thread changed (so `hits` is 0 for an element never written, 1 for an element
written by one thread however often, 2+ for an element that two or more threads wrote in turn).
svg.py draws a WriteMap, store.py keeps one with a result. Plain Python (no Django).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

NEVER = -1  # `writer` of an element no thread wrote


@dataclass(frozen=True)
class WriteMap:
    """One output buffer's write record.

    `writer`: int64 array, one per element (flat, C order), the linear thread id that wrote it last
    (`block_linear * threads_per_block + thread_linear`, CUDA's x-fastest order) or NEVER.
    `hits`: uint8 array of the same size, how many times the writing thread changed (0 never
    written, 1 one thread, 2+ a collision; saturates at 255). `shape`: the buffer's shape as the
    test declares it; `grid`/`block`: the launch (three ints each).
    """

    name: str
    shape: tuple[int, ...]
    writer: np.ndarray
    hits: np.ndarray
    grid: tuple[int, int, int]
    block: tuple[int, int, int]

    @property
    def threads_per_block(self) -> int:
        return self.block[0] * self.block[1] * self.block[2]

    @property
    def size(self) -> int:
        return int(self.writer.size)

    def thread_of(self, linear: int) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
        """(blockIdx, threadIdx) of a linear thread id; raises ValueError for NEVER."""
        if linear < 0:
            raise ValueError("element never written")
        b, t = divmod(int(linear), self.threads_per_block)
        bx, by = self.grid[0], self.grid[1]
        tx, ty = self.block[0], self.block[1]
        return ((b % bx, b // bx % by, b // (bx * by)), (t % tx, t // tx % ty, t // (tx * ty)))

    def blocks(self) -> np.ndarray:
        """Linear block id per element (NEVER where no thread wrote)."""
        return np.where(self.writer >= 0, self.writer // max(self.threads_per_block, 1), NEVER)

    def counts(self) -> dict[str, int]:
        """{'never': elements never written, 'collided': written by 2+ threads, 'written': the rest}."""
        never = int(np.count_nonzero(self.hits == 0))
        collided = int(np.count_nonzero(self.hits >= 2))
        return {"never": never, "collided": collided, "written": self.size - never - collided}


def wrong_mask(expected, got, *, rtol: float = 1e-5, atol: float = 1e-6) -> np.ndarray | None:
    """Flat bool array: elements whose obtained value differs from the expected (NaNs never match)."""
    if expected is None or got is None:
        return None
    e, g = np.asarray(expected).ravel(), np.asarray(got).ravel()
    if e.size != g.size:
        return None
    if e.dtype.kind in "fc" or g.dtype.kind in "fc":
        return ~np.isclose(g.astype(np.float64), e.astype(np.float64), rtol=rtol, atol=atol)
    return e != g



def launch_map(grid: tuple[int, int, int], block: tuple[int, int, int], shape: tuple[int, ...],
               origin: tuple[int, ...] = (0, 0), name: str = "out") -> WriteMap:
    """The write map of the textbook mapping over a window of an array: a 1-D shape (n,) by
    i = blockIdx.x * blockDim.x + threadIdx.x, a 2-D shape (rows, cols) by x = blockIdx.x *
    blockDim.x + threadIdx.x (column), y likewise (row); `origin` is the window's first (row, col) or
    (i,). Every element is written once (indexing questions draw it; no kernel runs)."""
    if len(shape) == 1:
        i = np.arange(shape[0], dtype=np.int64) + origin[0]
        b, t_ = i // block[0], i % block[0]
        writer = b * block[0] * block[1] * block[2] + t_
    else:
        rows = np.arange(shape[0], dtype=np.int64)[:, None] + origin[0]
        cols = np.arange(shape[1], dtype=np.int64)[None, :] + origin[1]
        bx, tx = cols // block[0], cols % block[0]
        by, ty = rows // block[1], rows % block[1]
        writer = ((bx + grid[0] * by) * (block[0] * block[1] * block[2]) + tx + block[0] * ty).ravel()
    n = int(np.prod(shape))
    return WriteMap(name, tuple(shape), writer.ravel(), np.ones(n, np.uint8), tuple(grid), tuple(block))
