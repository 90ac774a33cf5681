"""Gradebook CSVs: one row per student in Canvas's and Moodle's import layouts, and a long CSV.

Canvas (Grades > Import): the columns Student, ID, SIS User ID, SIS Login ID, Section, then one
column per assignment named by its title; a second row "Points Possible" gives the maximum.
https://community.canvaslms.com/t5/Instructor-Guide/How-do-I-import-grades-in-the-Gradebook/ta-p/807
Canvas finds each row's student by its own user id ("ID"), else by "SIS User ID", else by "SIS Login
ID" (canvas-lms, app/models/gradebook_importer.rb: process_student): WarpDrill knows no Canvas user
ids, so "ID" stays empty (WarpDrill's own user ids there were read as Canvas's, matching the wrong
students or none); "SIS User ID" is the student ID (학번) the student gave, which is what a university's
SIS ids are, left empty where two students of the file give the same one; "SIS Login ID" is the
WarpDrill username, which matches where the course's usernames are the institution's logins (a roster
uploaded from them, or LTI accounts). Otherwise paste the SIS ids from Canvas's own export (README).
Moodle (Grades > Import > CSV file): the form maps one column to a user field to find the student
("Email address" -> email address, "ID number" -> ID number, or "Username" -> username) and each grade
column to a grade item; names are informational. https://docs.moodle.org/en/Grade_import
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Sequence

from courses.core.spreadsheet import csv_text
from practice.core.answers import Field, FieldKind

from .points import format_points


@dataclass(frozen=True)
class StudentTotal:
    username: str
    first_name: str
    last_name: str
    email: str
    user_id: int
    total: float | None  # None: no attempt (an empty cell, not a zero)
    section: str = ""
    student_id: str = ""  # the student ID (학번) the student gave; "" for none


@dataclass(frozen=True)
class LongRow:
    username: str
    student_id: str  # the student ID (학번) the student gave, or ""
    number: int  # the item's position on the student's paper
    key: str  # the item's slot in the template (zone.pool), the same for every student
    title: str  # family id or kernel slug
    answer: str  # the saved answer (fields joined "name=value; ...", an option as its label), or the verdicts
    points: float
    max_points: float
    choice_keys: str = ""  # the chosen options' keys ("slots=b"), for a question with multiple-choice fields


def _fmt(x: float | None) -> str:
    """Points as a cell: at most two decimals, no trailing zeros (exams.core.points); "" for None."""
    return format_points(x)


def _csv(rows: Sequence[Sequence[str]]) -> str:
    # Through the one writer that keeps a student's chosen name from running as a formula.
    return csv_text(rows)


def full_name(s: StudentTotal) -> str:
    """The student's name as one string: 'First Last', or the one name the site has (a roster's
    `name` is stored whole in first_name), else ''."""
    return " ".join(x for x in (s.first_name.strip(), s.last_name.strip()) if x)


def unique_student_ids(students: Sequence[StudentTotal]) -> dict[str, str]:
    """{username: student ID} of the students whose student ID no other student of `students` gives:
    a student ID two students claim identifies neither (one typed another's), so it is left out."""
    counts: dict[str, int] = {}
    for s in students:
        sid = s.student_id.strip()
        if sid:
            counts[sid] = counts.get(sid, 0) + 1
    return {s.username: s.student_id.strip() for s in students if counts.get(s.student_id.strip()) == 1}


def canvas_csv(title: str, max_total: float, students: Sequence[StudentTotal]) -> str:
    """Canvas's gradebook layout; `title` is the assignment column (Canvas matches it by name). Rows are
    found by "SIS User ID" (the student's student ID, where no other student gives the same one), else
    by "SIS Login ID" (the WarpDrill username); "ID", Canvas's own id, is left empty (see the module
    docstring). "Student" is "Last, First" where both are known, else the one name, else the username:
    informational."""
    rows = [["Student", "ID", "SIS User ID", "SIS Login ID", "Section", title],
            ["Points Possible", "", "", "", "", _fmt(max_total)]]
    ids = unique_student_ids(students)
    for s in students:
        first, last = s.first_name.strip(), s.last_name.strip()
        name = f"{last}, {first}" if first and last else (full_name(s) or s.username)
        rows.append([name, "", ids.get(s.username, ""), s.username, s.section, _fmt(s.total)])
    return _csv(rows)


def moodle_csv(title: str, students: Sequence[StudentTotal]) -> str:
    """Moodle's CSV grade import. The identifiers come first: "Email address" (map it to the email
    address), "Username" (to username: Moodle's usernames are lower case, so is this column) and "ID
    number" (to ID number, where the Moodle keeps students' IDs there; the student ID the student gave,
    where no other student gives the same one); then "First name" and "Last name" where the site has
    both, and "Full name" always (a single full name, such as a roster's "김민수", is not a first name);
    then `title`, the grade item's column. A student with no attempt has an empty grade cell."""
    rows = [["Email address", "Username", "ID number", "First name", "Last name", "Full name", title]]
    ids = unique_student_ids(students)
    for s in students:
        first, last = s.first_name.strip(), s.last_name.strip()
        split = bool(first and last)
        rows.append([s.email, s.username.lower(), ids.get(s.username, ""), first if split else "",
                     last if split else "", full_name(s), _fmt(s.total)])
    return _csv(rows)


class MoodleKey(enum.StrEnum):
    """The Moodle CSV column to identify users by in Moodle's import form."""

    EMAIL = "email"  # every student in the file has an email address: map "Email address"
    ID_NUMBER = "idnumber"  # some have no email, every one a student ID no other gives: map "ID number"
    USERNAME = "username"  # neither column is full (an invite needs neither), so their cells are empty: map "Username"


@dataclass(frozen=True)
class MoodleMatch:
    """Which column the results page tells the instructor to map, and why."""

    key: MoodleKey
    students: int  # rows in the file
    without_email: int  # of those, rows with an empty "Email address" cell
    without_id: int = 0  # of those, rows with an empty "ID number" cell (none given, or another's too)


def moodle_match(students: Sequence[StudentTotal]) -> MoodleMatch:
    """The column that identifies every row of moodle_csv(…, students): "Email address" only when no
    student's email is blank (an empty cell matches nobody in Moodle), else "ID number" when every row
    has one, else "Username"."""
    missing = sum(1 for s in students if not s.email.strip())
    without_id = len(students) - len(unique_student_ids(students))
    key = MoodleKey.EMAIL if not missing else MoodleKey.ID_NUMBER if not without_id else MoodleKey.USERNAME
    return MoodleMatch(key, len(students), missing, without_id)


def answer_cells(question: dict, answer: dict, lang: str) -> tuple[str, str]:
    """(answer, choice keys) of a stored question's saved answer, as the long CSV writes them: every
    field "name=value", "; "-joined in the order saved, a multiple-choice field's value as the option's
    label in `lang` (what the student read: "slots=__syncthreads() at (C)", not the key "b"); and the
    chosen keys of the multiple-choice fields alone ("slots=b"), "" where it has none. A key no option
    has (an old variant) is written as it is."""
    fields = {d.get("name"): Field.from_dict(d) for d in question.get("fields", []) if d.get("name")}
    shown, keys = [], []
    for name, value in answer.items():
        field = fields.get(name)
        if field is not None and field.kind is FieldKind.CHOICE:
            shown.append(f"{name}={field.format_value(value, lang) if value != '' else ''}")
            keys.append(f"{name}={value}")
        else:
            shown.append(f"{name}={value}")
    return "; ".join(shown), "; ".join(keys)


def long_csv(rows: Sequence[LongRow]) -> str:
    """One row per (student, item): student (username), student ID, question, slot, item, answer (an
    option as its label), the chosen options' keys, points, max points."""
    out = [["student", "student_id", "question", "slot", "item", "answer", "choice_keys", "points", "max_points"]]
    out += [[r.username, r.student_id, str(r.number), r.key, r.title, r.answer, r.choice_keys, _fmt(r.points),
             _fmt(r.max_points)] for r in rows]
    return _csv(out)
