"""The emulator's tokeniser: C++ source into tokens, in time linear in the source however it is built.

Comments, strings and character literals are skipped as whole tokens; a preprocessor directive is one
`pp` token (continuations and block comments included). Used by the static checks (checks.py), the
rewrite (rewrite.py) and the kernel's reach (reach.py).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

# A line splice: a backslash, optional blanks, a newline (GCC joins the lines before tokenising).
SPLICE = re.compile(r"\\[ \t]*\r?\n")

_TOKEN = re.compile(
    r"""
    (?P<ws>[ \t\r\f\v]+)
  | (?P<splice>\\[ \t]*\r?\n)
  | (?P<nl>\n)
  | (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<raw>(?:u8|u|U|L)?R"(?P<delim>[^()\\\s"]{0,16})\(.*?\)(?P=delim)")
  | (?P<string>(?:u8|u|U|L)?"(?:\\.|[^"\\\n])*")
  | (?P<char>(?:u8|u|U|L)?'(?:\\.|[^'\\\n])*')
  | (?P<ident>[A-Za-z_]\w*)
  | (?P<number>\.?\d(?:[\w.']|[eEpP][+-])*)
  | (?P<punct>.)
    """,
    re.VERBOSE | re.DOTALL,
)


_DIRECTIVE_START = re.compile(r"[ \t]*#")
# Variants of _TOKEN without the string or character-literal alternatives, for the stretch of a line
# where one is already known not to close (see _Scanner): trying it again would re-scan to the line's end.
_TOKEN_NO_STRING = re.compile(_TOKEN.pattern.replace(r"""| (?P<string>(?:u8|u|U|L)?"(?:\\.|[^"\\\n])*")""", ""),
                              re.VERBOSE | re.DOTALL)
_TOKEN_NO_CHAR = re.compile(_TOKEN.pattern.replace(r"""| (?P<char>(?:u8|u|U|L)?'(?:\\.|[^'\\\n])*')""", ""),
                            re.VERBOSE | re.DOTALL)
_TOKEN_NO_LITERAL = re.compile(_TOKEN_NO_STRING.pattern.replace(
    r"""| (?P<char>(?:u8|u|U|L)?'(?:\\.|[^'\\\n])*')""", ""), re.VERBOSE | re.DOTALL)
_RAW_HEAD = re.compile(r'(?:u8|u|U|L)?R"(?P<delim>[^()\\\s"]{0,16})\(')
_QUOTE_HEAD = re.compile(r"""(?:u8|u|U|L)?(?P<quote>["'])""")
_LITERAL_BODY = {'"': re.compile(r'(?:\\.|[^"\\\n])*', re.DOTALL), "'": re.compile(r"(?:\\.|[^'\\\n])*", re.DOTALL)}


# Characters that are a one-character punct token wherever they stand (they start nothing longer).
_PLAIN_PUNCT = frozenset("!#$%&()*+,-:;<=>?@[]^`{|}~")


class _Scanner:
    """Matches one token at a time, in time linear in the source however it is built.

    The regular expression alone is quadratic on hostile input (10-26 s for 64 KiB): an unclosed
    `/*` or raw string re-scans the rest of the file from every occurrence, and an unclosed quote the
    rest of its line from every quote. So block comments and raw strings are found with str.find (an
    unclosed one runs to the end of the source, where the compiler reports it: "unterminated comment",
    "unterminated raw string"), and once a string (or character) literal from a quote fails to close
    at some point F, no later quote before F is tried as one: each of them is inside an escape pair of
    the failed literal, so it would fail at F too. Tokens are otherwise exactly _TOKEN's.
    """

    def __init__(self, source: str):
        self.source = source
        self.n = len(source)
        self.no_close = {'"': -1, "'": -1}  # a literal of this quote started before here cannot close

    def match(self, pos: int) -> tuple[str, int]:
        """(kind, end) of the token at `pos` (kinds as _TOKEN's groups; raw strings are "string")."""
        source = self.source
        first = source[pos]
        if first == "\n":
            return "nl", pos + 1
        if first in _PLAIN_PUNCT:
            return "punct", pos + 1
        if first == "/" and source.startswith("/*", pos):
            close = source.find("*/", pos + 2)
            return "comment", self.n if close < 0 else close + 2
        raw = _RAW_HEAD.match(source, pos) if first in "uULR" else None
        if raw:
            close = source.find(")" + raw.group("delim") + '"', raw.end())
            return "string", self.n if close < 0 else close + len(raw.group("delim")) + 2
        skip_string, skip_char = pos < self.no_close['"'], pos < self.no_close["'"]
        pattern = (_TOKEN_NO_LITERAL if skip_string and skip_char else _TOKEN_NO_STRING if skip_string
                   else _TOKEN_NO_CHAR if skip_char else _TOKEN)
        m = pattern.match(source, pos)
        kind = m.lastgroup
        if kind not in ("string", "char") and first in "\"'uUL":
            head = _QUOTE_HEAD.match(source, pos)
            if head and not (skip_string if head.group("quote") == '"' else skip_char):
                quote = head.group("quote")  # a literal started here and did not close: remember where it failed
                self.no_close[quote] = _LITERAL_BODY[quote].match(source, head.end()).end()
        return ("string" if kind in ("raw", "delim") else kind), m.end()




@dataclass
class Token:
    kind: str  # ident | number | punct | string | char | pp (a whole preprocessor directive) | splice
    text: str
    start: int  # offset in the source
    end: int
    line: int  # 1-based line of the first character




def tokenize(source: str) -> list[Token]:
    """Split C++ source into tokens; a preprocessor directive becomes one `pp` token."""
    tokens: list[Token] = []
    line = 1
    pos = 0
    at_line_start = True
    n = len(source)
    scanner = _Scanner(source)
    while pos < n:
        if at_line_start:
            m = _DIRECTIVE_START.match(source, pos)
            if m:
                end = pos
                # A directive runs to the end of the line, continuations and block comments included.
                while end < n and source[end] != "\n":
                    splice = SPLICE.match(source, end)
                    if splice:  # GCC also joins a backslash followed by blanks
                        end = splice.end()
                    elif source.startswith("/*", end):
                        close = source.find("*/", end + 2)
                        end = n if close < 0 else close + 2
                    elif source.startswith("//", end):
                        close = source.find("\n", end)
                        end = n if close < 0 else close
                    else:
                        end += 1
                text = source[pos:end]
                tokens.append(Token("pp", text, pos, end, line))
                line += text.count("\n")
                pos = end
                continue
        kind, end = scanner.match(pos)
        text = source[pos:end]
        if kind == "nl":
            at_line_start = True
        elif kind not in ("ws", "comment", "splice"):  # a splice continues the logical line
            at_line_start = False
        if kind not in ("ws", "nl", "comment"):
            tokens.append(Token(kind, text, pos, end, line))
        line += text.count("\n")
        pos = end
    return tokens



def directive_text(text: str) -> str:
    """A directive as the preprocessor reads it: lines spliced, comments replaced by a space."""
    text = SPLICE.sub("", text)
    out, pos, scanner = [], 0, _Scanner(text)
    while pos < len(text):
        kind, end = scanner.match(pos)
        out.append(" " if kind == "comment" else text[pos:end])
        pos = end
    return "".join(out)


def matching(tokens: list[Token], i: int) -> int:
    """Index of the bracket closing tokens[i] (one of ( [ {), or len(tokens) when it never closes."""
    opening = tokens[i].text
    closing = {"(": ")", "[": "]", "{": "}"}[opening]
    depth = 0
    for j in range(i, len(tokens)):
        if tokens[j].text == opening:
            depth += 1
        elif tokens[j].text == closing:
            depth -= 1
            if depth == 0:
                return j
    return len(tokens)
