"""y[i] = 2 * x[i ^ 16] for i < n (n a multiple of 32): each half of a warp gets the other half's values.
x, y: float32[n]."""
import numpy as np


def generate(case, rng):
    n = int(case["n"])
    return {"x": rng.uniform(-1, 1, n).astype(np.float32), "y": np.empty(n, np.float32), "n": n}


def reference(inputs):
    x = inputs["x"]
    return {"y": (2 * x[np.arange(x.size) ^ 16]).astype(np.float32)}
