"""rgb-to-gray: gray[y, x] = (77 R + 150 G + 29 B) >> 8 for the interleaved pixel rgb[y, x, 0..2]."""
import numpy as np


def generate(case, rng):
    w, h = int(case["width"]), int(case["height"])
    return {"rgb": rng.integers(0, 256, (h, w, 3)).astype(np.uint8), "gray": np.empty((h, w), np.uint8),
            "width": w, "height": h}


def reference(inputs):
    p = inputs["rgb"].astype(np.int32)
    return {"gray": ((77 * p[..., 0] + 150 * p[..., 1] + 29 * p[..., 2]) >> 8).astype(np.uint8)}
