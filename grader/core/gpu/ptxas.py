"""Parse `nvcc -Xptxas -v` output: per-function registers, shared memory, stack, spills, barriers.

ptxas prints, for every function it compiles (CUDA 12-13 wording)::

    ptxas info    : Compiling entry function '_Z10vector_addPKfS0_Pfi' for 'sm_90'
    ptxas info    : Function properties for _Z10vector_addPKfS0_Pfi
        320 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
    ptxas info    : Used 40 registers, used 1 barriers, 320 bytes cumulative stack size, 1024 bytes smem

Older toolkits write "Used 12 registers, 1024 bytes smem, 372 bytes cmem[0]" without barriers;
a field that is absent means zero for smem and barriers and "unknown" for the rest.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

_ENTRY = re.compile(r"Compiling entry function '([^']+)' for '(sm_\w+)'")
_PROPERTIES = re.compile(r"Function properties for (\S+)")
_FRAME = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
_USED = re.compile(r"Used (\d+) registers")
_BARRIERS = re.compile(r"used (\d+) barriers")
_SMEM = re.compile(r"(\d+) bytes smem")
_NAME_LEN = re.compile(r"_Z(\d+)")


@dataclass
class FunctionReport:
    """What ptxas said about one function (an entry is a __global__ kernel)."""

    symbol: str  # the (mangled) symbol name
    entry: bool = False  # a kernel (entry function) rather than a non-inlined device function
    arch: str = ""  # e.g. "sm_90"
    registers: int | None = None  # per thread
    shared_static_bytes: int = 0  # static __shared__ per block
    stack_frame_bytes: int | None = None  # local memory per thread (stack frame)
    spill_stores_bytes: int | None = None
    spill_loads_bytes: int | None = None
    barriers: int = 0  # named barriers (bar.sync ids) used


def parse_ptxas(log: str) -> dict[str, FunctionReport]:
    """Every function in the log, by symbol, in order of appearance."""
    functions: dict[str, FunctionReport] = {}
    current: FunctionReport | None = None

    def get(symbol: str) -> FunctionReport:
        return functions.setdefault(symbol, FunctionReport(symbol=symbol))

    for line in log.splitlines():
        if m := _ENTRY.search(line):
            current = get(m.group(1))
            current.entry = True
            current.arch = m.group(2)
            continue
        if m := _PROPERTIES.search(line):
            current = get(m.group(1))
            continue
        if current is None:
            continue
        if m := _FRAME.search(line):
            current.stack_frame_bytes = int(m.group(1))
            current.spill_stores_bytes = int(m.group(2))
            current.spill_loads_bytes = int(m.group(3))
        if m := _USED.search(line):
            current.registers = int(m.group(1))
            if b := _BARRIERS.search(line):
                current.barriers = int(b.group(1))
            if s := _SMEM.search(line):
                current.shared_static_bytes = int(s.group(1))
    return functions


def unmangled_name(symbol: str) -> str:
    """The function name of a symbol: `_Z10vector_addPKfS0_Pfi` -> `vector_add`.

    Only global-namespace functions are unmangled (the kernel must be declared at file scope);
    an `extern "C"` symbol is its own name. Anything else is returned unchanged.
    """
    m = _NAME_LEN.match(symbol)
    if not m:
        return symbol
    length = int(m.group(1))
    start = m.end()
    return symbol[start:start + length]


def find_entry(functions: dict[str, FunctionReport], name: str) -> list[FunctionReport]:
    """The entry functions whose unmangled name is `name` (normally exactly one)."""
    return [f for f in functions.values() if f.entry and unmangled_name(f.symbol) == name]
