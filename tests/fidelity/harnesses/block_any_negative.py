"""y[i] = -1 if any x in i's 256-block is negative, else 1. x: float32[n] (n % 256 == 0), y: int32[n].
Most blocks hold no negative value; a few hold several."""
import numpy as np


def generate(case, rng):
    n = int(case["n"])
    x = rng.uniform(0.1, 1, n).astype(np.float32)
    for b in range(0, n // 256, 3):
        x[b * 256 + rng.integers(0, 256, 5)] *= -1
    return {"x": x, "y": np.empty(n, np.int32), "n": n}


def reference(inputs):
    neg = (inputs["x"].reshape(-1, 256) < 0).any(axis=1)
    return {"y": np.repeat(np.where(neg, -1, 1), 256).astype(np.int32)}
