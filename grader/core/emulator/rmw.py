"""Marking the non-atomic read-modify-writes of memory in the student's code, for the emulator's plain runs.

`count[0] += 1;`, `hist[b]++`, `--*p`, `s[t] = s[t] + x` and `sum += v` on a `__shared__` or
`__device__` variable are a load and a store on a GPU: threads that update one word between the two
lose each other's updates. The emulator runs a block's threads one after another, so without help
such a kernel computes the right sum. `rmw_edits` wraps the target of each such update in
`::wd::wd_rmw(...)` (include/warpdrill/detail/rmw.hpp), whose operators load, let the runtime decide
whether another thread runs before the store (src/rmw.cpp), and store: a racing kernel loses
updates in a plain run (WRONG_ANSWER where the problem has no race check) and a kernel without races
computes what it did, since every switch the runtime makes is one the hardware can make too.

What is marked (a target is a postfix expression of the statement's own text):
- the left side of a compound assignment (`+=` ... `>>=`) and the operand of `++`/`--`,
- the left side of `x = x op ...` whose right side starts with the same tokens and a binary operator,
when the target reaches memory through a pointer or an array: a subscript or `->` in its outermost
postfix chain, a leading unary `*` (`*p += v`, `(*p)++`), or a plain name declared `__shared__` or
`__device__` in the file. Local arrays are marked too and skipped by the runtime (their words are
the thread's own). Code inside macros is not seen (a macro's body is one preprocessor token).

Only `wd` and `wd_` names are written, which no macro of the student's can change (rewrite.RESERVED_NAME).
"""
from __future__ import annotations

from dataclasses import dataclass

# Multi-character operators, longest first (the tokenizer gives one token per punctuation character).
_OPERATORS = (">>=", "<<=", "->*", "...", "++", "--", "->", "::", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
              "==", "!=", "<=", ">=", "&&", "||", "<<", ">>")
COMPOUND = frozenset({"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="})
_BINARY = frozenset({"+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>"})
# Identifiers that end no operand: a `*` after them is a dereference, not a multiplication.
_KEYWORDS = frozenset({"return", "case", "sizeof", "throw", "else", "do", "co_return", "co_yield", "new", "delete",
                       "operator", "typedef", "using", "const", "volatile", "auto", "static", "inline", "constexpr",
                       "int", "float", "double", "char", "long", "short", "unsigned", "signed", "bool", "void",
                       "__device__", "__global__", "__host__", "__shared__", "__constant__", "template", "typename",
                       "struct", "class", "union", "enum", "if", "while", "for", "switch", "goto"})


@dataclass
class _Lex:
    text: str
    kind: str
    start: int
    end: int


def _lexemes(tokens) -> list[_Lex]:
    """The tokens with adjacent punctuation joined into C++ operators (max munch); directives dropped."""
    out: list[_Lex] = []
    i, n = 0, len(tokens)
    while i < n:
        t = tokens[i]
        if t.kind in ("pp", "splice"):
            i += 1
            continue
        if t.kind == "punct":
            joined = None
            for op in _OPERATORS:
                k = len(op)
                if i + k <= n and all(tokens[i + j].kind == "punct" and tokens[i + j].text == op[j]
                                      and (j == 0 or tokens[i + j].start == tokens[i + j - 1].end) for j in range(k)):
                    joined = op
                    break
            if joined:
                out.append(_Lex(joined, "punct", t.start, tokens[i + len(joined) - 1].end))
                i += len(joined)
                continue
        out.append(_Lex(t.text, t.kind, t.start, t.end))
        i += 1
    return out


def _match_back(lx: list[_Lex], k: int) -> int:
    """Index of the opener matching the closer at k (-1 if unbalanced)."""
    pair = {")": "(", "]": "["}[lx[k].text]
    closer, depth = lx[k].text, 0
    while k >= 0:
        if lx[k].text == closer:
            depth += 1
        elif lx[k].text == pair:
            depth -= 1
            if depth == 0:
                return k
        k -= 1
    return -1


def _match_forward(lx: list[_Lex], k: int) -> int:
    """Index of the closer matching the opener at k (-1 if unbalanced)."""
    pair = {"(": ")", "[": "]"}[lx[k].text]
    opener, depth = lx[k].text, 0
    while k < len(lx):
        if lx[k].text == opener:
            depth += 1
        elif lx[k].text == pair:
            depth -= 1
            if depth == 0:
                return k
        k += 1
    return -1


def _ends_operand(t: _Lex) -> bool:
    return (t.kind == "ident" and t.text not in _KEYWORDS) or t.kind in ("number", "string", "char") \
        or t.text in (")", "]")


@dataclass
class _Target:
    first: int  # lexeme indices, inclusive
    last: int
    memory: bool  # reaches memory through a pointer, an array or a shared/device variable


def _target_before(lx: list[_Lex], last: int, names: frozenset) -> _Target | None:
    """The postfix expression ending at lexeme `last`, with a leading unary `*` (None if there is none)."""
    k, memory = last, False
    while k >= 0:
        t = lx[k]
        if t.text == "]":
            m = _match_back(lx, k)
            if m <= 0:
                return None
            memory, k = True, m - 1
            continue
        if t.text == ")":
            m = _match_back(lx, k)
            if m < 0:
                return None
            if m > 0 and (lx[m - 1].text in (")", "]") or (lx[m - 1].kind == "ident" and lx[m - 1].text not in _KEYWORDS)):
                k = m - 1  # a call: its callee comes before
                continue
            if m > 0 and lx[m - 1].text in (">", ">>"):
                return None  # a template's call (`f<N>(x)[i]`, a cast): not worth a guess
            first = m  # a parenthesised primary expression
            memory |= m + 1 < len(lx) and lx[m + 1].text == "*"
            break
        if t.kind == "ident" and t.text not in _KEYWORDS:
            first = k
            if k >= 2 and lx[k - 1].text in (".", "->"):
                memory |= lx[k - 1].text == "->"
                k -= 2
                continue
            while first >= 2 and lx[first - 1].text == "::" and lx[first - 2].kind == "ident":
                first -= 2
            if first == k and t.text in names:
                memory = True
            break
        return None
    else:
        return None
    if first >= 1 and lx[first - 1].text == "*" and (first < 2 or not _ends_operand(lx[first - 2])):
        first, memory = first - 1, True
    return _Target(first, last, memory)


def _target_after(lx: list[_Lex], first: int, names: frozenset) -> _Target | None:
    """The unary expression of `*`s and a postfix expression starting at lexeme `first` (for `++x`)."""
    k, memory = first, False
    while k < len(lx) and lx[k].text == "*":
        k, memory = k + 1, True
    if k >= len(lx):
        return None
    t = lx[k]
    if t.text == "(":
        m = _match_forward(lx, k)
        if m < 0:
            return None
        memory |= k + 1 < len(lx) and lx[k + 1].text == "*"
        last = m
    elif t.kind == "ident" and t.text not in _KEYWORDS:
        while k + 2 < len(lx) and lx[k + 1].text == "::" and lx[k + 2].kind == "ident":
            k += 2
        last = k
        memory |= lx[k].text in names and first == k
    else:
        return None
    k = last + 1
    while k < len(lx):
        if lx[k].text in ("[", "("):
            m = _match_forward(lx, k)
            if m < 0:
                return None
            memory |= lx[k].text == "["
            last = k = m
            k += 1
        elif lx[k].text in (".", "->") and k + 1 < len(lx) and lx[k + 1].kind == "ident":
            memory |= lx[k].text == "->"
            last = k = k + 1
            k += 1
        else:
            break
    return _Target(first, last, memory)


def memory_names(tokens) -> frozenset:
    """Names declared `__shared__` or `__device__` (a variable, not a function) anywhere in the source."""
    names = set()
    lx = _lexemes(tokens)
    for i, t in enumerate(lx):
        if t.text not in ("__shared__", "__device__"):
            continue
        depth = 0
        for k in range(i + 1, len(lx)):
            u = lx[k]
            if u.text in ("(", "[", "{"):
                if u.text == "(" and depth == 0 and lx[k - 1].kind == "ident":
                    break  # a function (or a __device__ variable with a constructor: not one of ours)
                depth += 1
            elif u.text in (")", "]", "}"):
                depth -= 1
                if depth < 0:
                    break
            elif u.text == ";" and depth == 0:
                break
            if depth == 0 and u.kind == "ident" and k + 1 < len(lx) and lx[k + 1].text in ("[", ";", ",", "="):
                names.add(u.text)
    return frozenset(names)


def _same(lx: list[_Lex], a: _Target, b_first: int) -> bool:
    n = a.last - a.first + 1
    return b_first + n <= len(lx) and all(lx[a.first + j].text == lx[b_first + j].text for j in range(n))


def rmw_edits(tokens) -> list[tuple[int, int, str]]:
    """Insertions (start, end == start, text) that wrap every marked target (see the module docstring).

    `tokens` are rewrite.tokenize's. The insertions never add a newline. Raises nothing.
    """
    lx = _lexemes(tokens)
    names = memory_names(tokens)
    targets: dict[tuple[int, int], _Target] = {}
    for i, t in enumerate(lx):
        if t.kind != "punct":
            continue
        target = None
        if t.text in COMPOUND and i > 0:
            target = _target_before(lx, i - 1, names)
        elif t.text in ("++", "--"):
            if i > 0 and _ends_operand(lx[i - 1]):
                target = _target_before(lx, i - 1, names)
            elif i + 1 < len(lx):
                target = _target_after(lx, i + 1, names)
        elif t.text == "=" and i > 0:
            left = _target_before(lx, i - 1, names)
            if left and left.memory and _same(lx, left, i + 1):
                after = i + 1 + (left.last - left.first + 1)
                if after < len(lx) and lx[after].text in _BINARY:
                    target = left
        if target and target.memory:
            targets[(target.first, target.last)] = target
    edits = []
    for target in targets.values():
        edits.append((lx[target.first].start, lx[target.first].start, "::wd::wd_rmw("))
        edits.append((lx[target.last].end, lx[target.last].end, ")"))
    return edits
