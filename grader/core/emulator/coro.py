"""The kernel's coroutine copy: how coro mode runs a kernel whose only synchronisation is __syncthreads().

The fiber scheduler gives every thread of a block a stack and switches stacks twice per thread and
barrier; for a tree reduction most of its time is those switches and the cold stack tops they resume
(README, "Measured"). A C++ coroutine keeps only the locals that live across a suspension, in a frame
the compiler lays out, and resuming it is a call. So where the kernel's reach allows it
(reach.Reach.barriers_in_body: only plain __syncthreads(), all written in the kernel's own body, no
atomics, volatile, fences or printf), the rewritten source gets a second definition of the kernel right
after the first, `wd_coro_<name>`: the same tokens, returning ::wd::WdCoTask, each `return` a
`co_return`, and each __syncthreads() a `co_await` (a macro redefined around the copy). `#line`
directives give the copy the original's line numbers, so a fault or a message in it names the
student's line. src/coro.cpp runs a block's copies between barriers and reruns the test with fibers
whenever the block does anything else (threads at different barriers, some exited while others wait):
the fiber scheduler still judges every irregular kernel, and the copy decides no verdict.

No copy (None) when the copy cannot be made safely from tokens alone: the kernel is declared more
than once or named anywhere else, its return type is not a plain `void`, its body holds a lambda
(a `co_await` inside one would not compile), or a macro of the file contains `return` (it may
expand inside the copy, where `return` is not allowed).
"""
from __future__ import annotations

import re

from .jobs import coro_name
from .tokens import Token, directive_text, matching, tokenize

_DEFINE = re.compile(r"^\s*#\s*define\b")

_BEFORE_SUBSCRIPT = frozenset({")", "]"})
_NOT_OPERANDS = frozenset({"return", "case", "else", "do", "co_return", "co_await", "throw"})

_PROLOGUE = ('#pragma push_macro("__syncthreads")\n#undef __syncthreads\n'
             "#define __syncthreads() co_await ::wd::wd_co_barrier(WD_SITE, __LINE__)\n")
_EPILOGUE = '#pragma pop_macro("__syncthreads")\n'


def _is_lambda_bracket(prev: Token | None) -> bool:
    """Whether a `[` after `prev` opens a lambda (or an attribute) rather than a subscript."""
    if prev is None:
        return True
    if prev.kind in ("number", "string", "char"):
        return False
    if prev.kind == "ident":
        return prev.text in _NOT_OPERANDS
    return prev.text not in _BEFORE_SUBSCRIPT


def with_coroutine_copy(text: str, kernel_name: str) -> str | None:
    """`text` (the rewritten student source, rewrite.rewrite) with the kernel's coroutine copy inserted
    after its definition, or None when no safe copy can be made (see the module docstring).

    The result has more lines than `text`; `#line` directives keep every line of the original's code
    at its own number, and the copy's lines at the kernel's."""
    tokens = tokenize(text)
    if any(t.kind == "pp" and _DEFINE.match(directive_text(t.text)) and "return" in _identifiers(t.text)
           for t in tokens):
        return None
    uses = [i for i, t in enumerate(tokens) if t.kind == "ident" and t.text == kernel_name]
    if len(uses) != 1 or uses[0] + 1 >= len(tokens) or tokens[uses[0] + 1].text != "(":
        return None
    name = uses[0]
    # The head: from the end of the previous declaration to the name.
    head = name
    while head > 0 and tokens[head - 1].text not in (";", "}", "{") and tokens[head - 1].kind != "pp":
        head -= 1
    voids = [k for k in range(head, name) if tokens[k].kind == "ident" and tokens[k].text == "void"]
    if len(voids) != 1 or "__global__" not in {tokens[k].text for k in range(head, name)}:
        return None
    close_params = matching(tokens, name + 1)
    if close_params >= len(tokens):
        return None
    open_body = close_params + 1
    while open_body < len(tokens) and tokens[open_body].text not in ("{", ";"):
        open_body += 1
    if open_body >= len(tokens) or tokens[open_body].text != "{":
        return None
    close_body = matching(tokens, open_body)
    if close_body >= len(tokens):
        return None
    edits: list[tuple[int, int, str]] = [(tokens[voids[0]].start, tokens[voids[0]].end, "::wd::WdCoTask"),
                                         (tokens[name].start, tokens[name].end, coro_name(kernel_name))]
    # C++ linkage for the copy (extern "C++" around it, `extern "C"` off its head): g++ names a
    # coroutine's parts after the function's symbol, and with C linkage the names collide.
    for k in range(head, name - 1):
        if tokens[k].text == "extern" and tokens[k + 1].kind == "string":
            edits[:0] = [(tokens[k].start, tokens[k + 1].end, "")]
    previous = None
    for k in range(open_body + 1, close_body):
        tok = tokens[k]
        if tok.kind == "pp":
            continue
        if tok.text == "[" and _is_lambda_bracket(previous):
            return None
        if tok.kind == "ident" and tok.text == "return":
            edits.append((tok.start, tok.end, "co_return"))
        previous = tok
    start, end = tokens[head].start, tokens[close_body].end
    copy, pos = [], start
    for s, e, new in sorted(edits):
        copy.append(text[pos:s])
        copy.append(new)
        pos = e
    copy.append(text[pos:end])
    return (text[:end] + "\n" + _PROLOGUE + 'extern "C++" {\n' + f"#line {tokens[head].line}\n" + "".join(copy)
            + "\n}\n" + _EPILOGUE + f"#line {tokens[close_body].line}\n" + text[end:])


def _identifiers(directive: str) -> set[str]:
    """The identifiers of a directive's text (after its `#`)."""
    return {t.text for t in tokenize(directive_text(directive).lstrip().lstrip("#")) if t.kind == "ident"}
