"""packed-lower-triangle: A[i, j] = packed[i(i+1)/2 + j] for j <= i, A[i, j] = 0 for j > i.

packed holds the n(n+1)/2 lower-triangle elements row by row: (0,0), (1,0), (1,1), (2,0), ..."""
import numpy as np


def generate(case, rng):
    n = int(case["n"])
    m = n * (n + 1) // 2
    packed = rng.uniform(1.0, 2.0, m).astype(np.float32)  # never 0, so a missed cell shows
    return {"packed": packed, "A": np.zeros((n, n), np.float32), "n": n}


def reference(inputs):
    n = int(inputs["n"])
    A = np.zeros((n, n), np.float32)
    A[np.tril_indices(n)] = inputs["packed"]  # row-major order of the lower triangle
    return {"A": A}
