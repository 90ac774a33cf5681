"""blur-2d-tile: out[y, x] = mean of img over the 3 x 3 neighbourhood of (x, y), img = 0 outside."""
import numpy as np


def generate(case, rng):
    w, h = int(case["width"]), int(case["height"])
    return {"img": rng.random((h, w)).astype(np.float32), "out": np.empty((h, w), np.float32), "width": w, "height": h}


def reference(inputs):
    p = np.pad(inputs["img"].astype(np.float64), 1)
    h, w = inputs["img"].shape
    s = sum(p[dy:dy + h, dx:dx + w] for dy in range(3) for dx in range(3))
    return {"out": (s / 9.0).astype(np.float32)}
