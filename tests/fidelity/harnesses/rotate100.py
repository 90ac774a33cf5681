"""In each 256-block, y[t] = x[(t + 100) % 256]. float32[n], n % 256 == 0."""
import numpy as np


def generate(case, rng):
    n = int(case["n"])
    return {"x": rng.uniform(-1, 1, n).astype(np.float32), "y": np.empty(n, np.float32), "n": n}


def reference(inputs):
    return {"y": np.roll(inputs["x"].reshape(-1, 256), -100, axis=1).reshape(-1).copy()}
