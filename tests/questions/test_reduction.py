"""Reduction and scan families, checked by running the loops of the prompt on arrays here: every thread's
condition per step (and the sum it produces), every addition of the scans (and the scan it produces)."""
import itertools

import numpy as np

from .familycheck import assert_family_basics, questions


def test_basics():
    assert_family_basics("reduction.tree_steps")
    assert_family_basics("reduction.scan_work")


def run_tree(block, scheme):
    """Per step: (adding threads, warps with an adding lane, divergent warps); also checks the sum."""
    data = np.arange(block, dtype=np.int64)
    out = []
    strides = ([1 << k for k in range(block.bit_length() - 1)] if scheme == "interleaved"
               else [block >> k for k in range(1, block.bit_length())])
    for s in strides:
        t = np.arange(block)
        adding = (t % (2 * s) == 0) if scheme == "interleaved" else (t < s)
        idx = t[adding]
        data[idx] += data[idx + s]
        per_warp = adding.reshape(-1, 32).sum(axis=1)
        out.append((int(adding.sum()), int((per_warp > 0).sum()), int(((per_warp > 0) & (per_warp < 32)).sum())))
    assert data[0] == block * (block - 1) // 2
    return out


def test_tree_steps_by_running_the_loop():
    for d, scheme in ((1, "sequential"), (2, "interleaved")):
        for q in questions("reduction.tree_steps", d, range(120)):
            trace = run_tree(q.params["block"], scheme)
            threads, warps, div = trace[q.params["step"] - 1]
            assert q.answer == {"steps": len(trace), "threads": threads, "warps": warps, "divergent": div}
    for q in questions("reduction.tree_steps", 3, range(40)):
        b = q.params["block"]
        assert q.answer == {"interleaved": sum(x[2] for x in run_tree(b, "interleaved")),
                            "sequential": sum(x[2] for x in run_tree(b, "sequential"))}


def kogge_stone(n):
    x, steps, adds, stride = list(range(1, n + 1)), 0, 0, 1
    while stride < n:
        v = [x[i - stride] if i >= stride else 0 for i in range(n)]  # every thread reads, then all write
        for i in range(stride, n):
            x[i] += v[i]
            adds += 1
        steps, stride = steps + 1, stride * 2
    assert x == list(itertools.accumulate(range(1, n + 1)))
    return steps, adds


def brent_kung(n):
    x, steps, adds = list(range(1, n + 1)), 0, 0
    stride = 1
    while stride < n:
        for tid in range(n):
            i = (tid + 1) * 2 * stride - 1
            if i < n:
                x[i] += x[i - stride]
                adds += 1
        steps, stride = steps + 1, stride * 2
    stride = n // 4
    while stride > 0:
        for tid in range(n):
            i = (tid + 1) * 2 * stride - 1
            if i + stride < n:
                x[i + stride] += x[i]
                adds += 1
        steps, stride = steps + 1, stride // 2
    assert x == list(itertools.accumulate(range(1, n + 1)))
    return steps, adds


def test_scans_by_running_them():
    for d, algo in ((1, kogge_stone), (2, brent_kung), (3, kogge_stone)):
        for q in questions("reduction.scan_work", d, range(60)):
            n = q.params["n"]
            steps, adds = algo(n)
            assert q.answer == {"steps": steps, "adds": adds, "extra": adds - (n - 1)}
