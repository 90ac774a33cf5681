"""indexing.resize_map, reduction.softmax, indexing.channel_index: checked with NumPy (float32 exp, np.round,
np.unravel_index) and the general Keys kernel written from a, apart from the families' code."""
import math
import re
from fractions import Fraction

import numpy as np
import pytest

from .familycheck import assert_family_basics, assert_not_guessable, questions


def keys(x, a=-0.5):
    x = abs(x)
    if x <= 1:
        return (a + 2) * x ** 3 - (a + 3) * x ** 2 + 1
    return a * x ** 3 - 5 * a * x ** 2 + 8 * a * x - 4 * a if x < 2 else 0.0


@pytest.mark.parametrize("fid", ["indexing.resize_map", "reduction.softmax", "indexing.channel_index"])
def test_basics(fid):
    assert_family_basics(fid)


def test_resize_against_pixel_centres_and_numpy():
    for q in questions("indexing.resize_map", 1):
        w, W, x = q.params["w"], q.params["W"], q.params["x"]
        src = (x + 0.5) * w / W - 0.5
        assert q.answer["x"] == pytest.approx(src)
        assert q.answer["left"] == math.floor(src) - 1
    for q in questions("indexing.resize_map", 2):
        w, W, x = q.params["w"], q.params["W"], q.params["x"]
        xs = np.array([Fraction(w * (2 * xo + 1), 2 * W) - Fraction(1, 2) for xo in range(W)], dtype=float)
        matlab = np.clip(np.floor(xs + 0.5), 0, w - 1).astype(int)  # MATLAB: .5 rounds up
        assert q.answer["index"] == matlab[x]
        assert q.answer["differ"] == int((np.round(xs).astype(int) != matlab).sum())
    for q in questions("indexing.resize_map", 3):
        w, W, x = q.params["w"], q.params["W"], q.params["x"]
        src = (x + 0.5) * w / W - 0.5
        base = math.floor(src)
        weights = [keys(src - j) for j in range(base - 1, base + 3)]
        assert sum(weights) == pytest.approx(1.0)
        assert q.answer["w_left"] == pytest.approx(weights[0]) and q.answer["w_near"] == pytest.approx(weights[1])
    assert_not_guessable([q.answer["index"] for q in questions("indexing.resize_map", 2)], 4)


def test_softmax_in_float32():
    for q in questions("reduction.softmax", 1):
        z = np.array(q.params["z"], dtype=np.float32)
        with np.errstate(all="ignore"):
            e = np.exp(z - z.max())  # seeds/002: the global max
            y = e / e.sum(axis=1, keepdims=True)
            stable = np.exp(z - z.max(axis=1, keepdims=True))
            assert not np.isnan(stable / stable.sum(axis=1, keepdims=True)).any()
        assert q.answer == {"zeros": int((e == 0).sum()), "nan_rows": int(np.isnan(y).any(axis=1).sum())}
    assert_not_guessable([q.answer["nan_rows"] for q in questions("reduction.softmax", 1)], 4, limit=0.5)
    assert_not_guessable([q.answer["zeros"] for q in questions("reduction.softmax", 1)], 4)
    for q in questions("reduction.softmax", 2):
        z = np.array(q.params["z"], dtype=np.float64)
        lse = np.logaddexp.reduce(z)
        assert q.answer["lse"] == pytest.approx(lse, rel=1e-9, abs=1e-9)
        assert q.answer["value"] == pytest.approx(z[q.params["j"]] - lse, rel=1e-9, abs=1e-9)
    for q in questions("reduction.softmax", 3):
        z, tg = np.array(q.params["z"], dtype=np.float64), np.array(q.params["target"])
        keep = tg != -100
        logp = z - np.logaddexp.reduce(z, axis=1, keepdims=True)
        losses = -logp[keep, tg[keep]]
        assert q.answer["valid"] == keep.sum() and q.answer["loss"] == pytest.approx(losses.mean())


def test_channel_index_by_unravel():
    for d, order in ((1, "nchw"), (2, "nhwc")):
        qs = questions("indexing.channel_index", d)
        for q in qs:
            N, C, H, W = q.params["shape"]
            dims = (N, C, H, W) if order == "nchw" else (N, H, W, C)
            idx = dict(zip("nchw" if order == "nchw" else "nhwc", np.unravel_index(q.params["i"], dims)))
            assert q.answer == {"n": idx["n"], "c": idx["c"], "hw": idx["h"] * W + idx["w"]}
        assert_not_guessable([q.answer["c"] for q in qs], 4)
    for q in questions("indexing.channel_index", 3, range(60)):
        N, C, H, W = q.params["shape"]
        T = q.params["block"]
        i = np.arange(N * C * H * W, dtype=np.int64)
        ch = (i // (H * W)) % C
        blocks_in_c0 = np.unique(i[ch == 0] // T)
        assert all(((b * T + np.arange(T)) // (H * W) % C == 0).all() for b in blocks_in_c0[:5])
        assert q.answer == {"naive": int((ch == 0).sum()), "blocked": len(blocks_in_c0)}
