"""count[0] = number of i < n with x[i] > 0. x: float32[n]; count: int32[1], given as zeros."""
import numpy as np


def generate(case, rng):
    n = int(case["n"])
    return {"x": rng.uniform(-1, 1, n).astype(np.float32), "count": np.zeros(1, np.int32), "n": n}


def reference(inputs):
    return {"count": np.array([(inputs["x"] > 0).sum()], np.int32)}
