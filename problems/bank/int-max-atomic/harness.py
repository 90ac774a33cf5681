"""int-max-atomic: result[0] = max(x[0..n)); result starts at INT_MIN (the identity of max).

Every x is negative (in [-10^9, -1]), so a kernel that pads missing elements or starts from 0
instead of INT_MIN returns 0."""
import numpy as np


def generate(case, rng):
    n = int(case["n"])
    x = rng.integers(-1_000_000_000, 0, n, dtype=np.int32)
    return {"x": x, "result": np.array([np.iinfo(np.int32).min], dtype=np.int32), "n": n}


def reference(inputs):
    return {"result": np.array([max(int(inputs["x"].max()), int(inputs["result"][0]))], dtype=np.int32)}
