"""Which forms a print run has: K lettered forms, or one per enrolled student.

A lettered form is a real drawn variant: the exams core's drawing with the form id as the "student"
("form:A"), so forms differ from each other exactly as students' exams do, and printing the same
exam twice gives the same forms. A student's form is drawn with the student's id, the same call an
online attempt makes, so a student's paper is their online variant. Plain Python, no Django.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..draw import draw_exam
from ..catalogue import KernelCatalogue
from ..template import ExamTemplateSpec
from .sheet import PrintForm

MAX_FORMS = 26 * 27  # A..Z, then AA..ZZ


def form_letters(count: int) -> list[str]:
    """['A', 'B', ...] for `count` forms: A..Z, then AA, AB, ... Raises ValueError outside 1..MAX_FORMS."""
    if not 1 <= count <= MAX_FORMS:
        raise ValueError(f"a print run has 1 to {MAX_FORMS} forms, not {count}")
    alphabet = [chr(ord("A") + i) for i in range(26)]
    letters = list(alphabet)
    for first in alphabet:
        letters += [first + second for second in alphabet]
    return letters[:count]


def lettered_forms(spec: ExamTemplateSpec, secret: str, count: int,
                   catalogue: KernelCatalogue | None = None, target_cc: str | None = None) -> list[PrintForm]:
    """`count` forms A, B, ... each drawn from `spec` with the exam's `secret` and "form:<letter>",
    occupancy questions for `target_cc` (the course's target GPU)."""
    return [PrintForm(form_id=letter, items=draw_exam(spec, secret, f"form:{letter}", catalogue, target_cc).items)
            for letter in form_letters(count)]


@dataclass(frozen=True)
class Student:
    """A student on the roster, as the print run names them."""

    id: str  # the stable id the exam draws with (the user's primary key, as a string)
    name: str  # full name as printed
    number: str = ""  # the course's student number, printed beside the name


def student_forms(spec: ExamTemplateSpec, secret: str, students: list[Student],
                  catalogue: KernelCatalogue | None = None, drawn: dict[str, list[dict]] | None = None,
                  target_cc: str | None = None) -> list[PrintForm]:
    """One form per student, in roster order: the items of their stored attempt where `drawn` has it
    (student id -> items), else drawn as their attempt would be. The form id is the student number
    (or the id when the course has none)."""
    drawn = drawn or {}
    forms = []
    for s in students:
        items = drawn.get(s.id) or draw_exam(spec, secret, s.id, catalogue, target_cc).items
        forms.append(PrintForm(form_id=s.number or s.id, items=items, student_name=s.name, student_number=s.number))
    return forms
