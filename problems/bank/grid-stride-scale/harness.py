"""grid-stride-scale: y = alpha * x over n float32 elements."""
import numpy as np


def generate(case, rng):
    n = int(case["n"])
    # alpha is a float32 value, so the kernel's float parameter holds it exactly.
    alpha = float(np.float32(rng.uniform(0.5, 4.0)))
    return {
        "x": rng.uniform(-1000.0, 1000.0, n).astype(np.float32),
        "y": np.empty(n, dtype=np.float32),
        "alpha": alpha,
        "n": n,
    }


def reference(inputs):
    return {"y": (np.float32(inputs["alpha"]) * inputs["x"]).astype(np.float32)}
