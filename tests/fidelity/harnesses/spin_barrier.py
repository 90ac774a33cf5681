"""A two-phase sum across blocks of 256 threads: partial[b] = sum of block b's slice of x; count[0] ends at
the number of blocks; total[0] = sum of x. x: float32[n], n % 256 == 0; partial: float32[n/256];
count: uint32[1] and total: float32[1], given as zeros."""
import numpy as np


def generate(case, rng):
    n = int(case["n"])
    return {"x": rng.uniform(-1, 1, n).astype(np.float32), "partial": np.zeros(n // 256, np.float32),
            "count": np.zeros(1, np.uint32), "total": np.zeros(1, np.float32), "n": n}


def reference(inputs):
    x = inputs["x"].astype(np.float64)
    partial = x.reshape(-1, 256).sum(axis=1)
    return {"partial": partial.astype(np.float32), "count": np.array([len(partial)], np.uint32),
            "total": np.array([x.sum()], np.float32)}
