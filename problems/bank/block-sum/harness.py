"""block-sum: out[b] = sum of x[256 b : min(256 (b + 1), n)], one output per block."""
import numpy as np

BLOCK = 256  # must match problem.yaml's launch


def generate(case, rng):
    n = int(case["n"])
    blocks = -(-n // BLOCK)
    return {
        "x": rng.uniform(-1.0, 1.0, n).astype(np.float32),
        "out": np.empty(blocks, dtype=np.float32),
        "n": n,
    }


def reference(inputs):
    x = inputs["x"].astype(np.float64)
    n = x.size
    blocks = -(-n // BLOCK)
    padded = np.zeros(blocks * BLOCK, dtype=np.float64)
    padded[:n] = x
    return {"out": padded.reshape(blocks, BLOCK).sum(axis=1).astype(np.float32)}
