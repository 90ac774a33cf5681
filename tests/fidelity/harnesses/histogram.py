"""hist[v] = number of i < n with data[i] == v (256 bins). data: uint8[n]; hist: uint32[256], given as zeros.
Half of the positions hold one hot value, so threads collide on one bin."""
import numpy as np


def generate(case, rng):
    n = int(case["n"])
    data = rng.integers(0, 256, n, dtype=np.uint8)
    data[rng.random(n) < 0.5] = np.uint8(rng.integers(0, 256))
    return {"data": data, "hist": np.zeros(256, np.uint32), "n": n}


def reference(inputs):
    return {"hist": np.bincount(inputs["data"], minlength=256).astype(np.uint32)}
