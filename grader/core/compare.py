"""Compare a kernel's outputs with the reference: exact for integers, atol/rtol for floats.

A float element matches when |got - expected| <= atol + rtol * |expected| (NumPy's isclose),
infinities must match exactly, and NaN matches only NaN (NaN positions must agree).
"""
from __future__ import annotations

import numpy as np

from .results import Mismatch


def _format(value, dtype: np.dtype | None = None) -> str:
    """An element as text; a float at the precision of `dtype` (its own by default): the shortest
    decimal that reads back as the same value of that type (float32 60.59071, not 60.59071350097656)."""
    if isinstance(value, (float, np.floating)):
        if not np.isfinite(value):
            return str(float(value))
        kind = dtype if dtype is not None and np.issubdtype(dtype, np.floating) else np.asarray(value).dtype
        return str(np.asarray(value).astype(kind)[()])
    return str(int(value)) if isinstance(value, (int, np.integer)) else str(value)


def _format_pair(expected, got, dtype: np.dtype) -> tuple[str, str]:
    """Expected and got at the output's precision. A reference computed in a wider type (float64 sums)
    that reads the same as the output's value at that precision is printed at its own, so that the
    two never read alike while they differ."""
    exp_text, got_text = _format(expected, dtype), _format(got, dtype)
    if exp_text == got_text:
        exp_text = _format(expected)
    return exp_text, got_text


def compare_output(name: str, expected: np.ndarray, got: np.ndarray, atol: float, rtol: float) -> Mismatch | None:
    """The first mismatching element of output `name`, or None when every element matches.

    `expected` and `got` must have the same number of elements; `got` is reshaped to the
    expected shape (backends return flat buffers). A size difference is reported as a mismatch
    at index [size] so that it is never silently accepted.
    """
    expected = np.asarray(expected)
    got = np.asarray(got)
    if got.size != expected.size:
        return Mismatch(output=name, index=[min(got.size, expected.size)], expected=f"{expected.size} elements",
                        got=f"{got.size} elements", count=abs(got.size - expected.size))
    got = got.reshape(expected.shape)
    if np.issubdtype(expected.dtype, np.floating) or np.issubdtype(got.dtype, np.floating):
        with np.errstate(invalid="ignore", over="ignore"):
            e = expected.astype(np.float64)
            g = got.astype(np.float64)
            close = np.isclose(g, e, atol=atol, rtol=rtol, equal_nan=True)
        bad = ~close
    else:
        bad = expected != got
    count = int(np.count_nonzero(bad))
    if count == 0:
        return None
    flat = int(np.flatnonzero(bad.reshape(-1))[0])
    index = [int(i) for i in np.unravel_index(flat, expected.shape)] if expected.ndim > 1 else [flat]
    # Printed at the precision of the kernel's output buffer (the reference may be wider).
    exp_value, got_value = expected.reshape(-1)[flat], got.reshape(-1)[flat]
    exp_text, got_text = _format_pair(exp_value, got_value, got.dtype)
    allowed = error = None
    if np.issubdtype(expected.dtype, np.floating) or np.issubdtype(got.dtype, np.floating):
        e, g = float(exp_value), float(got_value)
        if np.isfinite(e) and np.isfinite(g):
            allowed, error = f"{atol + rtol * abs(e):.1e}", f"{abs(g - e):.1e}"
    return Mismatch(
        output=name,
        index=index,
        expected=exp_text,
        got=got_text,
        count=count,
        allowed=allowed,
        error=error,
    )
