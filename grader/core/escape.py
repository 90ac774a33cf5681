"""Text that came out of a box, made safe for a log line or a student's message.

A box's stderr (or a GPU child's, which carries the kernel's printf) is written by the student's
code. Put into a log line as it is, a newline forges a line of its own ("submission 1 graded:
ACCEPTED") and terminal escapes reach whoever reads the console; in a message they reach the page.
"""
from __future__ import annotations

import unicodedata

ESCAPE_CAP = 2000  # characters of untrusted text kept in one log line or message


def escape_untrusted(text: str, cap: int = ESCAPE_CAP) -> str:
    """`text` with every control or format character written as an escape (``\\n``, ``\\x1b``,
    ``\\u202e``) and backslashes doubled, so the result is one line that shows exactly what was
    there; at most `cap` characters of the input are kept, with a note of how many were dropped.
    Letters of any script stay as they are."""
    dropped = max(0, len(text) - cap)
    out = []
    for ch in text[:cap]:
        if ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
        else:
            out.append(ch)
    if dropped:
        out.append(f" [{dropped} more characters dropped]")
    return "".join(out)
