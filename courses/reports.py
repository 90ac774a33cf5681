"""A roster upload's report carried across the redirect that follows the upload (POST/redirect/GET).

The upload stores a bounded, JSON-safe summary of its `RosterReport` in the session, under the
course's code; the roster page's GET pops it, so the report is shown once and a refresh shows the
bare form instead of uploading the file again. Codes and values are stored, never sentences: the page
renders them in the reader's language (courses/messages.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .actions import RosterReport
from .core.roster import FileIssue, RowIssue, RowProblem, StudentIdConflict

# A roster may have MAX_ROWS (5000) refused rows; the session keeps the first MAX_LISTED of each table
# and counts the rest, and each cell at most MAX_CELL characters (a cell of a CSV file has no limit).
MAX_LISTED = 200
MAX_CELL = 200


@dataclass(frozen=True)
class StoredReport:
    """What the roster page shows of an upload: its counts, and the first rows of each table."""

    error: FileIssue | None = None  # the whole file was refused; nothing was taken
    error_detail: str = ""
    created: int = 0  # new accounts, enrolled as students
    linked: int = 0  # existing accounts enrolled
    already: int = 0  # rows already in the course
    student_ids_stored: int = 0
    problems: list[RowProblem] = field(default_factory=list)  # the first MAX_LISTED rows not taken
    problems_total: int = 0  # all rows not taken
    conflicts: list[StudentIdConflict] = field(default_factory=list)  # the first MAX_LISTED IDs not stored
    conflicts_total: int = 0

    @property
    def problems_omitted(self) -> int:
        """Rows not taken that are counted but not listed."""
        return self.problems_total - len(self.problems)

    @property
    def conflicts_omitted(self) -> int:
        """Student IDs not stored that are counted but not listed."""
        return self.conflicts_total - len(self.conflicts)


def _key(course_code: str) -> str:
    return f"courses.roster_report.{course_code}"


def _cut(text: str) -> str:
    return text if len(text) <= MAX_CELL else text[:MAX_CELL - 1] + "…"


def store_report(session, course_code: str, report: RosterReport) -> None:
    """Keep `report` in `session` (a Django session) for the course's roster page to show once.

    Replaces a report of the same course not shown yet. At most MAX_LISTED rows per table and
    MAX_CELL characters per cell are kept, so the session stays small whatever the file's size."""
    session[_key(course_code)] = {
        "error": report.error.value if report.error is not None else None,
        "error_detail": _cut(report.error_detail),
        "created": len(report.created), "linked": len(report.linked), "already": len(report.already),
        "student_ids_stored": report.student_ids_stored,
        "problems": [[p.line, _cut(p.username), p.issue.value, _cut(p.value)] for p in report.problems[:MAX_LISTED]],
        "problems_total": len(report.problems),
        "conflicts": [[c.line, _cut(c.username), _cut(c.roster_id), _cut(c.account_id)]
                      for c in report.student_id_conflicts[:MAX_LISTED]],
        "conflicts_total": len(report.student_id_conflicts),
    }


def pop_report(session, course_code: str) -> StoredReport | None:
    """The course's stored report, removed from `session` (None when there is none, or it is unreadable)."""
    data = session.pop(_key(course_code), None)
    if not isinstance(data, dict):
        return None
    try:
        return StoredReport(
            error=FileIssue(data["error"]) if data["error"] else None, error_detail=data["error_detail"],
            created=data["created"], linked=data["linked"], already=data["already"],
            student_ids_stored=data["student_ids_stored"],
            problems=[RowProblem(line, username, RowIssue(issue), value) for line, username, issue, value in data["problems"]],
            problems_total=data["problems_total"],
            conflicts=[StudentIdConflict(*c) for c in data["conflicts"]], conflicts_total=data["conflicts_total"])
    except (KeyError, ValueError, TypeError):
        # A report stored by an older version of this module: not worth an error page.
        return None
