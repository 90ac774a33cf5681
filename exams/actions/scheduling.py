"""Templates, scheduled exams and accommodations, and each student's window and deadline."""
from __future__ import annotations

from datetime import datetime, timedelta

from django.utils.translation import gettext as _

from exams.core.catalogue import AnyCatalogue
from exams.core.template import ExamTemplateSpec, parse_template

from .. import drawing
from ..catalogue import DbCatalogue
from ..errors import ExamError
from ..models import Accommodation, Exam, ExamTemplate


def check_template(data, course=None) -> ExamTemplateSpec:
    """Parse and validate template data (or JSON/YAML text) against the problems `course` may use (its
    own and the bank's; every problem when None). Raises TemplateError."""
    return parse_template(data, DbCatalogue(course))


def save_template(course, user, data, template: ExamTemplate | None = None) -> ExamTemplate:
    """Create (or update) a course's template from data or text. Raises TemplateError; nothing is saved then."""
    spec = check_template(data, course)
    stored = spec.to_dict()
    if template is None:
        return ExamTemplate.objects.create(course=course, title=spec.title["en"], data=stored, created_by=user)
    template.title, template.data = spec.title["en"], stored
    template.save(update_fields=["title", "data", "updated_at"])
    return template


def schedule_exam(course, template: ExamTemplate, *, opens_at, closes_at, duration_minutes: int, title: str = "",
                  **options) -> Exam:
    """Schedule `template` for `course`. `options`: password, honour_code, feedback, results_release_at, lockdown.
    Raises ExamError for a window that closes before it opens; TemplateError if the template no longer validates."""
    if template.course_id != course.pk:
        raise ExamError(_("This template belongs to another course."))
    if closes_at <= opens_at:
        raise ExamError(_("The exam must close after it opens."))
    if duration_minutes <= 0:
        raise ExamError(_("The duration must be at least one minute."))
    check_template(template.data, course)
    exam = Exam.objects.create(course=course, template=template, title=title or template.title, spec=template.data,
                               opens_at=opens_at, closes_at=closes_at, duration_minutes=duration_minutes, **options)
    drawing.enqueue_predraw(exam)  # every student's variant drawn ahead, so Start does not generate it
    return exam


def update_exam(exam: Exam, **fields) -> Exam:
    """Change an exam's schedule or options (not its template once an attempt has started)."""
    if "template" in fields and fields["template"].pk != exam.template_id:
        if exam.attempts.exists():
            raise ExamError(_("Students have started this exam; its template cannot change."))
        fields["spec"] = fields["template"].data
    for name, value in fields.items():
        setattr(exam, name, value)
    if exam.closes_at <= exam.opens_at:
        raise ExamError(_("The exam must close after it opens."))
    exam.save()
    if "spec" in fields:
        drawing.enqueue_predraw(exam)  # the stored draws were of the old template
    return exam


def set_accommodation(exam: Exam, user, extra_minutes: int = 0, opens_at=None, closes_at=None) -> Accommodation:
    """A student's extra time and/or own window (replacing any earlier one)."""
    acc, _created = Accommodation.objects.update_or_create(
        exam=exam, user=user, defaults={"extra_minutes": extra_minutes, "opens_at": opens_at, "closes_at": closes_at})
    return acc


def remove_accommodation(exam: Exam, accommodation_id: int) -> Accommodation | None:
    """Delete one accommodation of `exam` (None when it has no such one). Only attempts started
    afterwards are affected: a started attempt keeps the deadline it was started with (extend it or
    not on its page)."""
    acc = Accommodation.objects.filter(exam=exam, pk=accommodation_id).select_related("user").first()
    if acc is not None:
        acc.delete()
    return acc


def spec_of(exam: Exam) -> ExamTemplateSpec:
    """The exam's template spec, parsed without the catalogue's validation (it was validated when
    scheduled; drawing checks the kernel problems against the real catalogue): no database work."""
    return parse_template(exam.spec, AnyCatalogue())


# ---- windows and deadlines --------------------------------------------------------------------

def window_with(exam: Exam, acc: Accommodation | None) -> tuple[datetime, datetime, int]:
    """(opens, closes, extra minutes) of a student whose accommodation of `exam` is `acc` (None: they have
    none): the accommodation's own open and close where it sets them, else the exam's. The one statement
    of the rule; window() and windows() read the accommodations and ask it. No database work."""
    if acc is None:
        return exam.opens_at, exam.closes_at, 0
    return acc.opens_at or exam.opens_at, acc.closes_at or exam.closes_at, acc.extra_minutes


def window(exam: Exam, user) -> tuple[datetime, datetime, int]:
    """(opens, closes, extra minutes) for this student: the exam's, or their accommodation's (window_with)."""
    return window_with(exam, Accommodation.objects.filter(exam=exam, user=user).first())


def windows(exam: Exam, user_ids) -> dict[int, tuple[datetime, datetime, int]]:
    """window() of many students at once: {user id: (opens, closes, extra minutes)} for each of `user_ids`
    (a list of ids, or a values_list(..., flat=True) queryset of them, used as a subquery). Two queries
    at most, whatever the number of students: the ids (a queryset's), and the exam's accommodations of them."""
    own = {acc.user_id: acc for acc in Accommodation.objects.filter(exam=exam, user_id__in=user_ids)}
    return {user_id: window_with(exam, own.get(user_id)) for user_id in user_ids}


def deadline_for(exam: Exam, user, started_at: datetime, known_window: tuple | None = None) -> datetime:
    """min(the window's close, start + duration + extra time). `known_window`: window()'s answer
    when the caller has it (no second query)."""
    _opens, closes, extra = known_window or window(exam, user)
    return min(closes, started_at + timedelta(minutes=exam.duration_minutes + extra))
