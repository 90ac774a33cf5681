"""reduce4-any-block: y[0] += sum(x), accumulated by the blocks with atomicAdd.

y arrives as [0.0]; the reference is the float64 sum rounded to float32.
"""
import numpy as np


def generate(case, rng):
    n = int(case["n"])
    return {
        "y": np.zeros(1, dtype=np.float32),
        "x": rng.random(n, dtype=np.float64).astype(np.float32),
        "n": n,
    }


def reference(inputs):
    total = inputs["y"].astype(np.float64)[0] + inputs["x"].astype(np.float64).sum()
    return {"y": np.array([total], dtype=np.float32)}
