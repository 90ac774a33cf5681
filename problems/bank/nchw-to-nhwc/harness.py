"""nchw-to-nhwc: dst[n, h, w, c] = src[n, c, h, w] (both contiguous, row-major)."""
import numpy as np


def generate(case, rng):
    N, C, H, W = (int(case[k]) for k in ("N", "C", "H", "W"))
    src = rng.uniform(-1.0, 1.0, (N, C, H, W)).astype(np.float32)
    return {"src": src, "dst": np.empty((N, H, W, C), np.float32), "N": N, "C": C, "H": H, "W": W}


def reference(inputs):
    return {"dst": np.ascontiguousarray(inputs["src"].transpose(0, 2, 3, 1))}
