"""b = a transposed. a: float32[h][w] (row-major), b: float32[w][h]."""
import numpy as np


def generate(case, rng):
    w, h = int(case["w"]), int(case["h"])
    return {"a": rng.uniform(-1, 1, w * h).astype(np.float32), "b": np.empty(w * h, np.float32), "w": w, "h": h}


def reference(inputs):
    w, h = inputs["w"], inputs["h"]
    return {"b": inputs["a"].reshape(h, w).T.reshape(-1).copy()}
