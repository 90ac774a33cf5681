"""Parsing a student's source takes linear time, however it is built (issue 13, finding 4).

`parse_launch_comment`'s multiline pattern was O(n^2) on blank lines (13-20 s per API request for a
65,000-line source, and again on every view of its page), and the worker's tokenizer had the same
shape (10-26 s for 21,800 unclosed `/*` lines or `R"(` repeated), outside the sandbox and before
any compile limit. Each test parses a pathological 64 KiB source and fails if that takes over a
second of this process's CPU time (0.1-0.3 s now; the quadratic versions took 10-26 s). CPU time,
not wall time, so that a machine shared by many test runs does not fail it; the timing is the point.
"""
from __future__ import annotations

import time

import pytest

from grader.core.emulator import rewrite
from grader.core.launch import launch_comment_line, parse_launch_comment

KIB_64 = 64 * 1024
LIMIT_S = 1.0


def _fill(unit: str, tail: str = "", head: str = "") -> str:
    """`head`, then `unit` repeated, then `tail`: 64 KiB at most."""
    return head + unit * ((KIB_64 - len(head) - len(tail)) // len(unit)) + tail


PATHOLOGICAL = {
    "blank lines": _fill("\n", "// launch: block=256"),
    "spaces and newlines": _fill(" \n"),
    "unclosed block comments": _fill("/*\n"),
    "unclosed raw strings": _fill('R"(\n'),
    "unclosed raw strings with a delimiter": _fill('R"abc(\n'),
    "unclosed strings on one line": _fill('"\\'),
    "escaped quotes on one line": _fill('\\"'),
    "unclosed char literals on one line": _fill("'\\"),
    "quotes of both kinds": _fill("'\"\\"),
    "launch line of blanks": "// launch: block=" + " " * (KIB_64 - 40) + "x",
    "launch line of keys": _fill("block= ", head="// launch: "),
    "launch line of parentheses": _fill("( ", head="// launch: block="),
    "many directives with comments": _fill("#define A /*\n"),
    "directive with unclosed strings": _fill('"\\', head="#define X "),
    "prefixed literals": _fill('u8"\\'),
}


@pytest.mark.parametrize("name", list(PATHOLOGICAL))
def test_the_launch_line_parses_in_linear_time(name):
    source = PATHOLOGICAL[name]
    assert len(source.encode()) <= KIB_64
    started = time.process_time()
    parse_launch_comment(source)
    launch_comment_line(source)
    elapsed = time.process_time() - started
    assert elapsed < LIMIT_S, f"{name}: {elapsed:.2f} s"


@pytest.mark.parametrize("name", list(PATHOLOGICAL))
def test_the_workers_tokenizer_runs_in_linear_time(name):
    source = PATHOLOGICAL[name]
    started = time.process_time()
    rewrite.tokenize(source)
    elapsed = time.process_time() - started
    assert elapsed < LIMIT_S, f"{name}: {elapsed:.2f} s"


@pytest.mark.parametrize("source, expected", [
    ("// launch: block=256 grid=ceil_div(n, 256)\n", {"block": "256", "grid": "ceil_div(n, 256)"}),
    ("x\n\n   //launch block=(16, 16) grid=(4,4) shared=1024", {"block": "16, 16", "grid": "4,4", "shared_bytes": "1024"}),
    ("// @launch: shared_bytes = 8*4  block = 32", {"shared_bytes": "8*4", "block": "32"}),
    ("// launch: block=a=b grid=3", {"grid": "3"}),
    ("// launch: block=xgrid=3", {"grid": "3"}),
    ("int x;\n", {}),
])
def test_the_launch_line_reads_as_before(source, expected):
    """The linear parser reads launch lines as the old pattern did."""
    assert parse_launch_comment(source) == expected


def test_the_line_of_the_launch_comment():
    assert launch_comment_line("a\n\n  // launch: block=1\n") == 3
    assert launch_comment_line("a\n") is None


@pytest.mark.parametrize("source, kinds", [
    ('a "x\\"y" b', ["ident", "string", "ident"]),
    ("c = '\\'' ;", ["ident", "punct", "char", "punct"]),
    ('R"d(a)")d" x', ["string", "ident"]),
    ("'unclosed system(1)", ["punct", "ident", "ident", "punct", "number", "punct"]),
    ('/* unclosed system()', []),
    ('u8"s" L\'c\'', ["string", "char"]),
])
def test_tokens_are_as_before(source, kinds):
    """The same tokens as the plain pattern, and an unclosed quote still exposes the names after it."""
    assert [t.kind for t in rewrite.tokenize(source)] == kinds
