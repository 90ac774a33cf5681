"""Token pasting (`##`) in the student's macros, checked by following every name it can build.

`#define KERNEL_NAME(T) scale_##T` or `#define CAT(a, b) a##b` are ordinary CUDA macros; the danger
of `##` is a name no check saw spelled: `CAT(sys, tem)("...")` calls system(). So every paste is
evaluated where its result is known: a paste of two literal names in the macro's body at once; a
paste of a parameter at each invocation, with the argument as written (`##` does not expand it); and
through a macro that forwards its own parameter to a pasting one (`#define XCAT(a, b) CAT(a, b)`), at
each invocation of that macro, with the argument expanded (an object-like macro of one name or number,
`__LINE__` and `__COUNTER__` as a number). Every name built is checked as if it were written
(checks._forbidden). What cannot be followed is refused: a paste of a punctuator (`<` ## `:` builds a
digraph), an argument of more than one token, a pasting macro named without arguments (passed to
another macro), a forwarded argument that is a function-like or longer macro.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .. import messages as M
from .tokens import Token, directive_text, tokenize

UNCHECKABLE = M.COMPILE_MESSAGE["token_pasting_unfollowed"]()
_DEFINE = re.compile(r"^\s*#\s*define\s+([A-Za-z_]\w*)(\()?")
_NUMBER_MACROS = frozenset({"__LINE__", "__COUNTER__"})
_MAX_CHAINS = 64  # per macro: forwarding deeper than this is refused


@dataclass
class _Macro:
    name: str
    line: int
    params: list[str] | None  # None: object-like
    body: list[Token]
    chains: list[list[tuple]] = field(default_factory=list)  # operands: ("lit", text) | ("param", i, expanded)


@dataclass
class Pasting:
    """What the pastes of a file build: `problems` [(line, message)], and `names` {macro: names built}."""

    problems: list[tuple[int, str]] = field(default_factory=list)
    names: dict[str, set[str]] = field(default_factory=dict)


def _macros(tokens: list[Token]) -> dict[str, _Macro]:
    macros = {}
    for tok in tokens:
        if tok.kind != "pp":
            continue
        text = directive_text(tok.text)
        m = _DEFINE.match(text)
        if not m:
            continue
        params = None
        rest = text[m.end():]
        if m.group(2):
            close = rest.find(")")
            if close < 0:
                continue
            params = [p.strip() for p in rest[:close].split(",") if p.strip()]
            params = ["__VA_ARGS__" if p == "..." else p for p in params]
            rest = rest[close + 1:]
        macros[m.group(1)] = _Macro(m.group(1), tok.line, params, tokenize(rest))
    return macros


def _is_paste(body: list[Token], k: int) -> bool:
    return (k + 1 < len(body) and body[k].text == "#" and body[k + 1].text == "#"
            and body[k + 1].start == body[k].end)


def _chains(macro: _Macro, out: Pasting) -> None:
    """The macro's own `a ## b ## c` chains; literal-only ones are checked at once."""
    body = macro.body
    k = 0
    while k < len(body):
        if not _is_paste(body, k):
            k += 1
            continue
        operands = [k - 1]
        while _is_paste(body, k):
            operands.append(k + 2)
            k += 3  # past `#`, `#` and the operand
        chain = []
        for j in operands:
            if j < 0 or j >= len(body) or body[j].kind not in ("ident", "number"):
                out.problems.append((macro.line, UNCHECKABLE))
                chain = None
                break
            t = body[j].text
            chain.append(("param", macro.params.index(t), False) if macro.params and t in macro.params else ("lit", t))
        if chain is not None:
            macro.chains.append(chain)


def _invocations(tokens: list[Token], name: str):
    """(index after the name, argument token lists) of each `name(...)` in `tokens`; None for a bare name."""
    for k, tok in enumerate(tokens):
        if tok.kind != "ident" or tok.text != name:
            continue
        if k + 1 >= len(tokens) or tokens[k + 1].text != "(":
            yield tok, None
            continue
        args, depth, cur = [], 0, []
        for t in tokens[k + 1:]:
            if t.text == "(":
                depth += 1
                if depth == 1:
                    continue
            elif t.text == ")":
                depth -= 1
                if depth == 0:
                    break
            if t.text == "," and depth == 1:
                args.append(cur)
                cur = []
                continue
            cur.append(t)
        args.append(cur)
        yield tok, args


def _expand(text: str, macros: dict[str, _Macro]) -> str | None:
    """An expanded argument: a number stays, an object-like macro of one name or number is followed."""
    for _ in range(8):
        if text in _NUMBER_MACROS:
            return "0"
        m = macros.get(text)
        if m is None:
            return text
        if m.params is not None or len(m.body) != 1 or m.body[0].kind not in ("ident", "number"):
            return None
        text = m.body[0].text
    return None


def check_pastes(tokens: list[Token], forbidden) -> Pasting:
    """Follow every paste of the file's macros (see the module docstring). `forbidden(name)` gives the
    message for a name that may not be written, or None."""
    out = Pasting()
    macros = _macros(tokens)
    for m in macros.values():
        _chains(m, out)
    code = [t for t in tokens if t.kind != "pp"]
    todo = [m for m in macros.values() if m.chains]
    done: set[tuple[str, int]] = set()
    while todo:
        m = todo.pop()
        for c, chain in enumerate(m.chains):
            if (m.name, c) in done:
                continue
            done.add((m.name, c))
            if all(op[0] == "lit" for op in chain):
                _built(m.line, m.name, "".join(op[1] for op in chain), forbidden, out)
                continue
            sites = [(None, t, a) for t, a in _invocations(code, m.name)]
            for other in macros.values():
                if other is not m:
                    sites += [(other, t, a) for t, a in _invocations(other.body, m.name)]
            for host, tok, args in sites:
                line = host.line if host else tok.line
                if args is None:
                    out.problems.append((line, UNCHECKABLE))
                    continue
                derived = _evaluate(chain, m, args, host, macros)
                if derived is None:
                    out.problems.append((line, UNCHECKABLE))
                elif host is not None and any(op[0] == "param" for op in derived):
                    if len(host.chains) >= _MAX_CHAINS:
                        out.problems.append((host.line, UNCHECKABLE))
                    elif derived not in host.chains:
                        host.chains.append(derived)
                        todo.append(host)
                else:
                    name = "".join(op[1] for op in derived)
                    _built(line, m.name, name, forbidden, out)
                    if host is not None:
                        out.names.setdefault(host.name, set()).add(name)
    return out


def _evaluate(chain, m: _Macro, args: list[list[Token]], host: _Macro | None, macros) -> list[tuple] | None:
    """The chain with `m`'s parameters replaced by this invocation's arguments (None: cannot follow)."""
    params = m.params or []
    if "__VA_ARGS__" in params:
        fixed = len(params) - 1
        args = args[:fixed] + ([[t for a in args[fixed:] for t in a]] if len(args) > fixed else [[]])
        if len(args) > fixed and len([a for a in args[fixed:] if a]) > 1:
            return None
    result = []
    for op in chain:
        if op[0] == "lit":
            result.append(op)
            continue
        _, index, expanded = op
        arg = args[index] if index < len(args) else []
        if not arg:
            continue  # pasting with an empty argument: the other operand alone
        if len(arg) != 1 or arg[0].kind not in ("ident", "number"):
            return None
        text = arg[0].text
        if host is not None and host.params and text in host.params:
            result.append(("param", host.params.index(text), True))
            continue
        if expanded:
            text = _expand(text, macros)
            if text is None:
                return None
        result.append(("lit", text))
    return result


def _built(line: int, macro: str, name: str, forbidden, out: Pasting) -> None:
    out.names.setdefault(macro, set()).add(name)
    message = forbidden(name) if name[:1].isalpha() or name[:1] == "_" else None
    if message:
        out.problems.append((line, message))
