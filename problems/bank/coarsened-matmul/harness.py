"""coarsened-matmul: C = A @ B, A is M x K, B is K x N, C is M x N, all float32 and row-major.

The reference multiplies in float64 with NumPy's `@` (BLAS) and rounds to float32 once.
"""
import numpy as np


def generate(case, rng):
    m, n, k = int(case["M"]), int(case["N"]), int(case["K"])
    return {
        "A": rng.uniform(-1.0, 1.0, (m, k)).astype(np.float32),
        "B": rng.uniform(-1.0, 1.0, (k, n)).astype(np.float32),
        "C": np.empty((m, n), dtype=np.float32),
        "M": m,
        "N": n,
        "K": k,
    }


def reference(inputs):
    product = inputs["A"].astype(np.float64) @ inputs["B"].astype(np.float64)
    return {"C": product.astype(np.float32)}
