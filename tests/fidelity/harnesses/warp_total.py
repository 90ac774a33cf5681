"""y[i] = sum of x over i's warp (32 consecutive indices; slots past n count 0). x, y: float32[n]."""
import numpy as np


def generate(case, rng):
    n = int(case["n"])
    return {"x": rng.uniform(-1, 1, n).astype(np.float32), "y": np.empty(n, np.float32), "n": n}


def reference(inputs):
    x = inputs["x"].astype(np.float64)
    n = len(x)
    m = -(-n // 32)
    padded = np.zeros(m * 32)
    padded[:n] = x
    sums = padded.reshape(m, 32).sum(axis=1)
    return {"y": np.repeat(sums, 32)[:n].astype(np.float32)}
