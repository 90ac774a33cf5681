"""Half precision: y[i] = float(h(a) + h(h(b) * h(c))) with every step rounded to float16 (__float2half,
__hmul, __hadd, __half2float). a, b, c, y: float32[n]."""
import numpy as np


def generate(case, rng):
    n = int(case["n"])
    return {"a": rng.uniform(-4, 4, n).astype(np.float32), "b": rng.uniform(-4, 4, n).astype(np.float32),
            "c": rng.uniform(-4, 4, n).astype(np.float32), "y": np.empty(n, np.float32), "n": n}


def reference(inputs):
    h = np.float16
    a, b, c = (inputs[k].astype(h) for k in "abc")
    return {"y": (a + (b * c).astype(h)).astype(h).astype(np.float32)}
