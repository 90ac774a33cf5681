"""dot-product-double: result[0] = sum_i a[i] * b[i], every product and sum in float64.

a and b are float32 values of magnitude ~1000 with 24 significant bits and random signs: the
products (~1e6) are exact in float64 but not in float32, and they largely cancel."""
import numpy as np


def generate(case, rng):
    n = int(case["n"])
    a = (rng.choice([-1.0, 1.0], n) * rng.uniform(500.0, 1500.0, n)).astype(np.float32)
    b = (rng.choice([-1.0, 1.0], n) * rng.uniform(500.0, 1500.0, n)).astype(np.float32)
    return {"a": a, "b": b, "result": np.zeros(1, dtype=np.float64), "n": n}


def reference(inputs):
    p = inputs["a"].astype(np.float64) * inputs["b"].astype(np.float64)
    return {"result": np.array([np.sum(p)], dtype=np.float64)}
