"""Messages between the judge and its GPU child: a JSON header, then raw array bytes.

A frame is ``MAGIC, u32 header length, JSON header, array bytes``. The header lists the arrays
that follow (``"arrays": [{"name", "dtype", "shape"}]``) so that the reader knows how many bytes
to take and can check them against what it expects. No pickle: the judge never unpickles what a
process that ran student code sent. Results travel on their own pipe, never on the child's
stdout, where the kernel's printf lands, so a kernel cannot forge them.
"""
from __future__ import annotations

import json
import os
import select
import struct
import time
from typing import Callable

import numpy as np

MAGIC = b"WDG1"
MAX_HEADER_BYTES = 1 << 20
MAX_ARRAY_BYTES = 1 << 31  # a single buffer; far above what any problem's harness generates
_PREFIX = struct.Struct("<4sI")

# The dtypes a frame may carry: those of base.C_TYPES plus uint8 for cubins.
ALLOWED_DTYPES = frozenset({"float32", "float64", "int8", "uint8", "int16", "uint16",
                            "int32", "uint32", "int64", "uint64"})


class ProtocolError(Exception):
    """A frame was malformed, truncated, or not read before its deadline."""


class DeadlineError(ProtocolError):
    """The peer sent nothing (or not enough) before the deadline."""


def result(status: str, **fields) -> dict:
    """The header of a child's answer to a job: {"op": "result", "status": status, **fields}."""
    return {"op": "result", "status": status, **fields}


def encode(header: dict, arrays: dict[str, np.ndarray] | None = None) -> list[bytes | memoryview]:
    """The frame for `header` and `arrays` as a list of byte chunks (arrays are not copied)."""
    arrays = arrays or {}
    header = dict(header)
    header["arrays"] = []
    chunks: list[bytes | memoryview] = []
    for name, arr in arrays.items():
        arr = np.ascontiguousarray(arr)
        header["arrays"].append({"name": name, "dtype": arr.dtype.name, "shape": list(arr.shape)})
        chunks.append(memoryview(arr).cast("B"))
    body = json.dumps(header, separators=(",", ":")).encode()
    return [_PREFIX.pack(MAGIC, len(body)), body, *chunks]


def _array_specs(header: dict) -> list[tuple[str, np.dtype, tuple[int, ...], int]]:
    specs = []
    for item in header.get("arrays", []):
        if item.get("dtype") not in ALLOWED_DTYPES:
            raise ProtocolError(f"array {item.get('name')!r}: dtype {item.get('dtype')!r} not allowed")
        shape = tuple(int(s) for s in item.get("shape", []))
        if any(s < 0 for s in shape):
            raise ProtocolError(f"array {item.get('name')!r}: negative shape")
        dtype = np.dtype(item["dtype"])
        nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        if nbytes > MAX_ARRAY_BYTES:
            raise ProtocolError(f"array {item.get('name')!r}: {nbytes} bytes is too large")
        specs.append((str(item["name"]), dtype, shape, nbytes))
    return specs


# --- blocking side (the child) ---------------------------------------------------------------

def write_frame(fd: int, header: dict, arrays: dict[str, np.ndarray] | None = None) -> None:
    """Write one frame to `fd`, blocking until all of it is written."""
    for chunk in encode(header, arrays):
        view = memoryview(chunk).cast("B")
        while view:
            written = os.write(fd, view)
            view = view[written:]


def _read_exact(fd: int, size: int) -> bytearray:
    buf = bytearray(size)
    view = memoryview(buf)
    got = 0
    while got < size:
        n = os.readv(fd, [view[got:]])
        if n == 0:
            raise EOFError(f"peer closed the pipe after {got} of {size} bytes")
        got += n
    return buf


def read_frame(fd: int) -> tuple[dict, dict[str, np.ndarray]]:
    """Read one frame from `fd`, blocking. Raises EOFError when the peer has closed the pipe."""
    magic, length = _PREFIX.unpack(_read_exact(fd, _PREFIX.size))
    if magic != MAGIC or length > MAX_HEADER_BYTES:
        raise ProtocolError("bad frame prefix")
    header = json.loads(bytes(_read_exact(fd, length)))
    arrays = {}
    for name, dtype, shape, nbytes in _array_specs(header):
        arrays[name] = np.frombuffer(_read_exact(fd, nbytes), dtype=dtype).reshape(shape)
    return header, arrays


# --- deadline side (the judge) ---------------------------------------------------------------

ALIVE_POLL_S = 0.05  # how often a wait checks that the peer process still lives


def _wait(fd: int, events: int, deadline: float, alive: Callable[[], bool] | None = None) -> None:
    """Wait until `fd` is ready for `events`. Raises DeadlineError at `deadline`, and EOFError
    when `alive()` says the peer has exited (a FIFO whose writer never opened it shows no EOF)."""
    poller = select.poll()
    poller.register(fd, events)
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise DeadlineError("deadline passed")
        step = min(left, ALIVE_POLL_S) if alive else left
        if poller.poll(max(1, int(step * 1000))):
            return
        if alive is not None and not alive():
            if poller.poll(0):
                return
            raise EOFError("the peer process exited")


def write_frame_by(fd: int, header: dict, arrays: dict[str, np.ndarray] | None, deadline: float,
                   alive: Callable[[], bool] | None = None) -> None:
    """Write one frame to the non-blocking `fd`, giving up at `deadline` (time.monotonic())."""
    for chunk in encode(header, arrays):
        view = memoryview(chunk).cast("B")
        while view:
            _wait(fd, select.POLLOUT, deadline, alive)
            try:
                written = os.write(fd, view)
            except BlockingIOError:
                continue
            view = view[written:]


def _read_exact_by(fd: int, size: int, deadline: float, alive: Callable[[], bool] | None) -> bytearray:
    buf = bytearray(size)
    view = memoryview(buf)
    got = 0
    while got < size:
        _wait(fd, select.POLLIN, deadline, alive)
        try:
            n = os.readv(fd, [view[got:]])
        except BlockingIOError:
            continue
        if n == 0:
            raise EOFError(f"peer closed the pipe after {got} of {size} bytes")
        got += n
    return buf


def read_frame_by(fd: int, deadline: float, alive: Callable[[], bool] | None = None) -> tuple[dict, dict[str, np.ndarray]]:
    """Read one frame from the non-blocking `fd` before `deadline`.

    Raises DeadlineError when it does not arrive in time, EOFError when the peer exited
    (closed the pipe, or `alive()` turned False).
    """
    magic, length = _PREFIX.unpack(_read_exact_by(fd, _PREFIX.size, deadline, alive))
    if magic != MAGIC or length > MAX_HEADER_BYTES:
        raise ProtocolError("bad frame prefix")
    try:
        header = json.loads(bytes(_read_exact_by(fd, length, deadline, alive)))
    except ValueError as exc:
        raise ProtocolError(f"bad frame header: {exc}") from None
    if not isinstance(header, dict):
        raise ProtocolError("frame header is not an object")
    arrays = {}
    for name, dtype, shape, nbytes in _array_specs(header):
        arrays[name] = np.frombuffer(_read_exact_by(fd, nbytes, deadline, alive), dtype=dtype).reshape(shape)
    return header, arrays
