"""Keeping the student's macros out of the C++ the judge generates.

Both backends append code of their own to the student's translation unit: the emulator's harness
(emulator/jobs.py) and the GPU path's signature check (gpu/nvcc.py). A kernel file with
`#define T 16` or `#define A 1024` would otherwise rewrite that code and fail a correct kernel
with a message about the harness. `shielded(text)` wraps generated code in
`#pragma push_macro` / `#undef` / `#pragma pop_macro` for every identifier it contains, so it means
the same whatever the student defined; the list comes from the text itself, so a name added to
the generated code later is shielded without anyone remembering to.
"""
from __future__ import annotations

import re

# Comments, string and character literals and numbers (`0x1fULL`, `1e5f`) are skipped; identifiers kept.
_LEXEME = re.compile(
    r"""//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|\.?\d(?:[eEpP][+-]|[\w.])*|(?P<ident>[A-Za-z_]\w*)""",
    re.DOTALL)


def identifiers(text: str) -> list[str]:
    """Every distinct identifier of C++ `text` (keywords included), in order of first appearance.

    Identifiers inside comments, string literals and numbers (`0x1fu`) are not counted.
    """
    return list(dict.fromkeys(m.group("ident") for m in _LEXEME.finditer(text) if m.group("ident")))


def shielded(text: str, keep: tuple[str, ...] = ()) -> str:
    """`text` (generated C++, no directives of its own) behind push_macro/#undef of every identifier
    it uses except those in `keep` (the kernel's own name: the student's macro for it applies to
    the kernel's definition too), with every macro restored after it.

    The result starts and ends with a newline-terminated directive line; `text` must end with a newline.
    """
    names = [n for n in identifiers(text) if n not in keep]
    head = "".join(f'#pragma push_macro("{n}")\n#undef {n}\n' for n in names)
    tail = "".join(f'#pragma pop_macro("{n}")\n' for n in reversed(names))
    return head + text + tail
