"""Printed exams of a scheduled exam: the Django shell around exams/core/printing.

It reads what the core needs from the database (the exam's template and secret, the roster, the
stored attempts, the kernel problems' package versions) and hands back PDF bytes. Who may print is
decided by the view (exams.access): staff of the exam's course only.
"""
from __future__ import annotations

import enum

from django.conf import settings
from django.utils.text import slugify
from django.utils.translation import gettext as _

from exams.core.printing import ExamHeader, KatexRenderer, Part, Student, lettered_forms, print_forms, student_forms

from .actions.scheduling import spec_of
from .catalogue import DbCatalogue
from .models import Exam, ExamItem

MAX_LETTERED_FORMS = 26


class PrintSet(enum.StrEnum):
    """Which forms a print run makes."""

    FORMS = "forms"  # K lettered forms A, B, C, ... (each a drawn variant)
    STUDENTS = "students"  # one form per enrolled student, their name and ID on every page


# Sentences of the shipped bank's statements that speak of the screen (the editor, its launch fields),
# by language, with what a printed form says instead: a paper has no editor to fill in. An author's
# own statement is printed as written.
PAPER_WORDING = {
    "en": {"Fill in the launch fields under the editor (or put a line like the one below in your source).":
           "Write the launch configuration (block and grid) below your kernel, or a line like the one below in it."},
    "ko": {"에디터 아래의 실행 구성 입력칸을 채우세요 (또는 아래와 같은 줄을 소스에 넣으세요).":
           "커널 아래에 실행 구성(block과 grid)을 쓰거나, 아래와 같은 줄을 커널에 넣으세요."},
}


def paper_statement(statement: dict) -> dict:
    """The statement ({language: Markdown}) as a printed form says it (PAPER_WORDING replaced)."""
    out = {}
    for lang, text in statement.items():
        for screen, paper in PAPER_WORDING.get(lang, {}).items():
            text = text.replace(screen, paper)
        out[lang] = text
    return out


def _kernel_text(item: dict) -> dict:
    """The statement (bound to the item's variant), title and reference solution of a drawn kernel item,
    from the package version it names."""
    from problems.models import ProblemVersion
    from problems.services import version_package

    kernel = item["kernel"]
    version = ProblemVersion.objects.filter(pk=kernel.get("version_id")).first()
    if version is None:
        return {"title": {"en": kernel.get("slug", "")}, "statement": {}, "solution": ""}
    package = version_package(version).with_variant(kernel.get("variant") or None)
    return {"title": package.title, "statement": paper_statement(package.statement), "solution": package.solution}


def _roster(exam: Exam) -> list[Student]:
    """The course's students in username order; the ID printed beside the name is the student ID they
    gave (학번, accounts.profiles), else their username, and a student with no name on the site gets an
    empty Name box to write in (not the username twice)."""
    from accounts.profiles import student_id_of
    from courses.models import Role
    from courses.services import members

    return [Student(id=str(u.pk), name=u.get_full_name().strip(), number=student_id_of(u) or u.get_username())
            for u in members(exam.course, Role.STUDENT).select_related("profile")]


def _stored_items(exam: Exam) -> dict[str, list[dict]]:
    """Each started attempt's drawn items (user id -> items in order): a student's paper is their attempt."""
    drawn: dict[str, list[dict]] = {}
    for item in ExamItem.objects.filter(attempt__exam=exam).order_by("attempt_id", "number").values(
            "attempt__user_id", "data"):
        drawn.setdefault(str(item["attempt__user_id"]), []).append(item["data"])
    return drawn


def exam_filename(exam: Exam, which: PrintSet, part: Part, lang: str, count: int) -> str:
    """The download's file name, e.g. 'midterm-1-forms-4-key-ko.pdf'."""
    forms = f"-{count}" if which is PrintSet.FORMS else ""
    return f"{slugify(exam.title) or 'exam'}-{which}{forms}-{part}-{lang}.pdf"


def exam_pdf(exam: Exam, which: PrintSet, lang: str, part: Part, count: int = 4) -> tuple[bytes, str]:
    """(PDF bytes, file name) of the exam's lettered forms or per-student forms, their sheets or keys.

    Raises exams.core.printing.MathRenderError when KaTeX cannot run, ValueError for a count out of
    range or an empty roster.
    """
    spec = spec_of(exam)
    catalogue = DbCatalogue(exam.course)
    if which is PrintSet.FORMS:
        if not 1 <= count <= MAX_LETTERED_FORMS:
            raise ValueError(_("Print 1 to %(max)d forms.") % {"max": MAX_LETTERED_FORMS})
        forms = lettered_forms(spec, exam.secret, count, catalogue, exam.course.target_cc)
    else:
        forms = student_forms(spec, exam.secret, _roster(exam), catalogue, drawn=_stored_items(exam),
                              target_cc=exam.course.target_cc)
        if not forms:
            raise ValueError(_("The course has no students to print forms for."))
    # The template's titles in both languages, unless the exam was renamed when it was scheduled.
    header = ExamHeader(title={la: exam.title_in(la) for la in ("en", "ko")}, course=str(exam.course))
    renderer = KatexRenderer(settings.BASE_DIR / "node_modules" / "katex")
    pdf = print_forms(header, forms, lang, part, renderer=renderer, kernel_text=_kernel_text)
    return pdf, exam_filename(exam, which, part, lang, count)
