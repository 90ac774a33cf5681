"""Reading the write-map side files of a `writemap` run (src/writemap.cpp writes them).

Each recorded output buffer `<file>` of the job has `<file>.wm`: uint32 per element (the linear id
of the thread that stored to it last, plus one; 0 for never), then uint8 per element (how many
times the storing thread changed, 0 for never). Python creates the file at that size before the
run; the runtime maps it shared and fills it in.

Everything in it is untrusted (the student's code shares the process and can find the mapping):
the file must have exactly the size made for it, every id must be a thread of the launch, and an
element is never written exactly when both its id and its count are 0. A file that breaks a rule
is dropped (WriteMapFileError; the picture is missing, the verdict stands).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ..writemap.model import WriteMap

# The largest output recorded: 4M elements (a 20 MiB side file); larger outputs get no map.
MAX_ELEMENTS = 1 << 22
MAX_THREADS = (1 << 32) - 2  # ids are stored plus one in a uint32


class WriteMapFileError(ValueError):
    """A side file breaks the rules of the module docstring; str() says which."""


def side_file_bytes(count: int) -> int:
    """Bytes of the side file of an output of `count` elements (5 per element)."""
    return 5 * int(count)


def threads_of(launch) -> int:
    g, b = launch.grid, launch.block
    return int(g[0]) * int(g[1]) * int(g[2]) * int(b[0]) * int(b[1]) * int(b[2])


def recordable(count: int, launch) -> bool:
    """Whether an output of `count` elements of this launch gets a write map."""
    return 0 < count <= MAX_ELEMENTS and threads_of(launch) <= MAX_THREADS


def read_side_file(path: Path, name: str, shape: tuple, launch) -> WriteMap:
    """The validated WriteMap of one output; raises WriteMapFileError (missing, wrong size, bad ids)."""
    count = int(np.prod(shape, dtype=np.int64))
    expected = side_file_bytes(count)
    try:
        with path.open("rb") as f:
            raw = f.read(expected + 1)
    except OSError as exc:
        raise WriteMapFileError(f"{path.name} cannot be read ({exc.strerror})") from None
    if len(raw) != expected:
        raise WriteMapFileError(f"{path.name} has {len(raw)} bytes, not {expected}")
    ids = np.frombuffer(raw, dtype="<u4", count=count)
    hits = np.frombuffer(raw, dtype=np.uint8, offset=4 * count, count=count).copy()
    threads = threads_of(launch)
    if count and int(ids.max()) > threads:
        raise WriteMapFileError(f"{path.name} names a thread outside the launch")
    if np.any((ids == 0) != (hits == 0)):
        raise WriteMapFileError(f"{path.name} has a written element without a writer, or the reverse")
    writer = ids.astype(np.int64) - 1  # 0 (never) becomes NEVER (-1)
    return WriteMap(name, tuple(int(s) for s in shape), writer, hits, tuple(int(v) for v in launch.grid),
                    tuple(int(v) for v in launch.block))


def read_all(workdir: Path, outputs: dict, launch) -> tuple[dict[str, WriteMap], list[str]]:
    """({output name: WriteMap}, [why a side file was dropped]) of a writemap run's work directory.
    `outputs` is jobs.write_job's return value; outputs without a side file are skipped."""
    maps, problems = {}, []
    for name, (file, shape, _dtype) in outputs.items():
        path = workdir / f"{file}.wm"
        if not recordable(int(np.prod(shape, dtype=np.int64)), launch):
            continue
        try:
            maps[name] = read_side_file(path, name, shape, launch)
        except WriteMapFileError as exc:
            problems.append(str(exc))
    return maps, problems
