"""The difference between two versions of a package, file by file (difflib), for the history page."""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from enum import StrEnum


class Change(StrEnum):
    """What happened to one file between two versions."""

    ADDED = "added"  # only in the newer version
    REMOVED = "removed"  # only in the older version
    CHANGED = "changed"  # in both, different text
    SAME = "same"  # in both, identical


class LineKind(StrEnum):
    """One line of a unified diff."""

    HUNK = "hunk"  # an @@ -a,b +c,d @@ header
    ADD = "add"  # a line of the newer version only
    DELETE = "delete"  # a line of the older version only
    CONTEXT = "context"  # unchanged, shown around changes


@dataclass(frozen=True)
class FileDiff:
    """One file's change and its unified diff lines (empty for SAME)."""

    path: str
    change: Change
    lines: list[tuple[LineKind, str]] = field(default_factory=list)

    @property
    def added(self) -> int:
        return sum(1 for kind, _ in self.lines if kind is LineKind.ADD)

    @property
    def deleted(self) -> int:
        return sum(1 for kind, _ in self.lines if kind is LineKind.DELETE)


def diff_files(old: dict[str, str], new: dict[str, str], context: int = 3) -> list[FileDiff]:
    """Every path of either version, sorted, with its change and unified diff lines (`context`
    unchanged lines around each change)."""
    out = []
    for path in sorted(set(old) | set(new)):
        a, b = old.get(path), new.get(path)
        if a == b:
            out.append(FileDiff(path, Change.SAME))
            continue
        change = Change.ADDED if a is None else Change.REMOVED if b is None else Change.CHANGED
        lines = []
        for line in difflib.unified_diff((a or "").splitlines(), (b or "").splitlines(), lineterm="", n=context):
            if line.startswith(("---", "+++")):
                continue
            if line.startswith("@@"):
                lines.append((LineKind.HUNK, line))
            elif line.startswith("+"):
                lines.append((LineKind.ADD, line[1:]))
            elif line.startswith("-"):
                lines.append((LineKind.DELETE, line[1:]))
            else:
                lines.append((LineKind.CONTEXT, line[1:]))
        out.append(FileDiff(path, change, lines))
    return out
