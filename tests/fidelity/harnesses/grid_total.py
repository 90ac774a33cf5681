"""partial[b] = block b's share of a grid-stride sum (grid g, 256 threads); total[0] = sum of x.
x: float32[n]; partial: float32[g] (g = case["g"]); total: float32[1]."""
import numpy as np


def generate(case, rng):
    n, g = int(case["n"]), int(case["g"])
    return {"x": rng.uniform(-1, 1, n).astype(np.float32), "partial": np.zeros(g, np.float32),
            "total": np.zeros(1, np.float32), "n": n}


def reference(inputs):
    x = inputs["x"].astype(np.float64)
    g = len(inputs["partial"])
    stride = g * 256
    idx = np.arange(len(x))
    partial = np.bincount((idx % stride) // 256, weights=x, minlength=g)
    return {"partial": partial.astype(np.float32), "total": np.array([x.sum()], np.float32)}
