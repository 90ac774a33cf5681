"""aos-to-soa: aos holds n points (x, y, z) interleaved; xs, ys, zs get the three fields."""
import numpy as np


def generate(case, rng):
    n = int(case["n"])
    aos = rng.uniform(-100.0, 100.0, 3 * n).astype(np.float32)
    empty = lambda: np.empty(n, np.float32)  # noqa: E731
    return {"aos": aos, "xs": empty(), "ys": empty(), "zs": empty(), "n": n}


def reference(inputs):
    p = inputs["aos"].reshape(-1, 3)
    return {"xs": p[:, 0].copy(), "ys": p[:, 1].copy(), "zs": p[:, 2].copy()}
