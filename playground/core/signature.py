"""The parameters of the playground's kernel, read from its source, and argument rows that follow them.

When the student changes the kernel's signature (e.g. `iota(int* out, int n)` to `hello(int* out)`)
and keeps the old rows, the run would fail at the harness's call as a compile error; instead the rows
are checked against the parameters before anything runs (an argument error), and the form's rows are
re-derived from the parameters, keeping each old row whose name is still a parameter.

The source is hostile: each scan is linear in its length and looks at HEAD_CHARS characters after
each `__global__`."""
from __future__ import annotations

import re
from dataclasses import dataclass

from grader.core import messages as M
from grader.core.kernel import C_TYPES

from .errors import PlaygroundSpecError

HEAD_CHARS = 2000  # characters after `__global__` in which the kernel's parameter list must end
_GLOBAL = re.compile(r"\b__global__\b")
_LAUNCH_BOUNDS = re.compile(r"__launch_bounds__\s*\([^()]*\)")
_WORD = re.compile(r"[A-Za-z_]\w*")
_QUALIFIERS = {"const", "volatile", "__restrict__", "__restrict", "restrict", "signed", "struct"}
_DTYPE_OF = {c: key for key, c in C_TYPES.items()}
_DTYPE_OF.update({"unsigned": "uint32", "long": "int64", "unsigned long": "uint64", "size_t": "uint64",
                  "char": "int8", "int8_t": "int8", "uint8_t": "uint8", "int16_t": "int16", "uint16_t": "uint16",
                  "int32_t": "int32", "uint32_t": "uint32", "int64_t": "int64", "uint64_t": "uint64"})

E_MISMATCH = M.PLAYGROUND["signature_mismatch"]


@dataclass(frozen=True)
class Parameter:
    """One parameter of the kernel: its name, "input" (const T*), "output" (T*) or "scalar", and its
    dtype (a key of grader.core.kernel.C_TYPES; None for a type the playground cannot pass)."""

    name: str
    kind: str
    dtype: str | None


def _parameter(text: str, index: int) -> Parameter:
    text = text.split("=", 1)[0].strip()
    pointer = "*" in text or "[" in text
    words = _WORD.findall(text.replace("*", " ").split("[", 1)[0])
    name = words[-1] if len(words) > 1 else f"arg{index}"
    type_words = [w for w in (words[:-1] if len(words) > 1 else words) if w not in _QUALIFIERS]
    const = "const" in _WORD.findall(text.split("*", 1)[0]) if pointer else False
    kind = ("input" if const else "output") if pointer else "scalar"
    return Parameter(name, kind, _DTYPE_OF.get(" ".join(type_words)))


def kernel_parameters(source: str, name: str) -> tuple[Parameter, ...] | None:
    """The parameters of the first `__global__` function named `name` in `source`, in order; None when
    no such definition is found or its parameter list does not end within HEAD_CHARS characters."""
    for found in _GLOBAL.finditer(source):
        head = _LAUNCH_BOUNDS.sub(" ", source[found.end():found.end() + HEAD_CHARS])
        paren = head.find("(")
        if paren < 0:
            continue
        words = _WORD.findall(head[:paren])
        if not words or words[-1] != name:
            continue
        close = head.find(")", paren)
        if close < 0:
            return None
        inside = head[paren + 1:close].strip()
        if inside in ("", "void"):
            return ()
        return tuple(_parameter(part, i) for i, part in enumerate(inside.split(",")))
    return None


def rows_for(params: tuple[Parameter, ...], old_rows: list[dict]) -> list[dict]:
    """Argument rows (the form's dicts) for `params`: an old row of the same name is kept with its kind
    and type brought to the parameter's; a new one gets the first old array's size, or 256."""
    by_name = {row.get("name"): row for row in old_rows}
    size = next((row.get("size") for row in old_rows if row.get("kind") != "scalar" and row.get("size")), "256")
    rows = []
    for p in params:
        old = dict(by_name.get(p.name) or {})
        row = {"name": p.name, "kind": p.kind, "dtype": p.dtype or old.get("dtype") or "int32",
               "size": "", "init": "", "value": ""}
        if p.kind == "scalar":
            row["value"] = old.get("value", "") if old.get("kind") == "scalar" else ""
        else:
            keep = old.get("kind") in ("input", "output")
            row["size"] = old.get("size", "") if keep else size
            row["init"] = old.get("init", "") if keep else ("zeros" if p.kind == "output" else "range")
            row["value"] = old.get("value", "") if keep else ""
        rows.append(row)
    return rows


def check_rows_follow(params: tuple[Parameter, ...] | None, kernel: str, count: int) -> None:
    """Refuse `count` argument rows for a kernel with other than that many parameters (an argument
    error, not a compile error). Unknown parameters (None) pass: the compiler then has the word.

    Raises PlaygroundSpecError("args", E_MISMATCH, ...)."""
    if params is None or len(params) == count:
        return
    names = ", ".join(p.name for p in params) or "—"
    raise PlaygroundSpecError("args", E_MISMATCH, kernel=kernel, params=len(params), names=names, rows=count)
