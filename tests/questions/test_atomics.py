"""atomics.contention: atomics per address counted by replaying the kernels' atomic calls here."""
from collections import Counter

import numpy as np
import pytest

from .familycheck import assert_family_basics, questions


def test_basics():
    assert_family_basics("atomics.contention")


def test_counts_by_replaying_the_atomics():
    for q in questions("atomics.contention", 1, range(60)):
        n, T = q.params["n"], q.params["block"]
        per_block = Counter(i // T for i in range(0, n, T))  # thread 0 of every block that exists
        assert q.answer == {"a": n, "b": len(per_block)}
    for q in questions("atomics.contention", 2, range(8)):
        n, T, B = q.params["n"], q.params["block"], q.params["bins"]
        hist = np.bincount(np.arange(n) % B, minlength=B)
        blocks = -(-n // T)
        assert q.answer == {"busiest": int(hist.max()), "global_b": blocks * B}
    for q in questions("atomics.contention", 3, range(60)):
        n, ns = q.params["n"], q.params["ns"]
        assert n % 32 == 0
        warps = len(range(0, n, 32))
        assert q.answer["a_us"] == pytest.approx(n * ns / 1000)
        assert q.answer["b_us"] == pytest.approx(warps * ns / 1000)
