"""cuRAND's default generator (XORWOW) from `curand_init(SEED + i, 0, 0, &state)` (or, with SUBSEQUENCES,
`curand_init(SEED, i, 0, &state)`: thread i starts 2^67 * i draws further on), then PER draws per thread:
y[PER*i + j] = curand_uniform (KIND "uniform"), or curand_normal (KIND "normal": Box-Muller, the pair's
sine then cosine). y: float32[PER*n]. The state initialisation and the step are cuRAND's own
(curand_kernel.h: _curand_init_scratch with subsequence 0 and offset 0, curand_xorwow_state's step);
the draws' float formulas are those of curand_uniform.h and curand_normal.h."""
import numpy as np

SEED = 1234
PER = 4
KIND = "uniform"
SUBSEQUENCES = False
M32 = 0xFFFFFFFF
INV32 = np.float32(2.3283064e-10)  # CURAND_2POW32_INV
INV32_2PI = np.float32(2.3283064e-10 * 6.2831855)  # CURAND_2POW32_INV_2PI


def _init(seed):
    s0 = (seed & M32) ^ 0xAAD26B49
    s1 = ((seed >> 32) & M32) ^ 0xF7DCEFDD
    t0 = (1099087573 * s0) & M32
    t1 = (2591861531 * s1) & M32
    d = (6615241 + t1 + t0) & M32
    v = [(123456789 + t0) & M32, 362436069 ^ t0, (521288629 + t1) & M32, 88675123 ^ t1, (5783321 + t0) & M32]
    return v, d


def _next(v, d):
    t = v[0] ^ (v[0] >> 2)
    v[0], v[1], v[2], v[3] = v[1], v[2], v[3], v[4]
    v[4] = ((v[4] ^ ((v[4] << 4) & M32)) ^ (t ^ ((t << 1) & M32))) & M32
    d = (d + 362437) & M32
    return (v[4] + d) & M32, d


def _step_matrix():
    """The XORWOW step on the 160 state bits (bit j of v[k] is row/column 32k + j) as a GF(2) matrix."""
    a = np.zeros((160, 160), np.int64)
    for k in range(4):
        for j in range(32):
            a[32 * k + j, 32 * (k + 1) + j] = 1
    for j in range(32):  # v4' = v4 ^ (v4 << 4) ^ t ^ (t << 1), t = v0 ^ (v0 >> 2)
        row = 128 + j
        a[row, 128 + j] ^= 1
        if j >= 4:
            a[row, 128 + j - 4] ^= 1
        for tj in [j] + ([j - 1] if j >= 1 else []):
            a[row, tj] ^= 1
            if tj + 2 < 32:
                a[row, tj + 2] ^= 1
    return a


def _skip_subsequences(states):
    """Advance state i (a list of 5 words) by 2^67 * i steps, as curand_init's subsequence does (d is
    unchanged: 2^67 * 362437 is 0 modulo 2^32)."""
    jump = _step_matrix()
    for _ in range(67):
        jump = (jump @ jump) % 2
    bits = np.array([[(w >> j) & 1 for w in v for j in range(32)] for v in states], np.int64).T  # 160 x n
    ids = np.arange(len(states))
    k = 0
    while (1 << k) < len(states):
        sel = (ids >> k) & 1 == 1
        bits[:, sel] = (jump @ bits[:, sel]) % 2
        jump = (jump @ jump) % 2
        k += 1
    return [[int(sum(int(bits[32 * w + j, i]) << j for j in range(32))) for w in range(5)] for i in range(len(states))]


def generate(case, rng):
    n = int(case["n"])
    return {"y": np.empty(PER * n, np.float32), "n": n}


def reference(inputs):
    n = inputs["n"]
    out = np.empty((n, PER), np.float32)
    starts = [_init(SEED if SUBSEQUENCES else SEED + i) for i in range(n)]
    if SUBSEQUENCES:
        starts = list(zip(_skip_subsequences([v for v, _ in starts]), [d for _, d in starts]))
    for i in range(n):
        v, d = starts[i]
        draws = []
        while len(draws) < PER:
            x, d = _next(v, d)
            u = np.float32(x) * INV32 + INV32 / np.float32(2)
            if KIND == "uniform":
                draws.append(u)
                continue
            y, d = _next(v, d)
            w = np.float32(y) * INV32_2PI + INV32_2PI / np.float32(2)
            s = np.sqrt(np.float32(-2) * np.log(u, dtype=np.float32))
            draws += [s * np.sin(w, dtype=np.float32), s * np.cos(w, dtype=np.float32)]
        out[i] = draws[:PER]
    return {"y": out.reshape(-1)}
