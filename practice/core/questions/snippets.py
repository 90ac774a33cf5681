"""Barrier snippets for the synchronization questions, built for a block size and a few numbers.

Each builder returns the statements of a kernel body (see syncsim); the outcome is never stored
here — `syncsim.simulate` computes it. `INTENDED` only says which outcome a builder is meant to show,
so the generator can draw the four outcomes evenly and the tests can check the builders.
"""
from __future__ import annotations

from typing import Callable

from .syncsim import For, If, Line, Return, Slot, SpinUntil, Stmt, SyncThreads, SyncWarp, set_flag

HEADER = [
    "__global__ void kernel(const float* in, float* out, int n) {",
    "    __shared__ float s[{block}];",
    "    int t = threadIdx.x;",
    "    int gid = blockIdx.x * blockDim.x + t;",
]


def _halvings(start: int, stop: int = 0) -> Callable:
    """k = start, start/2, ... while k > stop."""
    def values(ctx):
        out, k = [], start
        while k > stop:
            out.append(k)
            k //= 2
        return out
    return values


# Every global access is guarded by `gid < n`: the prompts give n = 500 or 5000, which leaves the
# last block partly outside the arrays (issue 15: the snippets must be correct kernels).
def load() -> Line:
    return Line("s[t] = (gid < n) ? in[gid] : 0.0f;", writes=lambda c: [("s", c.tid)])


def store_neighbour(d: int = 1) -> Line:
    return Line(f"if (gid < n) out[gid] = s[(t + {d}) % blockDim.x];",
                reads=lambda c: [("s", (c.tid + d) % c.block)], writes=lambda c: [("out", c.tid)])


def reduce_step() -> If:
    return If("t < k", lambda c: c.tid < c.env["k"],
              [Line("s[t] += s[t + k];", reads=lambda c: [("s", c.tid), ("s", c.tid + c.env["k"])],
                    writes=lambda c: [("s", c.tid)])], one_line=True)


def write_result() -> If:
    return If("t == 0", lambda c: c.tid == 0,
              [Line("out[blockIdx.x] = s[0];", reads=lambda c: [("s", 0)], writes=lambda c: [("out", 0)])],
              one_line=True)


# ---- classify: (builder, intended outcome) ------------------------------------------------------


def neighbour(block: int, d: int = 1, barrier: bool = True) -> list[Stmt]:
    return [load()] + ([SyncThreads()] if barrier else []) + [store_neighbour(d)]


def barrier_too_early(block: int, d: int = 1) -> list[Stmt]:
    return [SyncThreads(), load(), store_neighbour(d)]


def tree_reduce(block: int, barrier_in_loop: bool = True) -> list[Stmt]:
    body: list[Stmt] = [reduce_step()] + ([SyncThreads()] if barrier_in_loop else [])
    return [load(), SyncThreads(),
            For("for (int k = blockDim.x / 2; k > 0; k >>= 1)", "k", _halvings(block // 2), body),
            write_result()]


def early_exit(block: int, k: int) -> list[Stmt]:
    return [If(f"t >= {k}", lambda c: c.tid >= k, [Return()], one_line=True),
            load(), SyncThreads(),
            Line(f"if (gid < n) out[gid] = s[{k - 1} - t];", reads=lambda c: [("s", k - 1 - c.tid)],
                 writes=lambda c: [("out", c.tid)])]


def barrier_in_if_others_exit(block: int, k: int) -> list[Stmt]:
    return [load(),
            If(f"t < {k}", lambda c: c.tid < k, [
                SyncThreads(),
                Line(f"if (gid < n) out[gid] = s[{k - 1} - t];", reads=lambda c: [("s", k - 1 - c.tid)],
                     writes=lambda c: [("out", c.tid)]),
            ])]


def uniform_if(block: int, limit: int, d: int) -> list[Stmt]:
    return [If(f"n > {limit}", lambda c: c.env["n"] > limit, [load(), SyncThreads(), store_neighbour(d)])]


def histogram(block: int, bins: int, first_barrier: bool = True) -> list[Stmt]:
    return ([If(f"t < {bins}", lambda c: c.tid < bins,
                [Line("hist[t] = 0;", writes=lambda c: [("hist", c.tid)])], one_line=True)]
            + ([SyncThreads()] if first_barrier else [])
            + [Line(f"if (gid < n) atomicAdd(&hist[(int)in[gid] % {bins}], 1);",
                    atomics=lambda c: [("hist", (c.tid * 7) % bins)]),
               SyncThreads(),
               If(f"t < {bins}", lambda c: c.tid < bins,
                  [Line(f"atomicAdd(&out[t], hist[t]);", reads=lambda c: [("hist", c.tid)],
                        atomics=lambda c: [("out", c.tid)])], one_line=True)])


def warp_tail(block: int, with_syncwarp: bool) -> list[Stmt]:
    head: list[Stmt] = [load(), SyncThreads(),
                        For("for (int k = blockDim.x / 2; k > 32; k >>= 1)", "k", _halvings(block // 2, 32),
                            [reduce_step(), SyncThreads()])]
    if not with_syncwarp:
        steps = [Line(f"s[t] += s[t + {k}];", reads=lambda c, k=k: [("s", c.tid), ("s", c.tid + k)],
                      writes=lambda c: [("s", c.tid)]) for k in (32, 16, 8, 4, 2, 1)]
        tail: list[Stmt] = [If("t < 32", lambda c: c.tid < 32, steps)]
    else:
        tail = [If("t < 32", lambda c: c.tid < 32, [
            Line("float v = s[t] + s[t + 32];", reads=lambda c: [("s", c.tid), ("s", c.tid + 32)]),
            Line("s[t] = v;", writes=lambda c: [("s", c.tid)]),
            For("for (int k = 16; k > 0; k >>= 1)", "k", _halvings(16), [
                SyncWarp(),
                Line("v += s[t + k];", reads=lambda c: [("s", c.tid + c.env["k"])]),
                SyncWarp(),
                Line("s[t] = v;", writes=lambda c: [("s", c.tid)]),
            ]),
        ])]
    return head + tail + [write_result()]


def shift(block: int) -> list[Stmt]:
    return [load(), SyncThreads(),
            If("t > 0", lambda c: c.tid > 0,
               [Line("s[t] = s[t - 1];", reads=lambda c: [("s", c.tid - 1)], writes=lambda c: [("s", c.tid)])],
               one_line=True),
            SyncThreads(),
            Line("if (gid < n) out[gid] = s[t];", reads=lambda c: [("s", c.tid)], writes=lambda c: [("out", c.tid)])]


def both_branches(block: int, k: int) -> list[Stmt]:
    return [If(f"t < {k}", lambda c: c.tid < k,
               [Line("s[t] = (gid < n) ? 2.0f * in[gid] : 0.0f;", writes=lambda c: [("s", c.tid)]), SyncThreads()],
               [Line("s[t] = (gid < n) ? in[gid] : 0.0f;", writes=lambda c: [("s", c.tid)]), SyncThreads()]),
            Line(f"if (gid < n) out[gid] = s[{block - 1} - t];", reads=lambda c: [("s", block - 1 - c.tid)],
                 writes=lambda c: [("out", c.tid)])]


def branch_then_common(block: int, m: int) -> list[Stmt]:
    return [load(),
            If(f"t % {m} == 0", lambda c: c.tid % m == 0, [
                SyncThreads(),
                Line("s[t] += s[t + 1];", reads=lambda c: [("s", c.tid), ("s", c.tid + 1)], writes=lambda c: [("s", c.tid)]),
            ]),
            SyncThreads(),
            Line("if (gid < n) out[gid] = s[t];", reads=lambda c: [("s", c.tid)], writes=lambda c: [("out", c.tid)])]


def loop_tripcount(block: int, m: int) -> list[Stmt]:
    return [load(),
            For(f"for (int i = 0; i <= t % {m}; ++i)", "i", lambda c: list(range(c.tid % m + 1)), [
                Line("s[t] *= 0.5f;", reads=lambda c: [("s", c.tid)], writes=lambda c: [("s", c.tid)]),
                SyncThreads(),
            ]),
            SyncThreads(),
            store_neighbour(1)]


def spin_after_barrier(block: int, setter: int) -> list[Stmt]:
    return [If("t < 32", lambda c: c.tid < 32, [SpinUntil("*ready")]),
            SyncThreads(),
            If(f"t == {setter}", lambda c: c.tid == setter, [Line("*ready = 1;", action=set_flag("*ready"))],
               one_line=True),
            Line("if (gid < n) out[gid] = in[gid];", writes=lambda c: [("out", c.tid)])]


def producer_waits_at_barrier(block: int) -> list[Stmt]:
    return [If("t == 0", lambda c: c.tid == 0,
               [load(), SyncThreads(), Line("*ready = 1;", action=set_flag("*ready"))],
               [SpinUntil("*ready"), Line("if (gid < n) out[gid] = s[0];", reads=lambda c: [("s", 0)],
                                          writes=lambda c: [("out", c.tid)])])]


# name -> (builder(block, **args), intended outcome, draw args(rng, block) -> dict, extra declarations)
CLASSIFY: dict[str, tuple[Callable, str, Callable, list[str]]] = {
    "neighbour": (neighbour, "correct", lambda r, b: {"d": r.choice([1, 2, 3])}, []),
    "tree_reduce": (tree_reduce, "correct", lambda r, b: {}, []),
    "early_exit": (early_exit, "correct", lambda r, b: {"k": r.choice([32, 64, b // 2])}, []),
    "uniform_if": (uniform_if, "correct", lambda r, b: {"limit": r.choice([1000, 4096]), "d": r.choice([1, 2])}, []),
    "histogram": (histogram, "correct", lambda r, b: {"bins": r.choice([16, 32])}, ["__shared__ int hist[32];"]),
    "warp_tail_syncwarp": (warp_tail, "correct", lambda r, b: {"with_syncwarp": True}, []),
    "neighbour_no_barrier": (neighbour, "race", lambda r, b: {"d": r.choice([1, 2]), "barrier": False}, []),
    "barrier_too_early": (barrier_too_early, "race", lambda r, b: {"d": r.choice([1, 2])}, []),
    "tree_reduce_no_loop_barrier": (tree_reduce, "race", lambda r, b: {"barrier_in_loop": False}, []),
    "histogram_no_init_barrier": (histogram, "race", lambda r, b: {"bins": r.choice([16, 32]), "first_barrier": False},
                                  ["__shared__ int hist[32];"]),
    "warp_tail_lockstep": (warp_tail, "race", lambda r, b: {"with_syncwarp": False}, []),
    "shift": (shift, "race", lambda r, b: {}, []),
    "both_branches": (both_branches, "divergent", lambda r, b: {"k": r.choice([32, 64, b // 2])}, []),
    "branch_then_common": (branch_then_common, "divergent", lambda r, b: {"m": r.choice([2, 4])}, []),
    "loop_tripcount": (loop_tripcount, "divergent", lambda r, b: {"m": r.choice([2, 3, 4])}, []),
    "spin_after_barrier": (spin_after_barrier, "deadlock", lambda r, b: {"setter": r.choice([32, 64, b - 1])}, []),
    "producer_waits_at_barrier": (producer_waits_at_barrier, "deadlock", lambda r, b: {}, []),
}
# Shapes the family never shows as multiple choice: the Programming Guide and the hardware
# disagree on them (docs/synchronization.md, rows 3-4). `if (t < k) { __syncthreads(); ... }` with
# the other threads exiting is undefined by the Guide's rule and completes on sm_70+; the barrier
# rule accepts it with a note, so neither "correct" nor "divergent" is a key a student can trust.
EXCLUDED_FROM_CHOICE = {"barrier_in_if_others_exit": barrier_in_if_others_exit}
# Which snippets each difficulty draws from, per outcome: each level changes the structure.
# 1: one phase, straight-line code; 2: loops and shared atomics; 3: warp-level code and loops
# whose trip counts differ per thread.
CLASSIFY_LEVELS: dict[int, dict[str, list[str]]] = {
    1: {"correct": ["neighbour", "early_exit", "uniform_if"], "race": ["neighbour_no_barrier", "barrier_too_early"],
        "divergent": ["both_branches"], "deadlock": ["producer_waits_at_barrier"]},
    2: {"correct": ["tree_reduce", "histogram"], "race": ["tree_reduce_no_loop_barrier", "histogram_no_init_barrier", "shift"],
        "divergent": ["branch_then_common"], "deadlock": ["spin_after_barrier"]},
    3: {"correct": ["warp_tail_syncwarp"], "race": ["warp_tail_lockstep"], "divergent": ["loop_tripcount"],
        "deadlock": ["spin_after_barrier"]},
}
# Kernels whose snippets use the `ready` flag take it as an extra parameter.
FLAG_SIGNATURE = "__global__ void kernel(const float* in, float* out, int n, volatile int* ready) {"


# ---- place the barrier: snippets with slots ----------------------------------------------------


def slots_neighbour(block: int, d: int = 1) -> list[Stmt]:
    return [Slot(label="A"), load(), Slot(label="B"),
            Line(f"float v = s[(t + {d}) % blockDim.x];", reads=lambda c: [("s", (c.tid + d) % c.block)]),
            Slot(label="C"), Line("if (gid < n) out[gid] = v;", writes=lambda c: [("out", c.tid)])]


def slots_reduce(block: int) -> list[Stmt]:
    return [load(), SyncThreads(), Slot(label="A"),
            For("for (int k = blockDim.x / 2; k > 0; k >>= 1)", "k", _halvings(block // 2),
                [reduce_step(), Slot(label="B")]),
            Slot(label="C"), write_result()]


def slots_shift(block: int) -> list[Stmt]:
    return [load(), SyncThreads(),
            Line("float left = (t > 0) ? s[t - 1] : 0.0f;", reads=lambda c: [("s", c.tid - 1)] if c.tid > 0 else []),
            Slot(label="A"),
            Line("s[t] = left;", writes=lambda c: [("s", c.tid)]),
            Slot(label="B"),
            store_neighbour(1)]


def slots_histogram(block: int, bins: int) -> list[Stmt]:
    return [If(f"t < {bins}", lambda c: c.tid < bins, [Line("hist[t] = 0;", writes=lambda c: [("hist", c.tid)])],
               one_line=True),
            Slot(label="A"),
            Line(f"if (gid < n) atomicAdd(&hist[(int)in[gid] % {bins}], 1);",
                 atomics=lambda c: [("hist", (c.tid * 7) % bins)]),
            Slot(label="B"),
            If(f"t < {bins}", lambda c: c.tid < bins,
               [Line("out[blockIdx.x * %d + t] = hist[t];" % bins, reads=lambda c: [("hist", c.tid)],
                     writes=lambda c: [("out", c.tid)])], one_line=True)]


PLACE: dict[str, tuple[Callable, Callable, list[str]]] = {
    "neighbour": (slots_neighbour, lambda r, b: {"d": r.choice([1, 2, 3])}, []),
    "reduce": (slots_reduce, lambda r, b: {}, []),
    "shift": (slots_shift, lambda r, b: {}, []),
    "histogram": (slots_histogram, lambda r, b: {"bins": r.choice([16, 32])}, ["__shared__ int hist[32];"]),
}


def header(block: int, extra: list[str], flag: bool = False) -> list[str]:
    lines = [FLAG_SIGNATURE if flag else HEADER[0], HEADER[1].format(block=block)] + ["    " + x for x in extra]
    return lines + HEADER[2:]
