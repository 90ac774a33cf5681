"""grid.sync() in a kernel file: where it is called, and the GPU build's runtime check of it.

`cg::this_grid().sync()` (or `grid.sync()` / `cg::sync(grid)` on a `grid_group`) needs a cooperative
launch: in an ordinary one the GPU traps at the call (CUDA_ERROR_LAUNCH_FAILED, measured on the H200
with nvcc and cuLaunchKernel). The emulator's runtime reports the call when a thread reaches it. On
the GPU, cooperative_groups' own check cannot be trusted: once a warm child has launched a cubin
cooperatively, its later ordinary launches pass grid.sync() (docs/gpu-validation.md, 2026-12-02). So
the GPU build checks each call itself, when a thread reaches it (`instrument`): GPU_PRELUDE's
`__warpdrill_grid_sync_check(line)` traps unless the module is the one the child launches
cooperatively (`__warpdrill_cooperative_launch`, set to 1 by the child in that module only), after
writing the call's line into host memory the child reads after the trap (child.py). A call that no
thread reaches is no longer refused.
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


# Written before the student's lines (nvcc.translation_unit), so no macro of theirs can change it.
GPU_PRELUDE = """\
__device__ int* __warpdrill_grid_sync_report;  /* mapped host memory: the line of the call (child.py) */
__device__ int __warpdrill_cooperative_launch;  /* 1 in the module the child launches cooperatively */
static __device__ __forceinline__ void __warpdrill_grid_sync_check(int line) {
  if (!__warpdrill_cooperative_launch) {
    int* report = __warpdrill_grid_sync_report;
    if (report) { atomicCAS(report, 0, line); __threadfence_system(); }
    __trap();
  }
}
"""
_QUALIFIERS = re.compile(r"(?:\b\w+\s*::\s*)+$")
# `obj.` / `p->` / `a.b.` before a call: the member accesses that lead to the grid_group.
_MEMBER_CHAIN = re.compile(r"(?:\b[A-Za-z_]\w*\s*(?:\.|->)\s*)+$")


def _close(text: str, open_at: int) -> int | None:
    """Index of the `)` closing the `(` at open_at in blanked text, or None."""
    depth = 0
    for k in range(open_at, len(text)):
        if text[k] == "(":
            depth += 1
        elif text[k] == ")":
            depth -= 1
            if depth == 0:
                return k
    return None


def instrument(source: str) -> str | None:
    """`source` with every grid barrier call C (as grid_sync_line finds them) made
    `(__warpdrill_grid_sync_check(LINE), C)`, or None when it calls none. Lines are kept.

    A call reached through a member (`obj.grid.sync()`, `p->grid.sync()`) is wrapped from the start
    of its chain of member accesses (`(check, obj.grid.sync())`); a chain with an index or a call
    in it (`a[i].grid.sync()`) is left as it is, and cooperative_groups' own check, unreliable in a
    warm child, then decides.
    """
    text = _NOISE.sub(_blank, source)
    names = {m.group("name") for m in _GRID_VAR.finditer(text)} | {m.group("name") for m in _DECLARED.finditer(text)}
    patterns = [r"this_grid\s*\(\s*\)\s*\.\s*sync\s*\("]
    for name in sorted(names):
        patterns += [rf"\b{re.escape(name)}\s*\.\s*sync\s*\(", rf"\bsync\s*\(\s*{re.escape(name)}\s*\)"]
    calls = []
    for p in patterns:
        for m in re.finditer(p, text):
            start = m.start()
            q = _QUALIFIERS.search(text, 0, start)
            if q and q.end() == start:
                start = q.start()
            chain = _MEMBER_CHAIN.search(text, 0, start)
            if chain and chain.end() == start:
                start = chain.start()
            if text[:start].rstrip().endswith((".", "->")):
                continue  # the chain goes through an index or a call
            end = _close(text, m.end() - 1 if text[m.end() - 1] == "(" else text.index("(", m.start()))
            if end is not None:
                calls.append((start, end + 1))
    if not calls:
        return None
    out, pos = [], 0
    for start, end in sorted(set(calls)):
        if start < pos:
            continue  # inside a call already wrapped
        line = text.count("\n", 0, start) + 1
        out += [source[pos:start], f"(__warpdrill_grid_sync_check({line}), ", source[start:end], ")"]
        pos = end
    return "".join(out) + source[pos:]
