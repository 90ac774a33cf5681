"""indexing.coarsening: every (block, thread, k) of the launch is enumerated here and mapped to its element
by the loop the prompt shows; sectors come from the byte addresses."""
import numpy as np

from .familycheck import assert_family_basics, questions


def test_basics():
    assert_family_basics("indexing.coarsening")


def test_contiguous_by_enumeration():
    for q in questions("indexing.coarsening", 1, range(100)):
        T, C, n = q.params["block"], q.params["c"], q.params["n"]
        blocks = next(b for b in range(1, n + 1) if b * T * C >= n)
        assert q.answer["blocks"] == blocks
        g = q.params["b"] * T + q.params["t"]
        assert q.answer["idx"] == [g * C + k for k in range(C)][q.params["k"]]


def test_strided_inverse_covers_each_element_once():
    for q in questions("indexing.coarsening", 2, range(40)):
        T, C, n, e = q.params["block"], q.params["c"], q.params["n"], q.params["e"]
        blocks = -(-n // (T * C))
        b, th, k = np.meshgrid(np.arange(blocks), np.arange(T), np.arange(C), indexing="ij")
        elem = b * T * C + k * T + th
        hit = np.argwhere(elem == e)
        assert len(hit) == 1  # the strided mapping is a bijection onto the padded range
        assert q.answer == {"block": int(hit[0][0]), "thread": int(hit[0][1]), "k": int(hit[0][2])}


def test_sectors_of_both_versions():
    for q in questions("indexing.coarsening", 3, range(60)):
        C = q.params["c"]
        a = {(4 * lane * C) // 32 for lane in range(32)}
        b = {(4 * lane) // 32 for lane in range(32)}
        assert q.answer == {"contiguous": len(a), "strided": len(b)}
