"""syncthreads-count: counts[b] = number of x[i] > 0 among block b's elements (blocks of 256).

About 40 % of the inputs are positive, some exactly 0.0 (not positive).
"""
import numpy as np

BLOCK = 256  # must match problem.yaml's launch


def generate(case, rng):
    n = int(case["n"])
    x = rng.uniform(-1.5, 1.0, n).astype(np.float32)
    x[rng.random(n) < 0.05] = 0.0
    blocks = -(-n // BLOCK)
    return {"x": x, "counts": np.empty(blocks, dtype=np.int32), "n": n}


def reference(inputs):
    x = inputs["x"]
    n = x.size
    blocks = -(-n // BLOCK)
    positive = np.zeros(blocks * BLOCK, dtype=np.int32)
    positive[:n] = x > 0
    return {"counts": positive.reshape(blocks, BLOCK).sum(axis=1).astype(np.int32)}
