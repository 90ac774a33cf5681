"""Line-preserving source rewriting for the emulator.

The student's CUDA C++ is tokenised (tokens.py), checked (checks.py: includes, directives, host
escapes, attributes, linkage), its kernel's reach decides how it runs (reach.py: a loop per block,
fibers, one worker), and it is rewritten so that it compiles as plain C++17 against the emulator's
runtime:

- `__shared__ T name[dims];` inside a function becomes a reference bound to per-block storage,
  `T (&name)[dims] = *::wd::wd_shared_var<T[dims], SITE, __LINE__>("name");`
- `extern __shared__ T name[];` becomes `T* const name = ::wd::wd_dynamic_shared<T>("name");`
- a `main` function is renamed so that a whole program still compiles.
- `return;` in the kernel's body becomes `return ::wd::wd_kernel_exit(__LINE__);`, so the
  scheduler knows where a thread left: lanes that skip a barrier and exit *after* it while their
  warp waits there are a divergent barrier, a tail guard `if (i >= n) return;` above it is not.
- the target of a non-atomic read-modify-write of memory (`count[0] += 1`, `hist[b]++`) becomes
  `::wd::wd_rmw(count[0])`, so that a plain run can lose updates as a GPU does (rmw.py).

What is written into the student's code names only `wd` and `wd_` names, which the student may
not use (RESERVED_NAME), so no macro of theirs can change it.
No newline is ever added or removed, so line N of the compiled file is line N of the student's.
The checks are defence in depth; the sandbox is the security boundary.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .. import messages as M
from . import checks, coro, reach, rmw
from .checks import ALLOWED_INCLUDES, FORBIDDEN_IDENTIFIERS, RESERVED_NAME, Problem  # noqa: F401 (the module's API)
from .tokens import Token, tokenize  # noqa: F401 (the module's API)

# CUDA's 16-byte vector types and explicit 16-byte alignment (a reinterpret_cast to one of these
# makes the compiler use aligned SSE moves, which need 16-byte aligned addresses).
VECTOR16_TOKENS = re.compile(r"^(?:(?:float|int|uint|long|ulong)4|(?:double|longlong|ulonglong)[24]|"
                             r"__align__|alignas|__builtin_assume_aligned)$")


@dataclass
class Rewritten:
    """The result of `rewrite`: the C++ text, the problems found and what the kernel uses."""

    text: str
    problems: list[Problem] = field(default_factory=list)
    needs_fibers: bool = False  # the kernel reaches a barrier, warp operation, shared memory or atomics (reach.py)
    serial: bool = False  # atomics/volatile/fences: run blocks on one worker thread
    # 16-byte vector types (float4, int4, double2, ...) or 16-byte alignment: buffers must start
    # 16-byte aligned as cudaMalloc's do, or the CPU's aligned vector moves fault.
    vector_loads: bool = False
    shared_sites: int = 0  # number of __shared__ declarations rewritten
    # The text with the kernel's coroutine copy (coro.py) for coro mode, or None when it has none.
    coro_text: str | None = None
    # Sites declared inside other __global__ functions: not part of the kernel's static shared memory.
    other_kernel_sites: set[int] = field(default_factory=set)



def _statement_bounds(tokens: list[Token], i: int) -> tuple[int, int]:
    """Indices [start, end] of the declaration statement containing token i (end is its ';')."""
    start = i
    while start > 0 and tokens[start - 1].text not in (";", "{", "}", ":") and tokens[start - 1].kind != "pp":
        start -= 1
    end = i
    depth = 0
    while end < len(tokens):
        t = tokens[end].text
        if t in "([":
            depth += 1
        elif t in ")]":
            depth -= 1
        elif t == ";" and depth == 0:
            break
        elif t in "{}" and depth == 0:
            break
        end += 1
    return start, end


def _split_declarators(toks: list[Token]) -> tuple[list[Token], list[list[Token]]] | None:
    """Split `T a[4], b` into the specifier tokens and each declarator's tokens."""
    depth = 0
    first_name = None
    for k, t in enumerate(toks):
        if t.text in "([":
            if t.text == "[" and depth == 0 and first_name is None:
                first_name = k - 1
            depth += 1
        elif t.text in ")]":
            depth -= 1
        elif depth == 0 and t.text in (",", "=") and first_name is None:
            first_name = k - 1
    if first_name is None:
        first_name = len(toks) - 1
    if first_name < 1 or toks[first_name].kind != "ident":
        return None
    spec = toks[:first_name]
    decls: list[list[Token]] = [[]]
    depth = 0
    for t in toks[first_name:]:
        if t.text in "([":
            depth += 1
        elif t.text in ")]":
            depth -= 1
        if t.text == "," and depth == 0:
            decls.append([])
        else:
            decls[-1].append(t)
    return spec, decls


def _join(toks: list[Token]) -> str:
    return " ".join(t.text for t in toks)


def _rewrite_shared(source: str, tokens: list[Token], i: int, site: int, problems: list[Problem]):
    """Replacement for the __shared__ declaration at token i: (start, end, text, sites used)."""
    start, end = _statement_bounds(tokens, i)
    stmt = tokens[start:end]
    line = tokens[i].line
    is_extern = any(t.text == "extern" for t in stmt)
    kept: list[Token] = []
    skip_parens = 0
    for k, t in enumerate(stmt):
        if skip_parens:
            if t.text == "(":
                skip_parens += 1
            elif t.text == ")":
                skip_parens -= 1
                if skip_parens == 1:
                    skip_parens = 0
            continue
        if t.text in ("__shared__", "extern", "static"):
            continue
        if t.text == "__align__" and k + 1 < len(stmt) and stmt[k + 1].text == "(":
            skip_parens = 1  # drop __align__(n): our arenas are aligned for any scalar type
            continue
        kept.append(t)
    split = _split_declarators(kept)
    if split is None:
        problems.append(Problem(line, M.COMPILE_MESSAGE["shared_declaration"]()))
        return None
    spec, decls = split
    type_text = _join(spec)
    parts = []
    used = 0
    for d in decls:
        if not d or d[0].kind != "ident":
            problems.append(Problem(line, M.COMPILE_MESSAGE["shared_declaration"]()))
            return None
        name = d[0].text
        if any(t.text == "=" for t in d):
            problems.append(Problem(line, M.COMPILE_MESSAGE["shared_initializer"](name=name)))
            return None
        dims = _join(d[1:])
        if is_extern:
            parts.append(f'{type_text}* const {name} = ::wd::wd_dynamic_shared<{type_text}>("{name}");')
        elif dims:
            parts.append(f'{type_text} (&{name}){dims} = *::wd::wd_shared_var<{type_text}{dims}, {site + used}, __LINE__>("{name}");')
            used += 1
        else:
            parts.append(f'{type_text}& {name} = *::wd::wd_shared_var<{type_text}, {site + used}, __LINE__>("{name}");')
            used += 1
    original = source[stmt[0].start:tokens[end].end if end < len(tokens) else stmt[-1].end]
    text = " ".join(parts) + "\n" * original.count("\n")
    return stmt[0].start, (tokens[end].end if end < len(tokens) else stmt[-1].end), text, used


def rewrite(source: str, kernel_name: str) -> Rewritten:
    """Check and rewrite the student's source (see the module docstring). Never raises on bad code.

    Returns the rewritten text, the static checks' problems (checks.check, plus a __shared__
    declaration this rewrite cannot read and a missing kernel), and how the kernel runs
    (reach.kernel_reach: `needs_fibers`, `serial`). Raises RuntimeError only when the rewrite itself
    breaks its line invariant (our bug)."""
    tokens = tokenize(source)
    problems: list[Problem] = checks.check(tokens)
    result = Rewritten(text=source)
    edits, site, found_kernel = _edits(source, tokens, kernel_name, problems, result)
    if not found_kernel and not problems:
        problems.append(Problem(1, M.COMPILE_MESSAGE["no_kernel"](name=kernel_name)))
    how = reach.kernel_reach(tokens, kernel_name)
    result.needs_fibers = not how.loop
    result.serial = how.serial
    result.vector_loads = any(t.kind == "ident" and VECTOR16_TOKENS.match(t.text) for t in tokens)
    edits += rmw.rmw_edits(tokens)  # non-atomic read-modify-writes of memory (rmw.py)
    out = []
    pos = 0
    for s, e, new in sorted(edits):
        if s < pos:
            continue
        out.append(source[pos:s])
        out.append(new)
        pos = e
    out.append(source[pos:])
    result.text = "".join(out)
    unique = {(p.line, p.message): p for p in problems}  # one message per line and kind
    result.problems = sorted(unique.values(), key=lambda p: p.line)
    result.shared_sites = site
    if result.text.count("\n") != source.count("\n"):  # a broken invariant is our bug, not the student's
        raise RuntimeError("emulator rewrite changed the number of lines")
    if how.barriers_in_body and not result.problems:
        result.coro_text = coro.with_coroutine_copy(result.text, kernel_name)
    return result


def _edits(source: str, tokens: list[Token], kernel_name: str, problems: list[Problem],
           result: Rewritten) -> tuple[list[tuple[int, int, str]], int, bool]:
    """The rewrite's edits (start, end, replacement), the number of __shared__ sites and whether the
    kernel was found; notes other kernels' sites in `result.other_kernel_sites`."""
    depth = 0
    edits: list[tuple[int, int, str]] = []
    site = 0
    found_kernel = False
    prev_global = False
    kernel_head = False  # between the kernel's name and its body (or the `;` of a declaration)
    body_depth = None  # the brace depth outside the kernel's body while inside it
    other_head = False  # between another __global__ function's name and its body
    other_depth = None  # the brace depth outside another __global__ function's body while inside it
    braces: list[bool] = []  # open braces: True for a scope, False for an extern "C" block
    linkage_brace = -1  # the index of the `{` opening an extern "C" block
    for i, tok in enumerate(tokens):
        if tok.kind in ("pp", "splice") or tok.text == "\\":
            continue
        text = tok.text
        if tok.kind == "ident":
            if text == "__global__":
                prev_global = True
            elif text == kernel_name and prev_global and i + 1 < len(tokens) and tokens[i + 1].text == "(":
                found_kernel = True
                kernel_head = True
            elif prev_global and depth == 0 and i + 1 < len(tokens) and tokens[i + 1].text == "(" \
                    and text not in ("__launch_bounds__", "__align__", "__attribute__", "alignas"):
                other_head = True
            if text == "extern" and i + 2 < len(tokens) and tokens[i + 1].kind == "string" \
                    and tokens[i + 2].text == "{":
                linkage_brace = i + 2  # extern "C" { ... } declares at file scope: not a nesting level
            if text == "return" and body_depth is not None and i + 1 < len(tokens) and tokens[i + 1].text == ";":
                edits.append((tok.start, tok.end, "return ::wd::wd_kernel_exit(__LINE__)"))
            if text == "main" and depth == 0 and i + 1 < len(tokens) and tokens[i + 1].text == "(":
                edits.append((tok.start, tok.end, "wd_student_main"))
            if text == "__shared__":
                if depth == 0:
                    problems.append(Problem(tok.line, M.COMPILE_MESSAGE["file_scope_shared"]()))
                    continue
                if edits and edits[-1][1] > tok.start:
                    continue  # a second __shared__ in a statement already rewritten
                edit = _rewrite_shared(source, tokens, i, site, problems)
                if edit:
                    s, e, new, used = edit
                    edits.append((s, e, new))
                    if other_depth is not None:
                        result.other_kernel_sites.update(range(site, site + used))
                    site += used
        elif text == "{":
            if i == linkage_brace:
                braces.append(False)
                continue
            braces.append(True)
            if kernel_head:
                body_depth, kernel_head = depth, False
            if other_head:
                other_depth, other_head = depth, False
            depth += 1
            prev_global = False
        elif text == "}":
            if braces and not braces.pop():
                continue  # the end of an extern "C" block
            depth -= 1
            if depth == body_depth:
                body_depth = None
            if depth == other_depth:
                other_depth = None
        elif text == ";":
            prev_global = False
            if kernel_head and depth == 0:
                kernel_head = False  # a declaration: its definition comes later
            if depth == 0:
                other_head = False
    return edits, site, found_kernel
