"""matrix-col-sums: sums[j] = sum_r A[r, j] for a row-major rows x cols matrix A."""
import numpy as np


def generate(case, rng):
    rows, cols = int(case["rows"]), int(case["cols"])
    A = rng.uniform(0.0, 1.0, (rows, cols)).astype(np.float32)
    return {"A": A, "sums": np.empty(cols, np.float32), "rows": rows, "cols": cols}


def reference(inputs):
    return {"sums": inputs["A"].astype(np.float64).sum(axis=0).astype(np.float32)}
