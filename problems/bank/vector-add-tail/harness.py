"""vector-add-tail: c = a + b over n float32 elements."""
import numpy as np


def generate(case, rng):
    n = int(case["n"])
    return {
        "a": rng.uniform(-100.0, 100.0, n).astype(np.float32),
        "b": rng.uniform(-100.0, 100.0, n).astype(np.float32),
        "c": np.empty(n, dtype=np.float32),
        "n": n,
    }


def reference(inputs):
    # float32 + float32 in NumPy rounds exactly as the GPU's FADD does.
    return {"c": (inputs["a"] + inputs["b"]).astype(np.float32)}
