"""bitonic-sort-block: each segment x[256b .. 256b + 256) (shorter at the end) sorted ascending into y."""
import numpy as np


def generate(case, rng):
    n = int(case["n"])
    x = rng.integers(-1000, 1000, n).astype(np.int32)  # many duplicates
    return {"x": x, "y": np.empty(n, np.int32), "n": n}


def reference(inputs):
    x = inputs["x"]
    y = np.empty_like(x)
    for base in range(0, x.size, 256):
        y[base:base + 256] = np.sort(x[base:base + 256])
    return {"y": y}
