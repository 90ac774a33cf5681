"""Line-preserving source rewriting and static checks for the emulator.

The student's CUDA C++ is tokenised (comments, strings and character literals skipped), checked
against a whitelist of includes and a blacklist of host escapes, and rewritten so that it compiles
as plain C++17 against the emulator's runtime:

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

from . import declarations, rmw

ALLOWED_INCLUDES = frozenset({
    "cuda_runtime.h", "cuda.h", "device_launch_parameters.h", "cuda_runtime_api.h",
    "cstdio", "stdio.h", "cstdint", "stdint.h", "cmath", "math.h", "cfloat", "float.h",
    "climits", "limits.h", "cassert", "assert.h", "cooperative_groups.h", "cooperative_groups/reduce.h", "cstdlib",
    "stdlib.h", "cuda_fp16.h", "curand_kernel.h",
    "cstring", "string.h",
})

# Identifiers that reach the host (files, processes, the environment). A kernel never needs them.
FORBIDDEN_IDENTIFIERS = frozenset({
    "fopen", "freopen", "fdopen", "open", "openat", "creat", "remove", "rename", "unlink", "system",
    "popen", "fork", "vfork", "clone", "execl", "execlp", "execle", "execv", "execvp", "execve",
    "execvpe", "syscall", "dlopen", "dlsym", "mmap", "mprotect", "munmap", "socket", "connect",
    "bind", "listen", "accept", "signal", "sigaction", "raise", "kill", "atexit", "at_quick_exit",
    "getenv", "setenv", "putenv", "exit", "_exit", "_Exit", "abort", "quick_exit", "longjmp",
    "setjmp", "ptrace", "chdir", "chmod", "fwrite", "fread", "fputs", "fgets", "fprintf", "fscanf",
    "write", "read", "close", "pthread_create", "__builtin_frame_address", "__builtin_return_address",
    "asm", "__asm__", "__asm", "goto", "_Pragma", "__builtin_trap_",
    # Files without fopen, file-existence probes, and GCC builtins that redirect control flow.
    "tmpfile", "tmpnam", "tempnam", "mkstemp", "fputc", "putc", "putw", "fputwc", "fputws",
    "__has_include", "__has_include_next", "__builtin_longjmp", "__builtin_setjmp", "__builtin_apply",
    "__builtin_apply_args", "__builtin_return", "__builtin_eh_return", "__builtin_unwind_init",
})

# The emulator's own names (namespace wd, the harness's wd_* functions, the WD_* macros): calling its
# internals could write the result file directly, and a macro of that name could change what the
# runtime's macros expand to (they name nothing else; see macros.py and tests/emulator/test_macros.py).
RESERVED_NAME = re.compile(r"^(wd|wd_\w*|__warpdrill\w*)$", re.IGNORECASE)
# Predefined macros that the code written into the student's file relies on (barrier sites, lines).
BUILTIN_MACROS = frozenset({"__LINE__", "__COUNTER__", "__FILE__"})
# Digraphs spell # and [[ without those characters; no kernel needs them.
DIGRAPHS = ("%:", "<%", "%>", "<:", ":>")
# A line splice: a backslash, optional blanks, a newline (GCC joins the lines before tokenising).
SPLICE = re.compile(r"\\[ \t]*\r?\n")


def _forbidden(name: str) -> bool:
    """A forbidden name, also behind GCC's builtin spellings (__builtin_execve, __builtin___fprintf_chk)."""
    if name in FORBIDDEN_IDENTIFIERS or RESERVED_NAME.match(name):
        return True
    if name.startswith("__builtin_"):
        core = name[len("__builtin_"):]
        core = core[:-4] if core.endswith("_chk") else core
        return core in FORBIDDEN_IDENTIFIERS or core.lstrip("_") in FORBIDDEN_IDENTIFIERS
    return False


# Tokens that need the fiber scheduler (threads that wait for each other).
SYNC_TOKENS = re.compile(
    r"^(__syncthreads\w*|__syncwarp|__shfl\w*|__ballot_sync|__any_sync|__all_sync|__activemask|"
    r"__match\w*|__reduce\w*_sync|this_thread_block|tiled_partition|coalesced_threads|this_grid|shfl\w*|sync)$"
)
# Tokens after which blocks must run on one worker thread (results would depend on timing).
SERIAL_TOKENS = re.compile(r"^(atomic\w*|volatile|__threadfence\w*)$")
# CUDA's 16-byte vector types and explicit 16-byte alignment (a reinterpret_cast to one of these
# makes the compiler use aligned SSE moves, which need 16-byte aligned addresses).
VECTOR16_TOKENS = re.compile(r"^(?:(?:float|int|uint|long|ulong)4|(?:double|longlong|ulonglong)[24]|"
                             r"__align__|alignas|__builtin_assume_aligned)$")

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


@dataclass
class Problem:
    """A static-check failure: reported as a COMPILE_ERROR message."""

    line: int
    message: str


@dataclass
class Rewritten:
    """The result of `rewrite`: the C++ text, the problems found and what the kernel uses."""

    text: str
    problems: list[Problem] = field(default_factory=list)
    needs_fibers: bool = False  # barriers or warp operations: run every thread as a fiber
    serial: bool = False  # atomics/volatile/fences: run blocks on one worker thread
    # 16-byte vector types (float4, int4, double2, ...) or 16-byte alignment: buffers must start
    # 16-byte aligned as cudaMalloc's do, or the CPU's aligned vector moves fault.
    vector_loads: bool = False
    shared_sites: int = 0  # number of __shared__ declarations rewritten
    # Sites declared inside other __global__ functions: not part of the kernel's static shared memory.
    other_kernel_sites: set[int] = field(default_factory=set)


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


_INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]*)[>"]\s*(//.*|/\*.*\*/)?\s*$', re.DOTALL)
_DIRECTIVE = re.compile(r"^\s*#\s*(\w*)")
ALLOWED_DIRECTIVES = frozenset({"define", "undef", "if", "ifdef", "ifndef", "elif", "else", "endif",
                                "pragma", "error", "warning", ""})


def _directive_text(text: str) -> str:
    """A directive as the preprocessor reads it: lines spliced, comments replaced by a space."""
    text = SPLICE.sub("", text)
    out, pos, scanner = [], 0, _Scanner(text)
    while pos < len(text):
        kind, end = scanner.match(pos)
        out.append(" " if kind == "comment" else text[pos:end])
        pos = end
    return "".join(out)


def _check_directive(tok: Token, problems: list[Problem]) -> None:
    text = _directive_text(tok.text)
    name = _DIRECTIVE.match(text).group(1)
    if name == "include":
        m = _INCLUDE.match(text)
        header = m.group(2).strip() if m else text.strip()
        if not m or header not in ALLOWED_INCLUDES:
            allowed = ", ".join(sorted(ALLOWED_INCLUDES))
            problems.append(Problem(tok.line, f"#include of '{header}' is not allowed here (allowed: {allowed})"))
        return
    if name not in ALLOWED_DIRECTIVES:
        problems.append(Problem(tok.line, f"the preprocessor directive #{name} is not allowed"))
        return
    if name == "pragma" and re.search(r"\bdependency\b", text):
        problems.append(Problem(tok.line, "#pragma GCC dependency is not allowed"))
    # Macro bodies may not spell host escapes either, nor build names by pasting tokens.
    inner_tokens = tokenize(text[text.find("#") + 1:])
    if name in ("define", "undef") and len(inner_tokens) > 1 and inner_tokens[1].text in BUILTIN_MACROS:
        problems.append(Problem(tok.line, f"the predefined macro {inner_tokens[1].text} cannot be redefined"))
    for k, inner in enumerate(inner_tokens):
        if inner.text in ("__attribute__", "__attribute") or _cxx11_attribute_start(inner_tokens, k):
            _check_attributes(inner_tokens, k, tok.line, problems)
        if inner.kind == "ident" and _forbidden(inner.text):
            problems.append(Problem(tok.line, _forbidden_message(inner.text)))
        elif inner.text == "#" and k + 1 < len(inner_tokens) and inner_tokens[k + 1].text == "#" \
                and inner_tokens[k + 1].start == inner.end:
            problems.append(Problem(tok.line, "token pasting (##) is not allowed"))
        elif _digraph(inner_tokens, k):
            problems.append(Problem(tok.line, _DIGRAPH_MESSAGE))


_DIGRAPH_MESSAGE = "digraphs (%: <: :> <% %>) are not allowed: write # [ ] { }"


def _digraph(tokens: list[Token], k: int) -> bool:
    """Whether tokens[k] starts a digraph (two adjacent punctuators; `<::` is not one, as in C++11)."""
    if k + 1 >= len(tokens) or tokens[k].kind != "punct" or tokens[k + 1].start != tokens[k].end:
        return False
    pair = tokens[k].text + tokens[k + 1].text
    if pair == "<:" and k + 2 < len(tokens) and tokens[k + 2].text == ":" and tokens[k + 2].start == tokens[k + 1].end:
        after = tokens[k + 3].text if k + 3 < len(tokens) and tokens[k + 3].start == tokens[k + 2].end else ""
        return after in (":", ">")
    return pair in DIGRAPHS


def _cxx11_attribute_start(tokens: list[Token], k: int) -> bool:
    """Whether tokens[k] opens a C++11 attribute list `[[`."""
    return tokens[k].text == "[" and k + 1 < len(tokens) and tokens[k + 1].text == "["


def _check_attributes(tokens: list[Token], k: int, line: int, problems: list[Problem]) -> None:
    """A problem for each attribute of the list at tokens[k] that is not harmless (declarations.py)."""
    if tokens[k].text == "[":
        names, _ = declarations.cxx11_attributes(tokens, k)
        spell = "[[%s]]"
    else:
        names, _ = declarations.gnu_attributes(tokens, k)
        spell = "__attribute__((%s))"
    for name in declarations.refused_attributes(names):
        problems.append(Problem(line, declarations.ATTRIBUTE_MESSAGE % (spell % name)))


def _forbidden_message(name: str) -> str:
    if RESERVED_NAME.match(name):
        return f"'{name}' is reserved for the emulator's runtime: choose another name"
    if name in ("asm", "__asm__", "__asm"):
        return "inline assembly (asm) is not allowed"
    if name == "goto":
        return "goto is not allowed"
    return f"'{name}' is not available in kernels (no file, process or host access)"


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
        problems.append(Problem(line, "cannot understand this __shared__ declaration; write it as `__shared__ float name[SIZE];`"))
        return None
    spec, decls = split
    type_text = _join(spec)
    parts = []
    used = 0
    for d in decls:
        if not d or d[0].kind != "ident":
            problems.append(Problem(line, "cannot understand this __shared__ declaration; write it as `__shared__ float name[SIZE];`"))
            return None
        name = d[0].text
        if any(t.text == "=" for t in d):
            problems.append(Problem(line, f"__shared__ variable '{name}' cannot have an initializer (CUDA forbids it)"))
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
    """Check and rewrite the student's source (see the module docstring). Never raises on bad code."""
    problems: list[Problem] = []
    tokens = tokenize(source)
    result = Rewritten(text=source)
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
        if tok.kind == "pp":
            _check_directive(tok, problems)
            continue
        if tok.kind == "splice" or tok.text == "\\":
            problems.append(Problem(tok.line, "a backslash at the end of a line (or outside a string) is only allowed in #define"))
            continue
        if _digraph(tokens, i):
            problems.append(Problem(tok.line, _DIGRAPH_MESSAGE))
        if _cxx11_attribute_start(tokens, i) or tok.text in ("__attribute__", "__attribute"):
            _check_attributes(tokens, i, tok.line, problems)
        text = tok.text
        if tok.kind == "ident":
            if _forbidden(text):
                problems.append(Problem(tok.line, _forbidden_message(text)))
            if SYNC_TOKENS.match(text):
                result.needs_fibers = True
            if SERIAL_TOKENS.match(text):
                result.serial = True
                result.needs_fibers = True
            if VECTOR16_TOKENS.match(text):
                result.vector_loads = True
            if text == "printf":
                result.serial = True  # parallel blocks would interleave the log differently every run
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
                    problems.append(Problem(tok.line, "file-scope __shared__ variables are not supported: declare the array inside the kernel"))
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
        elif text == "<" and i + 2 < len(tokens) and tokens[i + 1].text == "<" and tokens[i + 2].text == "<" \
                and tokens[i + 1].start == tok.end and tokens[i + 2].start == tok.end + 1:
            problems.append(Problem(tok.line, "kernel launches (<<<...>>>) are not allowed: the harness launches your kernel"))
    for line, message in declarations.linkage_problems(tokens) + declarations.constant_write_problems(tokens):
        problems.append(Problem(line, message))
    if not found_kernel and not problems:
        problems.append(Problem(1, f"no __global__ function named '{kernel_name}' was found"))
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
    return result
