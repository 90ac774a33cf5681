"""y[i] = x[i]; z[i] = y[(i + 256) % n], the copy made by the next block. float32[n], n % 256 == 0."""
import numpy as np


def generate(case, rng):
    n = int(case["n"])
    return {"x": rng.uniform(-1, 1, n).astype(np.float32), "y": np.empty(n, np.float32),
            "z": np.empty(n, np.float32), "n": n}


def reference(inputs):
    x = inputs["x"]
    return {"y": x.copy(), "z": np.roll(x, -256).copy()}
