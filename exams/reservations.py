"""Course problems an exam keeps secret ("reserved"), as exam platforms keep exam-only questions.

A course's kernel problem that an exam of that course uses (named by its slug, or matched by one of
its topic/tag pools) is reserved from the moment the exam is scheduled until every student's window
has closed: the exam's own close, any accommodation's later close, and any attempt still open past
them (a staff extension). While reserved, the course's students cannot list, open or submit it
(web, API, CLI); its staff still can. Afterwards it follows its own published flag. The shipped
bank's problems are public and never reserved: the template editor says so (exams.template_picker).

Reservation is read from the exams themselves on each request (a query for the course's live exams,
one for the problems they name), so scheduling, moving or deleting an exam needs no bookkeeping.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Exists, Max, OuterRef, Q
from django.utils import timezone

from exams.core.kernel_refs import kernel_refs

from .models import Accommodation, AttemptState, Exam, ExamAttempt


def live_exams(course_id: int, now: datetime | None = None):
    """The course's exams whose students' windows have not all closed at `now` (scheduled ones included)."""
    now = now or timezone.now()
    return Exam.objects.filter(course_id=course_id).filter(
        Q(closes_at__gt=now)
        | Exists(Accommodation.objects.filter(exam=OuterRef("pk"), closes_at__gt=now))
        | Exists(ExamAttempt.objects.filter(exam=OuterRef("pk"), state=AttemptState.OPEN, deadline__gt=now)))


def _problem_ids(course_id: int, exams) -> dict[int, list]:
    """{problem id: [exams]} of the course's own kernel problems that `exams` (of that course) may draw."""
    from problems.models import Problem

    from .catalogue import DbCatalogue

    by_slug: dict[str, list] = {}
    catalogue = None
    for exam in exams:
        for ref in kernel_refs(exam.spec):
            if ref.slug:
                slugs = [ref.slug]
            else:
                catalogue = catalogue or DbCatalogue(exam.course)
                slugs = [i.slug for i in catalogue.matching(ref.topic, ref.tag)]
            for slug in slugs:
                if exam not in by_slug.setdefault(slug, []):
                    by_slug[slug].append(exam)
    if not by_slug:
        return {}
    rows = Problem.objects.filter(course_id=course_id, slug__in=list(by_slug)).values_list("pk", "slug")
    return {pk: by_slug[slug] for pk, slug in rows}


def reserved_problem_ids(course_id: int | None, now: datetime | None = None) -> set[int]:
    """Ids of the course's kernel problems reserved at `now` (the bank's, course None: none)."""
    if course_id is None:
        return set()
    exams = list(live_exams(course_id, now).select_related("course").only("pk", "spec", "course"))
    return set(_problem_ids(course_id, exams)) if exams else set()


def is_reserved(problem, now: datetime | None = None) -> bool:
    """Whether `problem` (a course's) is reserved for an exam of its course at `now`."""
    return problem.course_id is not None and problem.pk in reserved_problem_ids(problem.course_id, now)


def closed_to(user, problem, now: datetime | None = None) -> bool:
    """Whether `user` may not open or submit `problem` now because an exam reserves it: a reserved
    problem is closed to everyone but its course's staff (courses.access.can_manage)."""
    from courses import access

    if problem.course_id is None or not is_reserved(problem, now):
        return False
    return not access.can_manage(access.course_role(user, problem.course))


@dataclass(frozen=True)
class Reservation:
    """An exam that reserves a problem, and until when (its students' last window close)."""

    exam: Exam
    until: datetime


def _until(exam) -> datetime:
    """When the last of the exam's students' windows closes: its close, an accommodation's, an open attempt's deadline."""
    acc = Accommodation.objects.filter(exam=exam).aggregate(m=Max("closes_at"))["m"]
    open_ = ExamAttempt.objects.filter(exam=exam, state=AttemptState.OPEN).aggregate(m=Max("deadline"))["m"]
    return max(t for t in (exam.closes_at, acc, open_) if t is not None)


def reservations_of(problem, now: datetime | None = None) -> list[Reservation]:
    """The exams reserving `problem` at `now`, each with the time its reservation ends (staff pages)."""
    if problem.course_id is None:
        return []
    exams = list(live_exams(problem.course_id, now).select_related("course"))
    found = _problem_ids(problem.course_id, exams).get(problem.pk, [])
    return sorted((Reservation(e, _until(e)) for e in found), key=lambda r: r.until)
