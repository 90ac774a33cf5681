"""y[b] = sum of x[b*256 : (b+1)*256] (a short last block sums what exists). x: float32[n]; y: float32[ceil(n/256)]."""
import numpy as np

BLOCK = 256


def generate(case, rng):
    n = int(case["n"])
    m = -(-n // BLOCK)
    return {"x": rng.uniform(-1, 1, n).astype(np.float32), "y": np.empty(m, np.float32), "n": n}


def reference(inputs):
    x = inputs["x"].astype(np.float64)
    m = -(-len(x) // BLOCK)
    padded = np.zeros(m * BLOCK)
    padded[:len(x)] = x
    return {"y": padded.reshape(m, BLOCK).sum(axis=1).astype(np.float32)}
