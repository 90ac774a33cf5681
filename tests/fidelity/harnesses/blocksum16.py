"""y[b] = sum of x[16b : 16b + 16] (16-thread blocks). x: float32[n], n % 16 == 0; y: float32[n / 16]."""
import numpy as np


def generate(case, rng):
    n = int(case["n"])
    return {"x": rng.uniform(-1, 1, n).astype(np.float32), "y": np.empty(n // 16, np.float32), "n": n}


def reference(inputs):
    return {"y": inputs["x"].astype(np.float64).reshape(-1, 16).sum(axis=1).astype(np.float32)}
