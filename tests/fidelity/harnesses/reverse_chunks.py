"""Chunks of CHUNK floats, each staged in shared memory: y[base + j] = x[base + CHUNK - 1 - j], or 0 where
that index is past n. x, y: float32[n]. A case sets CHUNK through `harness_constants`."""
import numpy as np

CHUNK = 16384


def generate(case, rng):
    n = int(case["n"])
    return {"x": rng.uniform(-1, 1, n).astype(np.float32), "y": np.empty(n, np.float32), "n": n}


def reference(inputs):
    x = inputs["x"]
    n = len(x)
    m = -(-n // CHUNK)
    padded = np.zeros(m * CHUNK, np.float32)
    padded[:n] = x
    return {"y": padded.reshape(m, CHUNK)[:, ::-1].reshape(-1)[:n].copy()}
