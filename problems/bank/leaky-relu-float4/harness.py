"""leaky-relu-float4: y = x if x > 0 else 0.1 * x, float32, elementwise over n."""
import numpy as np


def generate(case, rng):
    n = int(case["n"])
    return {"x": rng.uniform(-10.0, 10.0, n).astype(np.float32), "y": np.empty(n, dtype=np.float32), "n": n}


def reference(inputs):
    x = inputs["x"]
    return {"y": np.where(x > 0, x, np.float32(0.1) * x).astype(np.float32)}
