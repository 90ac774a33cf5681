"""Static checks on declarations, over rewrite.py's tokens: linkage, attributes, `__constant__` writes.

- `extern "C"` (and `extern "C" { ... }` blocks) is accepted on functions, as nvcc and NVRTC accept it
  on kernels and device functions. What the old blanket refusal of `extern` guarded against is a
  C-linkage *declaration* of a function the file does not define: it links against the C library
  (`extern "C" int unlinkat(...)`) behind the back of the name checks. Such a declaration is
  refused; so is an extern variable.
- Attributes (`__attribute__((...))`, `[[...]]`) are accepted when every one is harmless
  (HARMLESS_ATTRIBUTES); those that run code before main, move code to other sections, alias
  symbols or hide accesses from the race check (constructor, section, alias, weak, no_sanitize,
  cleanup, ...) are refused, each by name.
- A kernel or device function that writes a `__constant__` variable is refused, as nvcc refuses
  it (`expression must be a modifiable lvalue`).
"""
from __future__ import annotations

from .. import messages as M
from .tokens import matching

# Attributes that change nothing a kernel could use to reach the host, the start-up code or the
# checks: inlining, unused-variable warnings, alignment, branch hints, purity.
HARMLESS_ATTRIBUTES = frozenset({
    "always_inline", "noinline", "unused", "used", "maybe_unused", "aligned", "nodiscard", "likely",
    "unlikely", "noreturn", "const", "pure", "hot", "cold", "flatten", "warn_unused_result", "deprecated",
    "fallthrough", "packed", "nonnull", "returns_nonnull", "format", "may_alias", "noipa", "noclone",
    "artificial", "gnu_inline", "leaf", "nothrow", "malloc", "assume_aligned", "alloc_size",
})
EXTERN_MESSAGE = M.COMPILE_MESSAGE["extern_c"]

# Identifiers that take a parenthesised argument in a declaration's head without being its name.
_NOT_A_NAME = frozenset({"__launch_bounds__", "__align__", "__attribute__", "__attribute", "alignas", "decltype",
                         "__declspec", "sizeof", "alignof", "noexcept", "throw", "operator"})
_ASSIGN_OPS = ("=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=")


def _normalise(name: str) -> str:
    return name[2:-2] if name.startswith("__") and name.endswith("__") and len(name) > 4 else name


def _attribute_names(tokens, k: int, inner_end: int, read_name) -> list[str]:
    """The names of a comma-separated attribute list in tokens[k:inner_end]; arguments in parentheses are
    skipped. `read_name(tokens, k, inner_end)` returns the name starting at tokens[k] and its last index."""
    names, expect_name = [], True
    while k < inner_end:
        t = tokens[k]
        if t.text == "(":
            k = matching(tokens, k) + 1
            continue
        if t.text == ",":
            expect_name = True
        elif expect_name:
            name, k = read_name(tokens, k, inner_end)
            names.append(name)
            expect_name = False
        k += 1
    return names


def _gnu_name(tokens, k: int, inner_end: int) -> tuple[str, int]:
    return (tokens[k].text if tokens[k].kind == "ident" else "__attribute__"), k


def _cxx11_name(tokens, k: int, inner_end: int) -> tuple[str, int]:
    if tokens[k].kind != "ident":
        return "[[...]]", k
    name = tokens[k].text
    while k + 3 < inner_end and tokens[k + 1].text == ":" and tokens[k + 2].text == ":" \
            and tokens[k + 3].kind == "ident":
        name += "::" + tokens[k + 3].text
        k += 3
    return name, k


def gnu_attributes(tokens, i: int) -> tuple[list[str], int]:
    """The attribute names of `__attribute__((a, b(1)))` starting at tokens[i], and the index after it.

    A malformed list yields the name "__attribute__" itself (refused: not harmless)."""
    if i + 2 >= len(tokens) or tokens[i + 1].text != "(" or tokens[i + 2].text != "(":
        return ["__attribute__"], i + 1
    end = matching(tokens, i + 1)
    return _attribute_names(tokens, i + 3, matching(tokens, i + 2), _gnu_name), end + 1


def cxx11_attributes(tokens, i: int) -> tuple[list[str], int]:
    """The attribute names of `[[gnu::a, b(1)]]` starting at tokens[i] (names keep their namespace)."""
    end = matching(tokens, i)
    return _attribute_names(tokens, i + 2, matching(tokens, i + 1), _cxx11_name), end + 1


def refused_attributes(names: list[str]) -> list[str]:
    """The names of `names` that are not harmless (`gnu::` and `__x__` spellings normalised)."""
    refused = []
    for name in names:
        base = name.split("::")[-1] if name.startswith(("gnu::", "clang::")) or "::" not in name else name
        if _normalise(base) not in HARMLESS_ATTRIBUTES:
            refused.append(name)
    return refused


def linkage_problems(tokens) -> list[tuple[int, str]]:
    """(line, message) for every extern declaration that is refused (see the module docstring).

    Accepted: `extern __shared__`, `extern "C"` on a function definition, and `extern "C"` on a
    function declaration whose definition is in the file; the same inside `extern "C" { ... }`.
    """
    problems: list[tuple[int, str]] = []
    declared: list[tuple[str, int]] = []  # C-linkage functions declared without a body
    defined: set[str] = set()
    c_blocks: list[int] = []  # indices of the `}` closing each extern "C" block
    i, n = 0, len(tokens)
    while i < n:
        tok = tokens[i]
        if tok.kind == "pp":
            i += 1
            continue
        if c_blocks and i == c_blocks[-1]:
            c_blocks.pop()
            i += 1
            continue
        if tok.text == "extern":
            after = [t.text for t in tokens[i + 1:i + 4]]
            if "__shared__" in after:
                i += 1
                continue
            if i + 1 < n and tokens[i + 1].kind == "string" and tokens[i + 1].text in ('"C"', '"C++"'):
                if i + 2 < n and tokens[i + 2].text == "{":
                    c_blocks.append(matching(tokens, i + 2))
                    i += 3
                    continue
                i = _declaration(tokens, i + 2, tok.line, declared, defined, problems)
                continue
            problems.append((tok.line, EXTERN_MESSAGE()))
            i += 1
            continue
        if c_blocks and tok.kind == "ident":
            if tok.text in ("typedef", "struct", "union", "enum", "class", "namespace", "template", "using",
                            "static_assert"):
                i = _skip_statement(tokens, i)
            else:
                i = _declaration(tokens, i, tok.line, declared, defined, problems)
            continue
        if tok.kind == "ident" and i + 1 < n and tokens[i + 1].text == "(" and tok.text not in _NOT_A_NAME:
            close = matching(tokens, i + 1)
            if _body_follows(tokens, close + 1):
                defined.add(tok.text)
        i += 1
    for name, line in declared:
        if name not in defined:
            problems.append((line, M.COMPILE_MESSAGE["extern_c_undefined"](name=name)))
    return problems


def _skip_statement(tokens, i: int) -> int:
    """The index after the statement starting at tokens[i] (its braces skipped, up to its `;`)."""
    while i < len(tokens) and tokens[i].text != ";":
        if tokens[i].text in ("{", "(", "["):
            i = matching(tokens, i)
        elif tokens[i].text == "}":
            return i  # the end of the enclosing block
        i += 1
    return i + 1


def _body_follows(tokens, k: int) -> bool:
    """Whether a function body `{` follows a parameter list ending before tokens[k] (qualifiers skipped)."""
    while k < len(tokens) and tokens[k].text in ("const", "noexcept", "volatile", "&", "override", "final"):
        k += 1
    return k < len(tokens) and tokens[k].text == "{"


def _declaration(tokens, i: int, line: int, declared, defined, problems) -> int:
    """Examine the C-linkage declaration starting at tokens[i]; return the index after it."""
    n = len(tokens)
    k = i
    while k < n:
        t = tokens[k]
        if t.text in (";", "{", "}"):
            break
        if t.kind == "ident" and k + 1 < n and tokens[k + 1].text == "(" and t.text in _NOT_A_NAME:
            k = matching(tokens, k + 1) + 1
            continue
        if t.kind == "ident" and k + 1 < n and tokens[k + 1].text == "(":
            close = matching(tokens, k + 1)
            if _body_follows(tokens, close + 1):
                defined.add(t.text)
                body = close + 1
                while tokens[body].text != "{":
                    body += 1
                return matching(tokens, body) + 1
            declared.append((t.text, line))
            while close < n and tokens[close].text != ";":
                close += 1
            return close + 1
        k += 1
    if k < n and tokens[k].text == "}":
        return k  # the end of the enclosing extern "C" block
    problems.append((line, EXTERN_MESSAGE()))  # a variable (or anything else that is not a function)
    return k + 1


def _with_brace_depth(tokens):
    """(index, token, depth) for each token, depth being the number of `{` open once the token is
    read (0 at file scope; a `{` counts itself, a `}` no longer counts what it closes)."""
    depth = 0
    for k, t in enumerate(tokens):
        if t.text == "{":
            depth += 1
        elif t.text == "}":
            depth -= 1
        yield k, t, depth


def constant_write_problems(tokens) -> list[tuple[int, str]]:
    """(line, message) for each write to a `__constant__` variable inside a function body:
    `c = v`, `c[i] += v`, `s.a = v`, `++c`, `c--` (what nvcc refuses or cannot store)."""
    names: set[str] = set()
    for k, t, depth in _with_brace_depth(tokens):
        if t.text == "__constant__" and depth == 0:
            j = k + 1
            while j < len(tokens) and tokens[j].text not in (";", "=", "[", "{", ","):
                j += 1
            if j > k + 1 and tokens[j - 1].kind == "ident":
                names.add(tokens[j - 1].text)
    if not names:
        return []
    problems: list[tuple[int, str]] = []
    for k, t, depth in _with_brace_depth(tokens):
        if depth == 0 or t.kind != "ident" or t.text not in names:
            continue
        if k > 0 and tokens[k - 1].text in (".", ">") and tokens[k - 1].kind == "punct":
            continue  # a member of another object that happens to share the name
        before = "".join(x.text for x in tokens[max(0, k - 2):k])
        if before.endswith(("++", "--")) and not before.endswith(("+++", "---")):
            problems.append((t.line, M.COMPILE_MESSAGE["constant_write"](name=t.text)))
            continue
        j = k + 1
        while j < len(tokens):  # the lvalue's path: [index], .member
            if tokens[j].text == "[":
                j = matching(tokens, j) + 1
            elif tokens[j].text == "." and j + 1 < len(tokens) and tokens[j + 1].kind == "ident":
                j += 2
            else:
                break
        op = _operator_at(tokens, j)
        if op in _ASSIGN_OPS or op in ("++", "--"):
            problems.append((t.line, M.COMPILE_MESSAGE["constant_write"](name=t.text)))
    return problems


def _operator_at(tokens, j: int) -> str:
    """The operator spelled by adjacent punctuation tokens from tokens[j] (at most 3 characters)."""
    text = ""
    end = None
    while j < len(tokens) and tokens[j].kind == "punct" and len(text) < 3 and (end is None or tokens[j].start == end):
        text += tokens[j].text
        end = tokens[j].end
        j += 1
    for op in ("<<=", ">>=", "++", "--", "==", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "="):
        if text.startswith(op):
            return op
    return text
