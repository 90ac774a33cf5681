"""nearest-resize: dst[y', x'] = src[iy(y'), ix(x')] with MATLAB's nearest rule.

ix(x') = min(floor((x' + 0.5) * w / W - 0.5 + 0.5), w - 1) = min(((2x' + 1) * w) // (2W), w - 1):
round half UP of the pixel-centre coordinate, in exact integer arithmetic (np.round would round
half to even and disagree at every tie)."""
import numpy as np


def _index(out_n, in_n):
    x = np.arange(out_n, dtype=np.int64)
    return np.minimum(((2 * x + 1) * in_n) // (2 * out_n), in_n - 1)


def generate(case, rng):
    h, w, H, W = (int(case[k]) for k in ("h", "w", "H", "W"))
    src = rng.uniform(0.0, 255.0, (h, w)).astype(np.float32)
    return {"src": src, "dst": np.empty((H, W), np.float32), "h": h, "w": w, "H": H, "W": W}


def reference(inputs):
    h, w, H, W = (int(inputs[k]) for k in ("h", "w", "H", "W"))
    return {"dst": inputs["src"][_index(H, h)[:, None], _index(W, w)[None, :]]}
