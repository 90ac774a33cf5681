"""Within each 256-element block, y is the valid part of x reversed (the last block may be short). float32[n]."""
import numpy as np

BLOCK = 256


def generate(case, rng):
    n = int(case["n"])
    return {"x": rng.uniform(-1, 1, n).astype(np.float32), "y": np.empty(n, np.float32), "n": n}


def reference(inputs):
    x = inputs["x"]
    y = np.empty_like(x)
    for start in range(0, len(x), BLOCK):
        y[start:start + BLOCK] = x[start:start + BLOCK][::-1]
    return {"y": y}
