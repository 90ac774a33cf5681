"""neighbour-exchange: out[i] = x[i] + x[next(i)], next wrapping inside i's block.

Blocks are 256 threads (problem.yaml). Block b owns elements [256 b, 256 b + m) with
m = min(256, n - 256 b); the right neighbour of the block's last element is its first.
"""
import numpy as np

BLOCK = 256  # must match problem.yaml's launch


def generate(case, rng):
    n = int(case["n"])
    return {
        "x": rng.uniform(-100.0, 100.0, n).astype(np.float32),
        "out": np.empty(n, dtype=np.float32),
        "n": n,
    }


def reference(inputs):
    x, n = inputs["x"], inputs["n"]
    i = np.arange(n)
    start = (i // BLOCK) * BLOCK
    m = np.minimum(BLOCK, n - start)
    neighbour = start + (i - start + 1) % m
    return {"out": (x + x[neighbour]).astype(np.float32)}
