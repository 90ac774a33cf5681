"""counts[b] = number of i in [256 b, min(256 b + 256, n)) with x[i] > 0. x: float32[n]; counts: int32[ceil(n / 256)]."""
import numpy as np

BLOCK = 256


def generate(case, rng):
    n = int(case["n"])
    return {"x": rng.uniform(-1, 1, n).astype(np.float32), "counts": np.empty(-(-n // BLOCK), np.int32), "n": n}


def reference(inputs):
    x = inputs["x"]
    pad = np.zeros(-(-x.size // BLOCK) * BLOCK, bool)
    pad[:x.size] = x > 0
    return {"counts": pad.reshape(-1, BLOCK).sum(axis=1).astype(np.int32)}
