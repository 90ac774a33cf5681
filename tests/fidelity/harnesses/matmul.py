"""c = a @ b for square float32 n x n matrices (row-major). The reference uses NumPy's BLAS matmul."""
import numpy as np


def generate(case, rng):
    n = int(case["n"])
    return {"a": rng.uniform(-1, 1, n * n).astype(np.float32), "b": rng.uniform(-1, 1, n * n).astype(np.float32),
            "c": np.empty(n * n, np.float32), "n": n}


def reference(inputs):
    n = inputs["n"]
    a, b = inputs["a"].reshape(n, n), inputs["b"].reshape(n, n)
    return {"c": (a @ b).astype(np.float32).reshape(-1)}
