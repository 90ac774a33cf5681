"""What the kernel reaches, and so how the emulator runs it: a loop per block, fibers, one worker.

A kernel whose reach (its body, every function and macro it names, transitively, by name) has no
barrier, no warp operation (shuffle, vote, ballot, match, cooperative groups) and no shared memory
needs no fiber per thread: the runtime runs each block's threads as a plain loop (`mode fast` in the
job file, src/scheduler.cpp's run_block_fast). Atomics, `volatile` and fences make threads able to
wait for each other through memory: fibers (so a spin-wait makes progress) on one worker thread
(results would otherwise depend on timing), as does `printf` (one worker: a deterministic log).

Names are matched by spelling, so overloads, methods of the same name and macros count together: a
name reached is every definition of it. What cannot be bounded that way makes the whole file the
reach (the rule before this module, still right, only slower): a feature outside every function body
and macro (in a struct's methods, a file-scope initialiser, a `volatile` global), a struct body that
names a function or macro with a feature, or a macro with a feature used outside every function
(it may define one). A wrong "loop" answer costs no verdict for barriers and warp operations: the
loop mode stops at the first one and the backend reruns the test with fibers (EXIT_RERUN_FIBERS).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from . import pasting
from .tokens import Token, directive_text, tokenize

# Tokens that need the fiber scheduler (threads that wait for each other).
SYNC_TOKENS = re.compile(
    r"^(__syncthreads\w*|__syncwarp|__shfl\w*|__ballot_sync|__any_sync|__all_sync|__activemask|"
    r"__match\w*|__reduce\w*_sync|this_thread_block|tiled_partition|coalesced_threads|this_grid|shfl\w*|sync)$"
)
# Tokens after which blocks must run on one worker thread (results would depend on timing).
SERIAL_TOKENS = re.compile(r"^(atomic\w*|volatile|__threadfence\w*)$")
SHARED_TOKEN = "__shared__"

# Qualifiers between a function's parameter list and its body.
_AFTER_PARAMS = frozenset({"const", "noexcept", "override", "final", "volatile", "mutable", "&", "&&"})
_DEFINE = re.compile(r"^\s*#\s*define\s+([A-Za-z_]\w*)")


@dataclass
class Features:
    """What a stretch of code uses."""

    sync: bool = False  # a barrier or warp operation
    serial: bool = False  # atomics, volatile, fences or printf
    shared: bool = False  # __shared__ memory
    other_sync: bool = False  # a sync token other than a plain __syncthreads (coroutine copies have only those)

    def add(self, text: str) -> None:
        """Note the identifier `text`."""
        sync = bool(SYNC_TOKENS.match(text))
        self.sync |= sync
        self.other_sync |= sync and text != "__syncthreads"
        self.serial |= bool(SERIAL_TOKENS.match(text)) or text == "printf"
        self.shared |= text == SHARED_TOKEN

    def merge(self, other: "Features") -> None:
        self.sync |= other.sync
        self.serial |= other.serial
        self.shared |= other.shared
        self.other_sync |= other.other_sync

    def any(self) -> bool:
        return self.sync or self.serial or self.shared


@dataclass
class _Region:
    features: Features = field(default_factory=Features)
    names: set[str] = field(default_factory=set)  # identifiers it mentions


@dataclass
class Reach:
    """How the kernel must run (see the module docstring).

    `loop`: no fibers needed (run each block's threads as a plain loop); `serial`: one worker thread;
    `exact`: the reach was bounded by the kernel's call graph (False: the whole file counted);
    `names`: the functions and macros reached (the kernel's own name included), when exact;
    `barriers_in_body`: the kernel's only synchronisation is plain __syncthreads() written in its own
    body (or in macros it uses there), none in a function it calls: it can have a coroutine copy
    (coro.py). Exact reaches only, without atomics, volatile, fences or printf."""

    loop: bool
    serial: bool
    shared: bool
    exact: bool
    names: frozenset[str] = frozenset()
    barriers_in_body: bool = False


def _function_name(tokens: list[Token], brace: int) -> str | None:
    """The name of the function whose body opens at tokens[brace], or None when it is not a plain
    function definition (a struct, an initialiser, an operator, a template specialisation)."""
    k = brace - 1
    while k >= 0 and tokens[k].text in _AFTER_PARAMS:
        k -= 1
    if k < 0 or tokens[k].text != ")":
        return None
    depth = 0
    while k >= 0:
        depth += {")": 1, "(": -1}.get(tokens[k].text, 0)
        if depth == 0:
            break
        k -= 1
    if k < 1 or tokens[k - 1].kind != "ident" or tokens[k - 1].text == "operator":
        return None
    return tokens[k - 1].text


def _macro(tok: Token) -> tuple[str, list[Token]] | None:
    """(name, body tokens) of a #define directive, else None."""
    text = directive_text(tok.text)
    m = _DEFINE.match(text)
    return (m.group(1), tokenize(text[m.end():])) if m else None


def kernel_reach(tokens: list[Token], kernel_name: str) -> Reach:
    """The reach of the `__global__` function `kernel_name` in the source's `tokens` (tokens.tokenize).

    Never raises on bad code: what it cannot read falls back to the whole file (exact=False)."""
    regions: dict[str, _Region] = {}
    loose = _Region()  # file scope outside every function body and macro
    in_struct = _Region()  # bodies of structs, initialisers and the like at file scope
    whole = Features()
    depth = 0  # brace depth, not counting namespace and extern "C" braces
    transparent: list[bool] = []  # open braces: True for namespace / extern "C"
    current: _Region | None = None  # the file-scope construct being read
    pending: list[str] = []  # identifiers at file scope since the last `;` or `}`: a head, or a declaration

    heads: set[str] = set()  # every identifier at file scope, function heads included

    def flush(region: _Region) -> None:
        heads.update(pending)
        for name in pending:
            region.features.add(name)
            region.names.add(name)
        pending.clear()

    for i, tok in enumerate(tokens):
        if tok.kind == "pp":
            macro = _macro(tok)
            if macro:
                name, body = macro
                region = regions.setdefault(name, _Region())
                for t in body:
                    if t.kind == "ident":
                        region.features.add(t.text)
                        region.names.add(t.text)
                        whole.add(t.text)
            continue
        text = tok.text
        if text == "{":
            opener = tokens[i - 1] if i else None
            if depth == 0 and opener is not None and (
                    (opener.kind == "string" and i >= 2 and tokens[i - 2].text == "extern")
                    or opener.text == "namespace" or (i >= 2 and tokens[i - 2].text == "namespace")):
                transparent.append(True)
                pending.clear()
                continue
            transparent.append(False)
            if depth == 0:
                name = _function_name(tokens, i)
                current = regions.setdefault(name, _Region()) if name else in_struct
                flush(current)
            depth += 1
            continue
        if text == "}":
            if transparent and transparent.pop():
                flush(loose)
                continue
            depth = max(0, depth - 1)
            if depth == 0:
                current = None
            continue
        if depth == 0 and text == ";":
            flush(loose)
            continue
        if tok.kind != "ident":
            continue
        whole.add(text)
        if depth > 0 and current is not None:
            current.features.add(text)
            current.names.add(text)
        else:
            pending.append(text)
    flush(loose)
    for name, built in pasting.check_pastes(tokens, lambda _name: None).names.items():  # `scale_##T` -> scale_float
        region = regions.setdefault(name, _Region())
        for text in built:
            region.features.add(text)
            region.names.add(text)
            whole.add(text)
    whole_reach = Reach(loop=not whole.any(), serial=whole.serial, shared=whole.shared, exact=False)
    if kernel_name not in regions:
        return whole_reach

    carrying = _carrying(regions)
    if loose.features.any() or in_struct.features.any() or in_struct.names & carrying:
        return whole_reach
    macro_names = {_macro(t)[0] for t in tokens if t.kind == "pp" and _macro(t)}
    if (heads | in_struct.names) & macro_names & carrying:
        return whole_reach

    seen, todo, features = set(), [kernel_name], Features()
    while todo:
        name = todo.pop()
        if name in seen or name not in regions:
            continue
        seen.add(name)
        features.merge(regions[name].features)
        todo.extend(regions[name].names - seen)
    syncing = _carrying(regions, lambda r: r.features.sync)
    functions = seen - macro_names - {kernel_name}
    in_body = features.sync and not features.other_sync and not features.serial and not (functions & syncing)
    return Reach(loop=not features.any(), serial=features.serial, shared=features.shared, exact=True,
                 names=frozenset(seen), barriers_in_body=in_body)


def _carrying(regions: dict[str, _Region], has=lambda r: r.features.any()) -> set[str]:
    """Names whose definitions reach a feature (`has`: any), directly or through other names (a fixpoint)."""
    carrying = {name for name, r in regions.items() if has(r)}
    changed = True
    while changed:
        changed = False
        for name, r in regions.items():
            if name not in carrying and r.names & carrying:
                carrying.add(name)
                changed = True
    return carrying
