"""grid-sync-normalize: gmax[0] = max(x), y = float32(x) / float32(max(x)); x are positive ints."""
import numpy as np


def generate(case, rng):
    n = int(case["n"])
    x = rng.integers(1, 1_000_000, n).astype(np.int32)
    return {"x": x, "y": np.empty(n, np.float32), "gmax": np.zeros(1, np.int32), "n": n}


def reference(inputs):
    x = inputs["x"]
    m = x.max()
    return {"y": (x.astype(np.float32) / np.float32(m)).astype(np.float32), "gmax": np.array([m], np.int32)}
