"""Where a kernel file calls a cooperative-groups grid barrier (`grid.sync()`), found in its text.

`cg::this_grid().sync()` (or `grid.sync()` / `cg::sync(grid)` on a `grid_group`) needs a cooperative
launch: in an ordinary one the GPU traps at the call (CUDA_ERROR_LAUNCH_FAILED, measured on the H200
with nvcc and cuLaunchKernel). The emulator's runtime reports the call when a thread reaches it; the
GPU backend refuses an ordinary launch of a kernel whose file calls it (gpu.py), because its warm
child ran such a kernel to completion on the H200 (docs/gpu-validation.md, 2026-12-02).
"""
from __future__ import annotations

import re

# Comments and string/character literals become spaces (newlines kept, so lines keep their numbers).
_NOISE = re.compile(r"""//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'""", re.DOTALL)
_GRID_VAR = re.compile(r"\b(?:(?:\w+::)*grid_group|auto)\s*&?\s*(?P<name>[A-Za-z_]\w*)\s*(?:=|\{|\()\s*"
                       r"(?:\w+::)*this_grid\s*\(\s*\)")
_DECLARED = re.compile(r"\b(?:\w+::)*grid_group\s*&?\s*(?P<name>[A-Za-z_]\w*)\b")


def _blank(match: re.Match) -> str:
    return re.sub(r"[^\n]", " ", match.group())


def grid_sync_line(source: str) -> int | None:
    """The 1-based line of the first grid barrier call in `source` (C++/CUDA text), or None.

    Calls found: `this_grid().sync()`, `NAME.sync()` and `sync(NAME)` where NAME is declared as a
    `grid_group` (a variable or parameter) or initialised from `this_grid()`. Text in comments and
    string literals is ignored.
    """
    text = _NOISE.sub(_blank, source)
    names = {m.group("name") for m in _GRID_VAR.finditer(text)} | {m.group("name") for m in _DECLARED.finditer(text)}
    patterns = [r"this_grid\s*\(\s*\)\s*\.\s*sync\s*\("]
    for name in sorted(names):
        patterns += [rf"\b{re.escape(name)}\s*\.\s*sync\s*\(", rf"\bsync\s*\(\s*{re.escape(name)}\s*\)"]
    found = [m.start() for p in patterns for m in re.finditer(p, text)]
    return text.count("\n", 0, min(found)) + 1 if found else None
