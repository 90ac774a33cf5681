"""ballot-count: count[0] = the number of x[i] > threshold, x uniform in [-1, 1), threshold = tq / 100."""
import numpy as np


def generate(case, rng):
    n = int(case["n"])
    return {"x": rng.uniform(-1.0, 1.0, n).astype(np.float32), "count": np.zeros(1, np.int32),
            "threshold": int(case["tq"]) / 100.0, "n": n}


def reference(inputs):
    return {"count": np.array([int((inputs["x"] > np.float32(inputs["threshold"])).sum())], np.int32)}
