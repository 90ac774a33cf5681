"""A static proof that a kernel cannot race: every access to global memory is indexed by the thread's
unique 1-D global id, so no two threads ever touch the same element.

The check pass's race run (races.py: the ThreadSanitizer build, a compile and a slow run) can only
find races on memory that two threads share. A kernel such as

    __global__ void vector_add(const float* a, const float* b, float* c, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) c[i] = a[i] + b[i];
    }

shares none under a 1-D launch: thread t of block b touches element b * blockDim.x + t of each
buffer and nothing else. `indexed_by_global_id` proves that shape from the tokens (tokens.py) and
says False for anything it cannot read, so a False costs only time (the race run goes as before):

- the file is `#include` lines and the one `__global__ void` kernel, nothing else (no macros, no
  device functions or variables, no other kernels, no host globals the emulator would share);
- every pointer parameter appears only as `p[i]`, where `i` is a local declared once as
  `<integer type> i = blockIdx.x * blockDim.x + threadIdx.x;` (the factors and terms in either order)
  and never assigned, incremented, shadowed or taken the address of;
- the body names no shared memory, static or extern storage, atomics, inline assembly, casts that
  reinterpret memory, memory functions, user types, lambdas or templates.

The id is unique only when the launch is 1-D and its thread count fits the index's integer type:
checkplan.py asks `launch_is_1d` before it skips the race run.
"""
from __future__ import annotations

from .tokens import Token

# Integer types wide enough for a 1-D global id of any launch launch_is_1d accepts (< 2^31 threads).
_INDEX_TYPES = frozenset({"int", "unsigned", "long", "size_t", "int32_t", "uint32_t", "int64_t", "uint64_t",
                          "ptrdiff_t", "const", "signed"})
# The unique-id expression, as tokens: blockIdx.x * blockDim.x + threadIdx.x in its four orders.
_PRODUCTS = (("blockIdx", ".", "x", "*", "blockDim", ".", "x"), ("blockDim", ".", "x", "*", "blockIdx", ".", "x"))
_THREAD = ("threadIdx", ".", "x")
GLOBAL_ID_FORMS = frozenset(
    form for p in _PRODUCTS for q in (p, ("(", *p, ")"))
    for form in ((*q, "+", *_THREAD), (*_THREAD, "+", *q)))
# Tokens after which nothing above can be proven: other storage, other memory, other code.
_REFUSED = frozenset({
    "__shared__", "__device__", "__managed__", "static", "extern", "asm", "__asm__", "struct", "class", "union",
    "template", "typedef", "using", "namespace", "operator", "new", "delete", "reinterpret_cast", "const_cast",
    "memcpy", "memset", "memmove", "this_grid", "this_thread_block", "cooperative_groups",
})
_COMPOUND = frozenset("+-*/%&|^")
MAX_1D_THREADS = (1 << 31) - 1  # threads of a launch whose global id fits an int


def launch_is_1d(grid: tuple[int, int, int], block: tuple[int, int, int]) -> bool:
    """True when `grid` and `block` (x, y, z) are 1-D and the launch's thread count fits an int, so
    blockIdx.x * blockDim.x + threadIdx.x is different for every thread of it."""
    return (tuple(grid[1:]) == (1, 1) and tuple(block[1:]) == (1, 1)
            and 0 < grid[0] * block[0] <= MAX_1D_THREADS)


def indexed_by_global_id(tokens: list[Token], kernel_name: str) -> bool:
    """True when the file's `tokens` (tokens.tokenize) prove that the `__global__` function
    `kernel_name` touches global memory only at its thread's unique 1-D global id (the module
    docstring's rules). Never raises: whatever it cannot read is False."""
    try:
        found = _kernel(tokens, kernel_name)
        if found is None:
            return False
        params, body = found
        names = _param_names(params)
        return names is not None and _body_is_indexed(body, *names)
    except IndexError:
        return False


def _kernel(tokens: list[Token], name: str) -> tuple[list[Token], list[Token]] | None:
    """(parameter tokens, body tokens) of the file's only definition, `__global__ void name(...) {...}`,
    when everything else in the file is an #include directive."""
    code = []
    for tok in tokens:
        if tok.kind == "pp":
            if not tok.text.lstrip().lstrip("#").lstrip().startswith("include"):
                return None
        else:
            code.append(tok)
    if [t.text for t in code[:2]] != ["__global__", "void"]:
        return None
    k = 2
    if code[k].text == "__launch_bounds__":  # __launch_bounds__(256) or (256, 2): numbers only
        close = _matching(code, k + 1) if code[k + 1].text == "(" else None
        if close is None or any(t.kind != "number" and t.text != "," for t in code[k + 2:close]):
            return None
        k = close + 1
    if code[k].text != name or code[k + 1].text != "(":
        return None
    open_paren = k + 1
    close_paren = _matching(code, open_paren)
    if close_paren is None or code[close_paren + 1].text != "{":
        return None
    end = _matching(code, close_paren + 1)
    if end != len(code) - 1:
        return None
    return code[open_paren + 1:close_paren], code[close_paren + 2:end]


def _matching(code: list[Token], k: int) -> int | None:
    """The index of the bracket closing code[k] ('(' or '{'), or None."""
    pair = {"(": ")", "{": "}", "[": "]"}
    depth = 0
    for j in range(k, len(code)):
        text = code[j].text
        if text in pair:
            depth += 1
        elif text in pair.values():
            depth -= 1
            if depth == 0:
                return j if text == pair[code[k].text] else None
    return None


def _param_names(params: list[Token]) -> tuple[set[str], set[str]] | None:
    """(the names of the kernel's pointer parameters (one `*` each), the names of all of them), or
    None when a parameter is anything but a scalar or a plain pointer (references, arrays, pointers to
    pointers, defaults)."""
    pointers: set[str] = set()
    names: set[str] = set()
    groups: list[list[Token]] = [[]]
    for tok in params:
        if tok.text == ",":
            groups.append([])
        else:
            groups[-1].append(tok)
    for group in groups:
        if not group or group[-1].kind != "ident":
            return None
        stars = sum(1 for t in group if t.text == "*")
        if stars > 1 or any(t.kind != "ident" and t.text != "*" for t in group):
            return None
        names.add(group[-1].text)
        if stars:
            pointers.add(group[-1].text)
    return pointers, names


def _body_is_indexed(body: list[Token], pointers: set[str], params: set[str]) -> bool:
    """Whether every use of a pointer parameter in `body` is `p[id]` with `id` a global-id local
    (_global_ids) that nothing changes; `params`: every parameter's name (a global-id local that
    shares one could stand for the parameter outside its own block)."""
    if any(t.kind == "ident" and (t.text in _REFUSED or t.text.startswith("atomic")) for t in body):
        return False
    ids, declared_at = _global_ids(body)
    if not ids or ids & params:
        return False
    for k, tok in enumerate(body):
        if tok.kind != "ident":
            continue
        if tok.text in pointers:
            if k > 0 and body[k - 1].text == "&" or [t.text for t in body[k + 1:k + 4]] != ["[", body[k + 2].text, "]"] \
                    or body[k + 2].text not in ids:
                return False
        elif tok.text in ids and k not in declared_at and _changes(body, k):
            return False
    return True


def _global_ids(body: list[Token]) -> tuple[set[str], set[int]]:
    """Locals declared `<integer type> name = <global id>;` (and the indices of their names), each
    declared only there: a name declared twice is none of them."""
    ids: dict[str, int] = {}
    refused: set[str] = set()
    for k, tok in enumerate(body):
        if tok.kind != "ident" or k + 1 >= len(body) or body[k + 1].text != "=" or k == 0:
            continue
        j = k - 1
        while j >= 0 and body[j].kind == "ident" and body[j].text in _INDEX_TYPES:
            j -= 1
        if j == k - 1 or (j >= 0 and body[j].text not in (";", "{", "}")):
            continue
        end = k + 2
        while end < len(body) and body[end].text != ";":
            end += 1
        if tuple(t.text for t in body[k + 2:end]) in GLOBAL_ID_FORMS:
            if tok.text in ids:
                refused.add(tok.text)
            ids[tok.text] = k
    ids = {name: k for name, k in ids.items() if name not in refused}
    return set(ids), set(ids.values())


def _adjacent(a: Token, b: Token) -> bool:
    return a.end == b.start


def _changes(body: list[Token], k: int) -> bool:
    """Whether the occurrence body[k] of a global-id local may change it or stand for another
    variable: an assignment, compound assignment, increment or decrement, its address taken, or a
    declaration of the same name (after a type or a comma)."""
    nxt = body[k + 1] if k + 1 < len(body) else None
    nxt2 = body[k + 2] if k + 2 < len(body) else None
    prev = body[k - 1] if k > 0 else None
    prev2 = body[k - 2] if k > 1 else None
    logical_and = prev is not None and prev2 is not None and prev.text == prev2.text == "&" and _adjacent(prev2, prev)
    if prev is not None and (prev.text in ("&", ",") and not logical_and or prev.kind == "ident" and prev.text != "return"):
        return True
    if prev is not None and prev2 is not None and prev.text in "+-" and prev2.text == prev.text and _adjacent(prev2, prev):
        return True
    if nxt is None:
        return False
    if nxt.text == "=":
        return not (nxt2 is not None and nxt2.text == "=" and _adjacent(nxt, nxt2))
    if nxt2 is not None and _adjacent(nxt, nxt2):
        if nxt.text in _COMPOUND and nxt2.text == "=":
            return True
        if nxt.text in "+-" and nxt2.text == nxt.text:
            return True
        if nxt.text in "<>" and nxt2.text == nxt.text:
            nxt3 = body[k + 3] if k + 3 < len(body) else None
            return nxt3 is not None and nxt3.text == "=" and _adjacent(nxt2, nxt3)
    return False
