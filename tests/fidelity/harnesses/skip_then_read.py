"""In each 256-block: y[t] = x[127 - t] for t < 128, and y[t] = x[t - 128] for t >= 128. float32[n], n % 256 == 0."""
import numpy as np


def generate(case, rng):
    n = int(case["n"])
    return {"x": rng.uniform(-1, 1, n).astype(np.float32), "y": np.empty(n, np.float32), "n": n}


def reference(inputs):
    b = inputs["x"].reshape(-1, 256)
    return {"y": np.concatenate([b[:, :128][:, ::-1], b[:, :128]], axis=1).reshape(-1).copy()}
