"""Roster CSV parsing and validation: plain Python, no Django.

A roster is UTF-8 CSV (a byte-order mark is fine) with a header row naming the columns
`username`, `email` and optionally `name`, in any order and any letter case; other columns are
ignored. Every data row becomes either a `RosterRow` (well-formed, unique within the file) or a
`RowProblem` naming its line and why it was refused. Whether a row's account exists, or matches,
is the database's question: the Django shell (courses/actions.py) checks that and adds its own
problems (`RowIssue.EXISTING_USER_OTHER_EMAIL`, ...) to the same report.

    parsed = parse_roster(text)
    parsed.error          # None, or a FileIssue when the file as a whole cannot be read
    parsed.rows           # [RosterRow(line=2, username="kim", email="kim@example.edu", name="Kim Minjun")]
    parsed.problems       # [RowProblem(line=3, username="lee", issue=RowIssue.BAD_EMAIL, value="lee@")]
"""
from __future__ import annotations

import csv
import enum
import io
import re
from dataclasses import dataclass, field

# Django's User model limits (django.contrib.auth.models.AbstractUser): username 150, first name 150,
# email 254 (RFC 5321's path limit). Copied, not imported: the core imports no Django.
USERNAME_MAX = 150
NAME_MAX = 150
EMAIL_MAX = 254
# Django's UnicodeUsernameValidator: letters, digits and @ . + - _
USERNAME_RE = re.compile(r"^[\w.@+-]+\Z")
# One @, no spaces, a dotted domain of letters, digits and hyphens. Deliberately simple: the
# address is only used to match accounts and to reach the student, never to send mail here.
EMAIL_RE = re.compile(r"^[^@\s,;<>\"]+@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,}\Z")
MAX_ROWS = 5000  # a course larger than this is split into several uploads
REQUIRED_COLUMNS = ("username", "email")
COLUMNS = ("username", "email", "name")


class FileIssue(enum.StrEnum):
    """Why a whole roster file was refused (nothing of it is taken)."""

    EMPTY = "empty"  # no header row at all
    NOT_UTF8 = "not_utf8"  # the bytes are not UTF-8 text
    NOT_CSV = "not_csv"  # the csv module cannot read it (a NUL byte, an unterminated quote)
    MISSING_COLUMNS = "missing_columns"  # the header lacks username or email
    TOO_MANY_ROWS = "too_many_rows"  # more than MAX_ROWS data rows


class RowIssue(enum.StrEnum):
    """Why one roster row was not taken. The first four are found here; the rest by the shell."""

    MISSING_USERNAME = "missing_username"  # the username cell is empty
    BAD_USERNAME = "bad_username"  # characters Django usernames do not allow, or too long
    MISSING_EMAIL = "missing_email"  # the email cell is empty
    BAD_EMAIL = "bad_email"  # not an email address, or too long
    NAME_TOO_LONG = "name_too_long"  # longer than NAME_MAX characters
    DUPLICATE_USERNAME = "duplicate_username"  # an earlier row of the file has this username
    DUPLICATE_EMAIL = "duplicate_email"  # an earlier row of the file has this email
    # Found against the database by courses/actions.py:
    EXISTING_USER_OTHER_EMAIL = "existing_user_other_email"  # the username exists with a different (or no) email
    EMAIL_OF_OTHER_USER = "email_of_other_user"  # the email belongs to an account with another username
    INACTIVE_USER = "inactive_user"  # the account exists but is deactivated


@dataclass(frozen=True)
class RosterRow:
    """A well-formed row: a username and email unique within the file (email lower-cased)."""

    line: int  # 1-based line of the file (the header is line 1)
    username: str
    email: str
    name: str = ""


@dataclass(frozen=True)
class RowProblem:
    """A row that was not taken, and why."""

    line: int  # 1-based line of the file
    username: str  # as written (may be empty)
    issue: RowIssue
    value: str = ""  # the offending cell, or the earlier line's number for duplicates


@dataclass
class ParsedRoster:
    """The outcome of parsing: either a file-level error, or rows and row problems (in file order)."""

    rows: list[RosterRow] = field(default_factory=list)
    problems: list[RowProblem] = field(default_factory=list)
    error: FileIssue | None = None
    error_detail: str = ""  # e.g. the missing column names, or the csv module's message


def decode(data: bytes) -> str | None:
    """The text of an uploaded file (UTF-8, with or without a BOM), or None if it is not UTF-8."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None


def parse_roster(text: str | None) -> ParsedRoster:
    """Parse and validate a roster's text (None: the bytes were not UTF-8).

    Cells are stripped of surrounding spaces, emails lower-cased, runs of white space in names made one space. Blank lines are skipped. A
    duplicate keeps the first row and reports the later one with the first one's line number.
    """
    if text is None:
        return ParsedRoster(error=FileIssue.NOT_UTF8)
    text = text.removeprefix("\ufeff")
    try:
        numbered = _number_records(text)
    except csv.Error as exc:
        return ParsedRoster(error=FileIssue.NOT_CSV, error_detail=str(exc))
    numbered = [(line, rec) for line, rec in numbered if any(cell.strip() for cell in rec)]
    if not numbered:
        return ParsedRoster(error=FileIssue.EMPTY)
    (_, header), data = numbered[0], numbered[1:]
    columns = [cell.strip().lower() for cell in header]
    missing = [c for c in REQUIRED_COLUMNS if c not in columns]
    if missing:
        return ParsedRoster(error=FileIssue.MISSING_COLUMNS, error_detail=", ".join(missing))
    if len(data) > MAX_ROWS:
        return ParsedRoster(error=FileIssue.TOO_MANY_ROWS, error_detail=str(MAX_ROWS))
    index = {c: columns.index(c) for c in COLUMNS if c in columns}
    out = ParsedRoster()
    first_line_of_username: dict[str, int] = {}
    first_line_of_email: dict[str, int] = {}
    for line, rec in data:
        cell = {c: (rec[i].strip() if i < len(rec) else "") for c, i in index.items()}
        username, email, name = cell["username"], cell["email"].lower(), " ".join(cell.get("name", "").split())
        problem = _row_problem(line, username, email, name)
        if problem is None and username.lower() in first_line_of_username:
            problem = RowProblem(line, username, RowIssue.DUPLICATE_USERNAME, str(first_line_of_username[username.lower()]))
        if problem is None and email in first_line_of_email:
            problem = RowProblem(line, username, RowIssue.DUPLICATE_EMAIL, str(first_line_of_email[email]))
        if problem is not None:
            out.problems.append(problem)
            continue
        first_line_of_username[username.lower()] = line
        first_line_of_email[email] = line
        out.rows.append(RosterRow(line, username, email, name))
    return out


def _row_problem(line: int, username: str, email: str, name: str) -> RowProblem | None:
    if not username:
        return RowProblem(line, username, RowIssue.MISSING_USERNAME)
    if len(username) > USERNAME_MAX or not USERNAME_RE.match(username):
        return RowProblem(line, username, RowIssue.BAD_USERNAME, username)
    if not email:
        return RowProblem(line, username, RowIssue.MISSING_EMAIL)
    if len(email) > EMAIL_MAX or not EMAIL_RE.match(email):
        return RowProblem(line, username, RowIssue.BAD_EMAIL, email)
    if len(name) > NAME_MAX:
        return RowProblem(line, username, RowIssue.NAME_TOO_LONG, str(len(name)))
    return None


def _number_records(text: str) -> list[tuple[int, list[str]]]:
    """Every CSV record with the 1-based line it starts on (a quoted cell may span lines).

    Raises csv.Error for what the csv module cannot read (a NUL byte, an unterminated quote)."""
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    out, start = [], 1
    for rec in reader:
        out.append((start, rec))
        start = reader.line_num + 1
    return out
