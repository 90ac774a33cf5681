"""reverse-segments: each segment x[256b .. 256b + len) (len = 256, or what is left at the end)
reversed into the same places of y."""
import numpy as np


def generate(case, rng):
    n = int(case["n"])
    return {"x": rng.integers(-10**6, 10**6, n).astype(np.int32), "y": np.empty(n, np.int32), "n": n}


def reference(inputs):
    x = inputs["x"]
    y = np.empty_like(x)
    for base in range(0, x.size, 256):
        y[base:base + 256] = x[base:base + 256][::-1]
    return {"y": y}
