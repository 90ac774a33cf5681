"""y[i] = 2 * x[i] for i < n. x, y: float32[n]."""
import numpy as np


def generate(case, rng):
    n = int(case["n"])
    return {"x": rng.uniform(-1, 1, n).astype(np.float32), "y": np.empty(n, np.float32), "n": n}


def reference(inputs):
    return {"y": (2 * inputs["x"]).astype(np.float32)}
