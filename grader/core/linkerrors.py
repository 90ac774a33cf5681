"""Link errors in the student's words: the missing function and the line that uses it.

A `__device__` function that is declared but never defined compiles and then fails to link:
g++'s linker says "kernel.cpp:12: undefined reference to `helper(float)'" (emulator), ptxas says
"Unresolved extern function '_Z6helperf'" (GPU path, no separate compilation). Both become one
message naming the function and, when the tool gives none, the first line of the student's code
that calls it.
"""
from __future__ import annotations

import re

from . import messages as M

# ld: "/box/kernel.cpp:12: undefined reference to `helper(float)'" or, without debug lines, just the reference.
_LD = re.compile(r"(?:(?P<file>[^\s:]+):(?P<line>\d+): )?undefined reference to [`'‘](?P<symbol>[^'’]+)['’]")
_PTXAS = re.compile(r"Unresolved extern function '(?P<symbol>[^']+)'")
_NAME_LEN = re.compile(r"^_Z(\d+)")


def _name(symbol: str) -> str:
    """The bare function name of `helper(float)`, `_Z6helperf` or `helper`."""
    m = _NAME_LEN.match(symbol)
    if m:
        return symbol[m.end():m.end() + int(m.group(1))]
    return symbol.split("(", 1)[0].split("::")[-1].strip()


def _display(symbol: str) -> str:
    return symbol if "(" in symbol else _name(symbol)


def use_line(source: str, name: str) -> int | None:
    """The first line of `source` that calls `name` (not its declaration), else the first that names it."""
    first = None
    call = re.compile(r"\b" + re.escape(name) + r"\s*\(")
    declaration = re.compile(r"^\s*(?:extern\s+\"C\"\s+)?(?:(?:__\w+__|static|inline|const|unsigned|signed|\w+[\w:<>]*)"
                             r"[\s\*&]+)+" + re.escape(name) + r"\s*\([^;{]*\)\s*;")
    for number, text in enumerate(source.splitlines(), 1):
        if not call.search(text):
            continue
        if first is None:
            first = number
        if not declaration.match(text):
            return number
    return first


def undefined_references(log: str, source: str, student_files: tuple[str, ...],
                         unplaced: tuple[str, ...] = ()) -> list[tuple[int | None, M.Message]]:
    """(line, message) for each distinct missing function in a linker or ptxas `log`
    (M.COMPILE_MESSAGE["undefined_reference"]).

    `student_files`: basenames that are the student's file in the tool's locations (their line
    numbers are the student's); `source`: the student's code, to find the calling line otherwise.
    `unplaced`: names whose reference comes from generated code (the kernel, called by the
    harness): their line is looked up in `source` whatever the tool says.
    """
    found: dict[str, int | None] = {}
    for raw in log.splitlines():
        m = _LD.search(raw) or _PTXAS.search(raw)
        if not m:
            continue
        symbol = m.group("symbol")
        line = None
        groups = m.groupdict()
        if groups.get("line") and (groups.get("file") or "").rsplit("/", 1)[-1] in student_files \
                and _name(symbol) not in unplaced:
            line = int(groups["line"])
        if symbol not in found or (found[symbol] is None and line is not None):
            found[symbol] = line
    return [(line if line is not None else use_line(source, _name(symbol)),
             M.COMPILE_MESSAGE["undefined_reference"](function=_display(symbol)))
            for symbol, line in found.items()]
