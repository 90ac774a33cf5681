"""Blocks of 64 particles (float4 each): y[i] = x-sum of particle (t + 1) % 64 of i's block.
x: float32[4n]; y: float32[n]; n % 64 == 0."""
import numpy as np


def generate(case, rng):
    n = int(case["n"])
    return {"x": rng.uniform(-1, 1, 4 * n).astype(np.float32), "y": np.empty(n, np.float32), "n": n}


def reference(inputs):
    q = inputs["x"].reshape(-1, 64, 4).astype(np.float32)
    s = (((q[..., 0] + q[..., 1]) + q[..., 2]) + q[..., 3])
    return {"y": np.roll(s, -1, axis=1).reshape(-1).astype(np.float32)}
