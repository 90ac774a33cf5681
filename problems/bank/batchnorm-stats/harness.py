"""batchnorm-stats: per channel c of an N x C x HW tensor (NCHW, row-major): mean[c] and the biased
variance var[c] (as BatchNorm normalises with) over the N * HW elements of channel c."""
import numpy as np


def generate(case, rng):
    n, c, hw = int(case["N"]), int(case["C"]), int(case["HW"])
    centre = 1000.0 + np.arange(c)[None, :, None]
    x = (centre + rng.normal(0.0, 0.5, (n, c, hw))).astype(np.float32)
    return {"x": x, "mean": np.empty(c, np.float32), "var": np.empty(c, np.float32), "N": n, "C": c, "HW": hw}


def reference(inputs):
    x = inputs["x"].astype(np.float64)
    return {"mean": x.mean(axis=(0, 2)).astype(np.float32), "var": x.var(axis=(0, 2)).astype(np.float32)}
