"""bicubic-imresize: MATLAB's imresize(src, [H W], 'bicubic') with its default antialiasing.

Per dimension (in -> out, scale s = out / in), as MATLAB's contributions():
  output pixel u (0-based) sits at input coordinate x = (u + 0.5) / s - 0.5;
  kernel k(v) = cubic(v) when s >= 1, s * cubic(s * v) when s < 1 (antialias: widened 1 / s times);
  taps j = floor(x - width / 2) + 0 .. ceil(width) + 1 with width = 4 (or 4 / s when shrinking);
  weights k(x - j) normalised to sum 1; j mirrored into [0, in) with the edge pixel repeated
  (NumPy's pad mode "symmetric").
The 2-D result is Wy @ src @ Wx.T, computed in float64. cubic is Keys' a = -0.5 kernel with the
correct signs (seeds/001 prints the second piece with wrong ones; CONTENT.md)."""
import numpy as np


def cubic(v):
    a = np.abs(v)
    a2, a3 = a * a, a * a * a
    return np.where(a <= 1, 1.5 * a3 - 2.5 * a2 + 1,
                    np.where(a <= 2, -0.5 * a3 + 2.5 * a2 - 4 * a + 2, 0.0))


def weights(n_in, n_out):
    """The n_out x n_in matrix of MATLAB's bicubic resize along one dimension."""
    s = n_out / n_in
    width = 4.0 / s if s < 1 else 4.0
    u = np.arange(n_out, dtype=np.float64)
    x = (u + 0.5) / s - 0.5
    taps = int(np.ceil(width)) + 2
    j = np.floor(x - width / 2)[:, None] + np.arange(taps)[None, :]
    d = x[:, None] - j
    k = s * cubic(s * d) if s < 1 else cubic(d)
    k = k / k.sum(axis=1, keepdims=True)
    m = np.mod(j, 2 * n_in).astype(np.int64)
    m = np.where(m >= n_in, 2 * n_in - 1 - m, m)
    out = np.zeros((n_out, n_in))
    np.add.at(out, (np.repeat(np.arange(n_out), taps), m.ravel()), k.ravel())
    return out


def generate(case, rng):
    h, w, H, W = (int(case[k]) for k in ("h", "w", "H", "W"))
    if case.get("ramp"):
        src = np.arange(h * w, dtype=np.float32).reshape(h, w)
    else:
        src = rng.uniform(0.0, 255.0, (h, w)).astype(np.float32)
    return {"src": src, "dst": np.empty((H, W), np.float32), "h": h, "w": w, "H": H, "W": W}


def reference(inputs):
    h, w, H, W = (int(inputs[k]) for k in ("h", "w", "H", "W"))
    out = weights(h, H) @ inputs["src"].astype(np.float64) @ weights(w, W).T
    return {"dst": out.astype(np.float32)}
