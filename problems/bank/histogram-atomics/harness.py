"""histogram-atomics: hist[v] += number of i < n with data[i] == v, 256 bins.

hist is an `out` buffer with `init: zeros`: the judge zeroes it before the launch. Half of the positions hold one hot value (many threads of a block
update the same bin at once); the rest are uniform over 0..255.
"""
import numpy as np

BINS = 256


def generate(case, rng):
    n = int(case["n"])
    data = rng.integers(0, BINS, n, dtype=np.uint8)
    hot = rng.random(n) < 0.5
    data[hot] = np.uint8(rng.integers(0, BINS))
    return {"data": data, "hist": np.zeros(BINS, dtype=np.uint32), "n": n}


def reference(inputs):
    counts = np.bincount(inputs["data"], minlength=BINS).astype(np.uint32)
    return {"hist": counts}
