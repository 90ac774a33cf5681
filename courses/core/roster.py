"""Roster CSV parsing and validation: plain Python, no Django.

A roster is UTF-8 CSV (a byte-order mark is fine) with a header row naming the columns
`username`, `email` and optionally `name` and `student_id`, each also under its Korean header (아이디,
이메일, 이름, 학번) and a few other spellings (see COLUMN_HEADERS), in any order and any letter case;
other columns are ignored. Two header cells naming the same column ("student_id" and "학번") refuse
the file: which one to take is the uploader's choice, not a guess. Every data row becomes either a `RosterRow` (well-formed, unique within the file) or a
`RowProblem` naming its line and why it was refused. Whether a row's account exists, or matches,
is the database's question: the Django shell (courses/actions.py) checks that and adds its own
problems (`RowIssue.EXISTING_USER_OTHER_EMAIL`, ...) to the same report.

    parsed = parse_roster(text)
    parsed.error          # None, or a FileIssue when the file as a whole cannot be read
    parsed.rows           # [RosterRow(line=2, username="kim", email="kim@example.edu", name="Kim Minjun",
                          #            student_id="2026123456")]
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
# accounts.models.STUDENT_ID_MAX and accounts.forms.STUDENT_ID_RE, copied for the same reason: a roster's
# student ID is held to what the sign-up form and My account accept.
STUDENT_ID_MAX = 32
STUDENT_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*\Z")
MAX_ROWS = 5000  # a course larger than this is split into several uploads
REQUIRED_COLUMNS = ("username", "email")
COLUMNS = ("username", "email", "name", "student_id")
# Header cells (compared stripped and lower-cased, a parenthesised note after them dropped: "학번(ID)")
# that name each column: the English ones, then those a Korean university's export or Django's Korean
# forms use (사용자 이름 is Django's Korean "username", 이메일 주소 its "email address").
STUDENT_ID_HEADERS = ("student_id", "student id", "studentid", "student number", "student_number",
                      "student no", "student no.", "학번")
COLUMN_HEADERS: dict[str, tuple[str, ...]] = {
    "username": ("username", "user_name", "아이디", "사용자 이름", "사용자이름", "사용자명"),
    "email": ("email", "e-mail", "email address", "이메일", "이메일 주소", "전자우편", "전자 우편"),
    "name": ("name", "full name", "full_name", "이름", "성명"),
    "student_id": STUDENT_ID_HEADERS,
}


class FileIssue(enum.StrEnum):
    """Why a whole roster file was refused (nothing of it is taken)."""

    EMPTY = "empty"  # no header row at all
    NOT_UTF8 = "not_utf8"  # the bytes are not UTF-8 text
    NOT_CSV = "not_csv"  # the csv module cannot read it (a NUL byte, an unterminated quote)
    MISSING_COLUMNS = "missing_columns"  # the header lacks username or email
    DUPLICATE_COLUMNS = "duplicate_columns"  # two header cells name the same column (student_id and 학번)
    TOO_MANY_ROWS = "too_many_rows"  # more than MAX_ROWS data rows


class RowIssue(enum.StrEnum):
    """Why one roster row was not taken. Those above the comment are found here; the rest by the shell."""

    MISSING_USERNAME = "missing_username"  # the username cell is empty
    BAD_USERNAME = "bad_username"  # characters Django usernames do not allow, or too long
    MISSING_EMAIL = "missing_email"  # the email cell is empty
    BAD_EMAIL = "bad_email"  # not an email address, or too long
    NAME_TOO_LONG = "name_too_long"  # longer than NAME_MAX characters
    BAD_STUDENT_ID = "bad_student_id"  # characters other than letters, digits and . _ -, or too long
    DUPLICATE_USERNAME = "duplicate_username"  # an earlier row of the file has this username
    DUPLICATE_EMAIL = "duplicate_email"  # an earlier row of the file has this email
    DUPLICATE_STUDENT_ID = "duplicate_student_id"  # an earlier row of the file has this student ID
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
    student_id: str = ""  # "" when the file has no student ID column or the cell is empty


@dataclass(frozen=True)
class RowProblem:
    """A row that was not taken, and why."""

    line: int  # 1-based line of the file
    username: str  # as written (may be empty)
    issue: RowIssue
    value: str = ""  # the offending cell, or the earlier line's number for duplicates


@dataclass(frozen=True)
class StudentIdConflict:
    """A row that was taken (or whose account was already in the course) but whose student ID was
    not stored: the account already has another one, its owner's, which is kept. Found by the shell."""

    line: int  # 1-based line of the file
    username: str  # as written
    roster_id: str  # the roster's student ID, not stored
    account_id: str  # the ID the account keeps


@dataclass
class ParsedRoster:
    """The outcome of parsing: either a file-level error, or rows and row problems (in file order)."""

    rows: list[RosterRow] = field(default_factory=list)
    problems: list[RowProblem] = field(default_factory=list)
    error: FileIssue | None = None
    error_detail: str = ""  # e.g. the missing column names, the duplicate headers as written, or the csv module's message


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
    index, duplicates = _column_index(header)
    if duplicates:
        return ParsedRoster(error=FileIssue.DUPLICATE_COLUMNS, error_detail="; ".join(duplicates))
    missing = [c for c in REQUIRED_COLUMNS if c not in index]
    if missing:
        return ParsedRoster(error=FileIssue.MISSING_COLUMNS, error_detail=", ".join(missing))
    if len(data) > MAX_ROWS:
        return ParsedRoster(error=FileIssue.TOO_MANY_ROWS, error_detail=str(MAX_ROWS))
    out = ParsedRoster()
    first_line_of_username: dict[str, int] = {}
    first_line_of_email: dict[str, int] = {}
    first_line_of_student_id: dict[str, int] = {}
    for line, rec in data:
        cell = {c: (rec[i].strip() if i < len(rec) else "") for c, i in index.items()}
        username, email, name = cell["username"], cell["email"].lower(), " ".join(cell.get("name", "").split())
        student_id = cell.get("student_id", "")
        problem = _row_problem(line, username, email, name, student_id)
        if problem is None and username.lower() in first_line_of_username:
            problem = RowProblem(line, username, RowIssue.DUPLICATE_USERNAME, str(first_line_of_username[username.lower()]))
        if problem is None and email in first_line_of_email:
            problem = RowProblem(line, username, RowIssue.DUPLICATE_EMAIL, str(first_line_of_email[email]))
        if problem is None and student_id and student_id.lower() in first_line_of_student_id:
            problem = RowProblem(line, username, RowIssue.DUPLICATE_STUDENT_ID,
                                 str(first_line_of_student_id[student_id.lower()]))
        if problem is not None:
            out.problems.append(problem)
            continue
        first_line_of_username[username.lower()] = line
        first_line_of_email[email] = line
        if student_id:
            first_line_of_student_id[student_id.lower()] = line
        out.rows.append(RosterRow(line, username, email, name, student_id))
    return out


def column_of_header(cell: str) -> str | None:
    """The column (one of COLUMNS) a header cell names, or None for a column that is ignored.

    Compared stripped and lower-cased, also without a parenthesised note after it ("학번(ID)",
    "student id (학번)", "이름 (Name)")."""
    cell = cell.strip().lower()
    bare = cell.split("(")[0].strip()
    return next((c for c, headers in COLUMN_HEADERS.items() if cell in headers or bare in headers), None)


def _column_index(header: list[str]) -> tuple[dict[str, int], list[str]]:
    """Each named column's cell index, and for each column named more than once its header cells as
    written, joined by ", " ("student_id, 학번"), in the order the columns first appear."""
    found: dict[str, list[int]] = {}
    for i, cell in enumerate(header):
        column = column_of_header(cell)
        if column is not None:
            found.setdefault(column, []).append(i)
    duplicates = [", ".join(header[i].strip() for i in at) for at in found.values() if len(at) > 1]
    return {c: at[0] for c, at in found.items()}, duplicates


def _row_problem(line: int, username: str, email: str, name: str, student_id: str) -> RowProblem | None:
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
    if student_id and (len(student_id) > STUDENT_ID_MAX or not STUDENT_ID_RE.match(student_id)):
        return RowProblem(line, username, RowIssue.BAD_STUDENT_ID, student_id)
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
