"""The exam's gradebook CSVs (Canvas, Moodle, long): the Django shell around exams/core/export.

It reads the roster, the attempts and their answers, and hands the core plain values. The files are in
the course's default language (Course.language: the exam's title in it, a multiple-choice answer's
option as the student read it), whoever downloads them, and start with a UTF-8 byte-order mark, which
Excel needs to read them as UTF-8 (Korean Windows otherwise reads CP949) and which Canvas's and
Moodle's importers accept (README: Importing the gradebook CSVs). Who may download is the view's
business (exams.staff_views.export: the course's instructors).
"""
from __future__ import annotations

import enum

from django.utils.text import slugify

from accounts.profiles import student_id_of
from courses.core.spreadsheet import BOM

from .core.export import LongRow, StudentTotal, answer_cells, canvas_csv, long_csv, moodle_csv
from .models import AttemptState, Exam, ExamItem


class Layout(enum.StrEnum):
    """The CSV files an exam exports."""

    CANVAS = "canvas"  # Canvas's gradebook import: one row per student
    MOODLE = "moodle"  # Moodle's CSV grade import: one row per student
    LONG = "long"  # one row per student and question, with the answers


def export_language(exam: Exam) -> str:
    """The language the exam's files are written in: the course's default ("en" or "ko")."""
    return "ko" if exam.course.language == "ko" else "en"


def students(exam: Exam) -> list[StudentTotal]:
    """Every student of the exam's course by username, with the total of their ended attempt (None
    while it is open or when they never started)."""
    from courses.models import Membership

    attempts = {a.user_id: a for a in exam.attempts.all()}
    members = (Membership.objects.filter(course=exam.course, role="student")
               .select_related("user", "user__profile").order_by("user__username"))
    return [StudentTotal(m.user.get_username(), m.user.first_name, m.user.last_name, m.user.email, m.user.pk,
                         attempts[m.user_id].total if m.user_id in attempts and not attempts[m.user_id].is_open
                         else None, student_id=student_id_of(m.user)) for m in members]


def _answer(item: ExamItem, lang: str) -> tuple[str, str]:
    """(the answer as the long CSV writes it, the chosen options' keys): a kernel item's counted
    submissions and verdicts; a question's fields (exams.core.export.answer_cells)."""
    if item.kind == "kernel":
        return "; ".join(f"#{s.pk} {s.verdict or s.status}" for s in item.submissions.order_by("created_at")), ""
    return answer_cells(item.data.get("question", {}), item.answer or {}, lang)


def long_rows(exam: Exam, lang: str) -> list[LongRow]:
    """One row per ended attempt's item, by username and question number."""
    rows = []
    attempts = exam.attempts.exclude(state=AttemptState.OPEN).select_related("user", "user__profile")
    for a in attempts.order_by("user__username"):
        for i in a.items.all():
            title = i.data.get("question", {}).get("family") or i.data.get("kernel", {}).get("slug", "")
            answer, keys = _answer(i, lang)
            rows.append(LongRow(a.user.get_username(), student_id_of(a.user), i.number, i.key, title, answer,
                                i.points or 0.0, i.max_points, choice_keys=keys))
    return rows


def export_file(exam: Exam, layout: Layout) -> tuple[str, str]:
    """(the file's text, BOM first; its file name) of one layout, in export_language(exam)."""
    lang = export_language(exam)
    title = exam.title_in(lang)
    if layout is Layout.CANVAS:
        max_total = max((a.max_total for a in exam.attempts.all()), default=0.0)
        text = canvas_csv(title, max_total, students(exam))
    elif layout is Layout.MOODLE:
        text = moodle_csv(title, students(exam))
    else:
        text = long_csv(long_rows(exam, lang))
    return BOM + text, f"{slugify(exam.title) or 'exam'}-{layout}.csv"
