"""warp-shuffle-sum: total[0] = sum of x[0..n), float32 in, float64 reference rounded once."""
import numpy as np


def generate(case, rng):
    n = int(case["n"])
    return {"x": rng.uniform(-1.0, 1.0, n).astype(np.float32), "total": np.zeros(1, dtype=np.float32), "n": n}


def reference(inputs):
    return {"total": np.array([inputs["x"].astype(np.float64).sum()], dtype=np.float32)}
