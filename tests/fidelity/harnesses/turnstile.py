"""In each 256-block, the first 128 elements are reversed among themselves; the rest are copied. float32[n], n % 256 == 0."""
import numpy as np


def generate(case, rng):
    n = int(case["n"])
    return {"x": rng.uniform(-1, 1, n).astype(np.float32), "y": np.empty(n, np.float32), "n": n}


def reference(inputs):
    b = inputs["x"].reshape(-1, 256).copy()
    b[:, :128] = b[:, :128][:, ::-1]
    return {"y": b.reshape(-1)}
