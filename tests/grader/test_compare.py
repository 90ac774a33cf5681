"""Output comparison: exact integers, float tolerances, NaN positions."""
import numpy as np

from grader.core.compare import compare_output


def test_integers_are_exact():
    """One differing integer is a mismatch with its index and both values."""
    m = compare_output("out", np.array([1, 2, 3], np.int32), np.array([1, 2, 4], np.int32), atol=10, rtol=1)
    assert m.index == [2] and m.expected == "3" and m.got == "4" and m.count == 1


def test_float_within_tolerance_matches():
    """A float within atol + rtol*|expected| matches."""
    assert compare_output("c", np.array([1.0, 100.0]), np.array([1.0 + 1e-7, 100.001]), atol=1e-6, rtol=1e-5) is None


def test_float_outside_tolerance_reports_first_and_count():
    """Beyond tolerance gives the first bad index and how many differ."""
    m = compare_output("c", np.zeros(5, np.float32), np.array([0, 0, 1, 1, 0], np.float32), atol=1e-3, rtol=0)
    assert m.index == [2] and m.count == 2


def test_nan_positions_must_match():
    """NaN matches NaN; NaN where a number is expected is a mismatch, and vice versa."""
    e = np.array([np.nan, 1.0], np.float32)
    assert compare_output("c", e, e.copy(), 0, 0) is None
    assert compare_output("c", e, np.array([0.0, 1.0], np.float32), 0, 0).index == [0]
    assert compare_output("c", np.array([1.0], np.float32), np.array([np.nan], np.float32), 1, 1).got == "nan"


def test_infinities_compare_exactly():
    """+inf matches +inf only."""
    assert compare_output("c", np.array([np.inf]), np.array([np.inf]), 0, 0) is None
    assert compare_output("c", np.array([np.inf]), np.array([-np.inf]), 1, 1) is not None


def test_multidimensional_index_and_flat_output():
    """A flat output is reshaped to the expected shape and the index is 2-D."""
    expected = np.arange(6, dtype=np.int32).reshape(2, 3)
    got = expected.reshape(-1).copy()
    got[4] = 0
    m = compare_output("m", expected, got, 0, 0)
    assert m.index == [1, 1]


def test_size_difference_is_a_mismatch():
    """A buffer of the wrong size is never accepted."""
    assert compare_output("c", np.zeros(4), np.zeros(3), 1, 1) is not None
