"""Gradebook CSVs: one row per student in Canvas's and Moodle's import layouts, and a long CSV.

Canvas (Grades > Import): the columns Student, ID, SIS User ID, SIS Login ID, Section, then one
column per assignment named by its title; a second row "Points Possible" gives the maximum.
https://community.canvaslms.com/t5/Instructor-Guide/How-do-I-import-grades-in-the-Gradebook/ta-p/807
Moodle (Grades > Import > CSV file): any identifying column (we give Username and Email address,
mapped on the import form) and a column per grade item.
https://docs.moodle.org/en/Grade_import
"""
from __future__ import annotations

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


def canvas_csv(title: str, max_total: float, students: Sequence[StudentTotal]) -> str:
    """Canvas's gradebook layout; `title` is the assignment column (Canvas matches it by name)."""
    rows = [["Student", "ID", "SIS User ID", "SIS Login ID", "Section", title],
            ["Points Possible", "", "", "", "", _fmt(max_total)]]
    for s in students:
        name = f"{s.last_name}, {s.first_name}" if s.last_name else (s.first_name or s.username)
        rows.append([name, str(s.user_id), "", s.username, s.section, _fmt(s.total)])
    return _csv(rows)


def moodle_csv(title: str, students: Sequence[StudentTotal]) -> str:
    """Moodle's CSV grade import: map 'Username' (or 'Email address') to the user, `title` to the item."""
    rows = [["First name", "Last name", "Username", "Email address", title]]
    rows += [[s.first_name, s.last_name, s.username, s.email, _fmt(s.total)] for s in students]
    return _csv(rows)


def long_csv(rows: Sequence[LongRow]) -> str:
    """One row per (student, item): student, question, slot, answer, points, max points."""
    out = [["student", "question", "slot", "item", "answer", "points", "max_points"]]
    out += [[r.username, str(r.number), r.key, r.title, r.answer, _fmt(r.points), _fmt(r.max_points)] for r in rows]
    return _csv(out)
