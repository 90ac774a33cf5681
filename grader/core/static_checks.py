"""The checks made on a source before anything compiles it: not empty, not over the size limit, no NUL.

One limit: the caller passes it (the site's WARPDRILL_MAX_SOURCE_BYTES, through the judge's
`max_source_bytes`); DEFAULT_MAX_SOURCE_BYTES is the default where no site is configured (a command
line run, a package validation). Plain Python (no Django).
"""
from __future__ import annotations

from . import messages as M

DEFAULT_MAX_SOURCE_BYTES = 64 * 1024


def static_check_reason(source: str, max_bytes: int = DEFAULT_MAX_SOURCE_BYTES) -> M.Message | None:
    """Why the source is refused before compiling, as a messages.Message, or None.

    `max_bytes` is the largest source accepted, in bytes of its UTF-8 encoding."""
    if not source.strip():
        return M.SOURCE_EMPTY()
    if len(source.encode("utf-8", "replace")) > max_bytes:
        return M.SOURCE_TOO_LARGE(kib=max_bytes // 1024)
    if "\0" in source:
        return M.SOURCE_NUL()
    return None


def static_check(source: str, max_bytes: int = DEFAULT_MAX_SOURCE_BYTES) -> str | None:
    """Why the source is refused before compiling (English), or None (see static_check_reason)."""
    reason = static_check_reason(source, max_bytes)
    return str(reason) if reason else None
