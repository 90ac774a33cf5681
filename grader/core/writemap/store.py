"""Storing a write map with a result (JudgeResult.writemaps): encode, decode, and drawing a stored one.

Plain Python (no Django).
"""
from __future__ import annotations

import base64
import zlib
from typing import Callable

import numpy as np

from .model import WriteMap, wrong_mask
from .svg import MAX_SIDE, ROW_WIDTH, format_value, render_svg

VALUES_MAX = ROW_WIDTH * MAX_SIDE * 2  # outputs up to this many elements keep their values for the titles
MAX_STORED_BYTES = 1 << 20  # a map whose compressed arrays exceed this is not kept


def _pack(a: np.ndarray) -> str:
    return base64.b64encode(zlib.compress(a.tobytes(), 6)).decode("ascii")


def _unpack(text: str, dtype, count: int) -> np.ndarray:
    raw = zlib.decompressobj()
    data = raw.decompress(base64.b64decode(text.encode("ascii"), validate=True), count * np.dtype(dtype).itemsize + 1)
    a = np.frombuffer(data, dtype=dtype)
    if a.size != count:
        raise ValueError("stored write map has the wrong size")
    return a


def encode(wm: WriteMap, *, test: str, sample: bool, expected=None, got=None, wrong=None) -> dict | None:
    """A JSON-able dict of a write map for JudgeResult.writemaps, or None when it is too large to keep.

    The writer ids are stored as differences from the previous element (a regular indexing pattern
    compresses to a few hundred bytes), zlib-compressed and base64'd; the wrong mask as packed bits;
    expected and obtained values only for outputs of at most VALUES_MAX elements (the only ones whose
    cells show values). `sample`: whether the test is a visible one (serializers decide who sees it).
    """
    n = wm.size
    writer = wm.writer.astype(np.int64)
    delta = np.diff(writer, prepend=0)
    wide = delta.size and (delta.min() < -(1 << 31) or delta.max() >= 1 << 31)
    delta = delta.astype("<i8" if wide else "<i4")
    if wrong is None:
        wrong = wrong_mask(expected, got)
    wrong = np.zeros(n, bool) if wrong is None else np.asarray(wrong, bool).ravel()
    d = {"test": test, "sample": bool(sample), "output": wm.name, "shape": [int(s) for s in wm.shape],
         "grid": list(wm.grid), "block": list(wm.block), "writer": _pack(delta), "writer_dtype": delta.dtype.str, "hits": _pack(wm.hits.astype(np.uint8)),
         "wrong": _pack(np.packbits(wrong)), "expected": None, "got": None}
    if sum(len(d[k]) for k in ("writer", "hits", "wrong")) > MAX_STORED_BYTES:
        return None
    if n <= VALUES_MAX and expected is not None and got is not None:
        # As the titles print them: JSON (and PostgreSQL's jsonb) has no NaN, which poison often is.
        d["expected"] = [format_value(v) for v in np.asarray(expected).ravel().tolist()]
        d["got"] = [format_value(v) for v in np.asarray(got).ravel().tolist()]
    return d


def decode(d: dict) -> tuple[WriteMap, np.ndarray | None, np.ndarray | None, np.ndarray]:
    """(WriteMap, expected or None, got or None, wrong mask) of a dict `encode` made; the values come
    back as the strings the titles print (pass them to render_svg with wrong=the mask).
    Raises ValueError (or KeyError/TypeError) for a dict it did not make."""
    shape = tuple(int(s) for s in d["shape"])
    n = int(np.prod(shape, dtype=np.int64))
    dtype = d.get("writer_dtype", "<i8")
    if dtype not in ("<i4", "<i8"):
        raise ValueError("stored write map has an unknown writer type")
    writer = np.cumsum(_unpack(d["writer"], dtype, n), dtype=np.int64)
    hits = _unpack(d["hits"], np.uint8, n)
    wrong = np.unpackbits(_unpack(d["wrong"], np.uint8, (n + 7) // 8))[:n].astype(bool)
    wm = WriteMap(str(d["output"]), shape, writer, hits, tuple(d["grid"]), tuple(d["block"]))
    expected = np.asarray([str(v) for v in d["expected"]], dtype=object) if d.get("expected") is not None else None
    got = np.asarray([str(v) for v in d["got"]], dtype=object) if d.get("got") is not None else None
    if expected is not None and (expected.size != n or got is None or got.size != n):
        expected = got = None
    return wm, expected, got, wrong


def render_stored(d: dict, translate: Callable[[str], str] | None = None, *, show_values: bool = True) -> str:
    """render_svg of a stored map (`encode`'s dict), with its wrong mask and, if kept, its values."""
    wm, expected, got, wrong = decode(d)
    return render_svg(wm, expected, got, translate=translate, wrong=wrong, show_values=show_values)
