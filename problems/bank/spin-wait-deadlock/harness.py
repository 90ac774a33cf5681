"""spin-wait-deadlock: out[i] = x[i] - min(x over i's block slice), blocks of 256."""
import numpy as np

BLOCK = 256  # must match problem.yaml's launch


def generate(case, rng):
    n = int(case["n"])
    return {
        "x": rng.integers(-1000, 1001, n, dtype=np.int32),
        "out": np.empty(n, dtype=np.int32),
        "n": n,
    }


def reference(inputs):
    x = inputs["x"]
    n = x.size
    blocks = -(-n // BLOCK)
    padded = np.full(blocks * BLOCK, np.iinfo(np.int32).max, dtype=np.int32)
    padded[:n] = x
    block_min = padded.reshape(blocks, BLOCK).min(axis=1)
    return {"out": (x - np.repeat(block_min, BLOCK)[:n]).astype(np.int32)}
