"""Gradebook CSVs: one row per student in Canvas's and Moodle's import layouts, and a long CSV.

Canvas (Grades > Import): the columns Student, ID, SIS User ID, SIS Login ID, Section, then one
column per assignment named by its title; a second row "Points Possible" gives the maximum.
https://community.canvaslms.com/t5/Instructor-Guide/How-do-I-import-grades-in-the-Gradebook/ta-p/807
Canvas finds each row's student by its own user id ("ID"), else by "SIS User ID" or "SIS Login ID":
WarpDrill knows none of Canvas's ids, so "ID" and "SIS User ID" stay empty (WarpDrill's own user ids
there were read as Canvas's, matching the wrong students or none) and "SIS Login ID" is the WarpDrill
username, which matches where the course's usernames are the institution's logins (a roster uploaded
from them, or LTI accounts); otherwise paste the SIS ids from Canvas's own export (README).
Moodle (Grades > Import > CSV file): the form maps one column to a user field to find the student
("Email address" -> email address, or "Username" -> username) and each grade column to a grade item;
names are informational. https://docs.moodle.org/en/Grade_import
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Sequence

from courses.core.spreadsheet import csv_text


@dataclass(frozen=True)
class StudentTotal:
    username: str
    first_name: str
    last_name: str
    email: str
    user_id: int
    total: float | None  # None: no attempt (an empty cell, not a zero)
    section: str = ""


@dataclass(frozen=True)
class LongRow:
    username: str
    number: int  # the item's position on the student's paper
    key: str  # the item's slot in the template (zone.pool), the same for every student
    title: str  # family id or kernel slug
    answer: str  # the saved answer text (fields joined "name=value; ..."), or the counted verdicts
    points: float
    max_points: float


def _fmt(x: float | None) -> str:
    return "" if x is None else f"{x:g}"


def _csv(rows: Sequence[Sequence[str]]) -> str:
    # Through the one writer that keeps a student's chosen name from running as a formula.
    return csv_text(rows)


def full_name(s: StudentTotal) -> str:
    """The student's name as one string: 'First Last', or the one name the site has (a roster's
    `name` is stored whole in first_name), else ''."""
    return " ".join(x for x in (s.first_name.strip(), s.last_name.strip()) if x)


def canvas_csv(title: str, max_total: float, students: Sequence[StudentTotal]) -> str:
    """Canvas's gradebook layout; `title` is the assignment column (Canvas matches it by name). Rows are
    found by "SIS Login ID" (the WarpDrill username); "ID" and "SIS User ID", Canvas's own ids, are
    left empty (see the module docstring). "Student" is "Last, First" where both are known, else the
    one name, else the username: informational."""
    rows = [["Student", "ID", "SIS User ID", "SIS Login ID", "Section", title],
            ["Points Possible", "", "", "", "", _fmt(max_total)]]
    for s in students:
        first, last = s.first_name.strip(), s.last_name.strip()
        name = f"{last}, {first}" if first and last else (full_name(s) or s.username)
        rows.append([name, "", "", s.username, s.section, _fmt(s.total)])
    return _csv(rows)


def moodle_csv(title: str, students: Sequence[StudentTotal]) -> str:
    """Moodle's CSV grade import. The identifiers come first: "Email address" (map it to the email
    address) and "Username" (to username: Moodle's usernames are lower case, so is this column); then
    "First name" and "Last name" where the site has both, and "Full name" always (a single full name,
    such as a roster's "김민수", is not a first name); then `title`, the grade item's column. A student
    with no attempt has an empty grade cell."""
    rows = [["Email address", "Username", "First name", "Last name", "Full name", title]]
    for s in students:
        first, last = s.first_name.strip(), s.last_name.strip()
        split = bool(first and last)
        rows.append([s.email, s.username.lower(), first if split else "", last if split else "", full_name(s),
                     _fmt(s.total)])
    return _csv(rows)


class MoodleKey(enum.StrEnum):
    """The Moodle CSV column to identify users by in Moodle's import form."""

    EMAIL = "email"  # every student in the file has an email address: map "Email address"
    USERNAME = "username"  # some have none (an invite needs no email), so their cells are empty: map "Username"


@dataclass(frozen=True)
class MoodleMatch:
    """Which column the results page tells the instructor to map, and why."""

    key: MoodleKey
    students: int  # rows in the file
    without_email: int  # of those, rows with an empty "Email address" cell


def moodle_match(students: Sequence[StudentTotal]) -> MoodleMatch:
    """The column that identifies every row of moodle_csv(…, students): "Email address" only when no
    student's email is blank (an empty cell matches nobody in Moodle), else "Username"."""
    missing = sum(1 for s in students if not s.email.strip())
    return MoodleMatch(MoodleKey.USERNAME if missing else MoodleKey.EMAIL, len(students), missing)


def long_csv(rows: Sequence[LongRow]) -> str:
    """One row per (student, item): student, question, slot, answer, points, max points."""
    out = [["student", "question", "slot", "item", "answer", "points", "max_points"]]
    out += [[r.username, str(r.number), r.key, r.title, r.answer, _fmt(r.points), _fmt(r.max_points)] for r in rows]
    return _csv(out)
