"""brent-kung-scan: out[i] = x[s*512] + ... + x[i] for i in section s = i // 512 (inclusive)."""
import numpy as np

SECTION = 512


def generate(case, rng):
    n = int(case["n"])
    return {"x": rng.uniform(-1.0, 1.0, n).astype(np.float32), "out": np.empty(n, dtype=np.float32), "n": n}


def reference(inputs):
    x = inputs["x"].astype(np.float64)
    n = x.size
    padded = np.zeros(-(-n // SECTION) * SECTION)
    padded[:n] = x
    scanned = np.cumsum(padded.reshape(-1, SECTION), axis=1).ravel()[:n]
    return {"out": scanned.astype(np.float32)}
