"""Reading a template's JSON or YAML text without letting its nesting take the server down.

Python's json module and PyYAML's composer recurse once per level: a template text of 100,000 `[`
(or `- - - ...`, or a chain of YAML aliases) raised RecursionError in the template editor, a 500,
and the instructor lost what they had typed. A real template nests about 7 levels (zones, a zone,
its pool, an item, a difficulty list), so anything deeper than MAX_DEPTH is refused as
`TooDeepError`, which the readers turn into their own errors with a clear message:

    data, was_json = load_json_or_yaml(text)   # TooDeepError, or yaml.YAMLError as PyYAML raises it

The depth is estimated from the text first, in linear time and without recursion (`text_depth`), so
a hostile text is refused before any parser sees it; a parser's RecursionError is still caught, and
the loaded data is measured again (`data_depth`), for what the estimate cannot see (aliases).
Plain Python, no Django.
"""
from __future__ import annotations

import json
import re
import sys
from typing import Any

import yaml

MAX_DEPTH = 32  # levels of lists and mappings; a template needs about 7

# A line's leading block markers: each "- " (a sequence entry) or "? " / ": " (a complex key or its
# value) opens one more level on the same line ("- - x" is a list in a list).
_MARKERS = re.compile(r"(?:[-?:](?:[ \t]+|$))*")
_MARKER = re.compile(r"[-?:](?:[ \t]+|$)")
# A block mapping's key and its colon: quoted, or plain up to the first ": ".
_KEY = re.compile(r"""(?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^'"\s\[{#][^#]*?)[ \t]*:(?:[ \t]+|$)""")
# An anchor or a tag before a value (`&zone1 [...]`, `!!map {...}`).
_PROPERTIES = re.compile(r"^(?:[&!][^\s]*[ \t]+)*")
# A block scalar's header (`|`, `>-`, `|2+`), after which more-indented lines are text.
_BLOCK_SCALAR = re.compile(r"[|>][-+0-9]*[ \t]*(?:#.*)?$")


class TooDeepError(ValueError):
    """The text (or the data it loads as) nests deeper than MAX_DEPTH levels."""

    def __init__(self, depth: int = MAX_DEPTH):
        self.depth = depth
        super().__init__(f"nested deeper than {depth} levels")


def load_json_or_yaml(text: str) -> tuple[Any, bool]:
    """(the data of `text`, whether it was JSON): JSON first, else YAML.

    Raises TooDeepError when the text or its data nests deeper than MAX_DEPTH, and yaml.YAMLError for
    text that is neither JSON nor YAML."""
    if text_depth(text) > MAX_DEPTH:
        raise TooDeepError()
    try:
        try:
            return json.loads(text), True
        except ValueError:
            pass
        data = yaml.safe_load(text)
    except RecursionError:
        raise TooDeepError() from None
    if data_depth(data) > MAX_DEPTH:
        raise TooDeepError()
    return data, False


def text_depth(text: str) -> int:
    """How deep JSON or YAML text nests, estimated in linear time without recursion (generously: a
    level or two more than the data has, for a template's ordinary layout).

    In YAML's block style each deeper indentation opens a level, each leading "- " of a line one
    more, and a key after them one more (its mapping); a flow collection (`[...]`, `{...}`, and so all
    of JSON) opens one per bracket, quoted strings and comments skipped. Brackets inside a plain or
    block scalar (`title: Part [1`, the lines under `notes: |`) are text, not nesting. Anchors and
    aliases are not followed: `load_json_or_yaml` measures the loaded data for them."""
    deepest = flow = block = 0
    indents: list[int] = []
    literal_above = -1  # the indentation of a `key: |` line whose block scalar is being skipped
    for line in text.splitlines():
        stripped = line.lstrip(" ")
        start = 0
        if flow <= 0:  # a line in block context: its indentation and markers say where it is
            flow = 0
            indent = len(line) - len(stripped)
            if not stripped or stripped.startswith("#") or (literal_above >= 0 and indent > literal_above):
                continue
            literal_above = -1
            while indents and indents[-1] >= indent:
                indents.pop()
            indents.append(indent)
            markers = _MARKERS.match(stripped).group(0)
            rest = stripped[len(markers):]
            key = _KEY.match(rest)
            block = len(indents) + len(_MARKER.findall(markers)) + (1 if key else 0)
            value = _PROPERTIES.sub("", rest[key.end():] if key else rest)
            if _BLOCK_SCALAR.match(value):
                literal_above = indent
            if not value.startswith(("[", "{")):  # a plain or quoted scalar, or nothing: no flow here
                deepest = max(deepest, block)
                continue
            start = len(line) - len(value)
        flow, flow_deepest = _scan_flow(line[start:], flow)
        deepest = max(deepest, block + flow_deepest)
    return deepest


def _scan_flow(line: str, flow: int) -> tuple[int, int]:
    """(the flow bracket depth after `line`, the deepest it reached in it), starting at `flow`. A quote
    opens a string only where a scalar can start (not the apostrophe of "Students' quiz")."""
    deepest = flow
    quote = ""
    prev = " "
    i = 0
    while i < len(line):
        ch = line[i]
        if quote:
            if ch == "\\" and quote == '"':
                i += 2
                continue
            if ch == quote:
                quote = ""
        elif ch in "\"'" and prev in " \t[{,:":
            quote = ch
        elif ch == "#" and prev in " \t":
            break
        elif ch in "[{":
            flow += 1
            deepest = max(deepest, flow)
        elif ch in "]}":
            flow -= 1
        prev = ch
        i += 1
    return flow, deepest


def data_depth(data: Any) -> int:
    """How deep lists and mappings nest in loaded data (a scalar: 0, [] or {}: 1); no recursion.

    Shared values (YAML aliases) are measured once, so aliases that multiply a text's size do not
    multiply the time; a value that contains itself (`a: &a [*a]`) is infinitely deep (sys.maxsize)."""
    known: dict[int, int] = {}
    open_: set[int] = set()  # values whose children are still being measured
    stack: list[tuple[Any, bool]] = [(data, False)]
    while stack:
        value, children_done = stack.pop()
        if not isinstance(value, (list, dict)):
            continue
        children = [c for c in (value.values() if isinstance(value, dict) else value) if isinstance(c, (list, dict))]
        if children_done:
            open_.discard(id(value))
            known[id(value)] = 1 + max((known[id(c)] for c in children), default=0)
            continue
        if id(value) in known:
            continue
        if id(value) in open_:
            return sys.maxsize
        open_.add(id(value))
        stack.append((value, True))
        for c in children:
            if id(c) in open_:
                return sys.maxsize
            if id(c) not in known:
                stack.append((c, False))
    return known.get(id(data), 0)
