"""Device math of v = x[i] in [-2, 2]: y[8i..8i+7] = __expf(v), exp10f(v), __exp10f(v), __saturatef(v),
__sinf(v), __cosf(v), rintf(3v), __powf(|v| + 0.5, 1.5). x: float32[n]; y: float32[8n]. The fast
intrinsics are approximate: the case's tolerance allows for it."""
import numpy as np


def generate(case, rng):
    n = int(case["n"])
    x = rng.uniform(-2, 2, n).astype(np.float32)
    x[:4] = [0.5, -0.5, 1.5, 2.5 / 3]  # rintf of 1.5, -1.5, 4.5, 2.5: ties to even
    return {"x": x, "y": np.empty(8 * n, np.float32), "n": n}


def reference(inputs):
    v = inputs["x"].astype(np.float64)
    three = (inputs["x"] * np.float32(3)).astype(np.float32)
    y = np.stack([np.exp(v), 10.0 ** v, 10.0 ** v, np.clip(v, 0, 1), np.sin(v), np.cos(v), np.rint(three),
                  (np.abs(v) + 0.5) ** 1.5], axis=1)
    return {"y": y.reshape(-1).astype(np.float32)}
