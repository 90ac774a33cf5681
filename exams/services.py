"""Reads of the exams app for other apps: what exams are open for a student in a course, which course
problems an exam reserves (exams.reservations)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.urls import reverse
from django.utils import timezone

from .actions.attempts import in_progress
from .actions.scheduling import window_with
from .models import Accommodation, AttemptState, Exam, ExamAttempt
# Exam mode for the JSON API (grader.api): the 403 a student's attempt in progress answers it with, or None.
from .lockdown import api_refusal as lockdown_refusal  # noqa: F401
# Course problems an exam keeps secret while it runs, for the problems, courses and homework pages.
from .reservations import Reservation, closed_to, is_reserved, reservations_of, reserved_problem_ids  # noqa: F401


@dataclass(frozen=True)
class OpenExam:
    exam: Exam
    url: str
    closes_at: datetime  # the student's own window's close (an accommodation may move it)
    in_progress: bool  # the student has started and not finished


def open_exams(course, user, now: datetime | None = None) -> list[OpenExam]:
    """The course's exams open for `user` now (their window, with accommodations), soonest closing first;
    an attempt already submitted or closed is not open any more."""
    now = now or timezone.now()
    exams = list(Exam.objects.filter(course=course))
    if not exams:
        return []
    accs = {a.exam_id: a for a in Accommodation.objects.filter(exam__in=exams, user=user)}
    attempts = {a.exam_id: a for a in ExamAttempt.objects.filter(exam__in=exams, user=user)}
    out = []
    for exam in exams:
        opens, closes, _extra = window_with(exam, accs.get(exam.pk))
        attempt = attempts.get(exam.pk)
        if attempt is not None:
            if attempt.state != AttemptState.OPEN or attempt.deadline <= now:
                continue
            out.append(OpenExam(exam, reverse("exams:attempt", args=[exam.pk]), attempt.deadline, True))
        elif opens <= now < closes:
            out.append(OpenExam(exam, reverse("exams:exam", args=[exam.pk]), closes, False))
    return sorted(out, key=lambda o: o.closes_at)


@dataclass(frozen=True)
class ExamQuestion:
    exam: Exam
    number: int  # the question's number on the student's paper
    url: str  # the question's page in the attempt


def exam_question_in_progress(user, problem, now: datetime | None = None) -> ExamQuestion | None:
    """The kernel question of an attempt `user` has open at `now` (before its deadline) that is
    `problem` (by slug, as an item stores it), or None."""
    from .models import ExamItem

    if not getattr(user, "is_authenticated", False):
        return None
    now = now or timezone.now()
    item = (ExamItem.objects.filter(kind="kernel", attempt__user=user, attempt__state=AttemptState.OPEN,
                                    attempt__deadline__gt=now, data__kernel__slug=problem.slug)
            .select_related("attempt__exam").first())
    if item is None:
        return None
    exam = item.attempt.exam
    return ExamQuestion(exam, item.number, reverse("exams:kernel", args=[exam.pk, item.number]))


def exam_question_of(submission, now: datetime | None = None) -> ExamQuestion | None:
    """The kernel question `submission` answers, while its student's attempt is open at `now` (before
    its deadline): where that student fixes and resubmits it. None for practice work, for a submission
    a reset detached from its item, and once the attempt is submitted, closed or past its deadline."""
    from .models import ExamItem

    if not submission.exam_item_id:
        return None
    now = now or timezone.now()
    item = (ExamItem.objects.filter(pk=submission.exam_item_id, kind="kernel", attempt__user_id=submission.user_id,
                                    attempt__state=AttemptState.OPEN, attempt__deadline__gt=now)
            .select_related("attempt__exam").first())
    if item is None:
        return None
    exam = item.attempt.exam
    return ExamQuestion(exam, item.number, reverse("exams:kernel", args=[exam.pk, item.number]))


def exam_url_of(submission) -> str | None:
    """The page of the exam `submission` was made in (exams:exam), or None for practice work or an exam
    that is gone."""
    from .models import ExamItem

    exam_id = submission.exam_id or (ExamItem.objects.filter(pk=submission.exam_item_id)
                                     .values_list("attempt__exam_id", flat=True).first()
                                     if submission.exam_item_id else None)
    return reverse("exams:exam", args=[exam_id]) if exam_id else None


def hidden_from_student(submission, now: datetime | None = None) -> bool:
    """True when the student who made this exam submission may not see its result yet: the exam gives
    less than full feedback (for the item's zone) and the results are not visible to students
    (exams.release.results_visible: released, and no attempt still running). A submission a
    reset detached from its item (exam_item None, exam kept) is held to the exam's strictest feedback.
    Practice submissions are never hidden; neither is one whose exam was deleted (nothing to keep)."""
    from .models import Exam, ExamItem

    item = None
    if submission.exam_item_id:
        item = ExamItem.objects.select_related("attempt__exam").filter(pk=submission.exam_item_id).first()
    exam = item.attempt.exam if item is not None else (
        Exam.objects.filter(pk=submission.exam_id).first() if submission.exam_id else None)
    if exam is None:
        return False
    from .release import results_visible

    if results_visible(exam, now):
        return False
    zones = exam.spec.get("zones", [])
    if item is not None:
        zi = item.data.get("zone", 0)
        feedbacks = [(zones[zi].get("feedback") if zi < len(zones) else None) or exam.feedback]
    else:
        feedbacks = [z.get("feedback") or exam.feedback for z in zones] or [exam.feedback]
    return any(f != "full" for f in feedbacks)


def exam_course(submission):
    """The course of the exam an exam submission was made in (None when the exam is gone)."""
    from courses.models import Course

    if submission.exam_id:
        return Course.objects.filter(exams__pk=submission.exam_id).first()
    return Course.objects.filter(exams__attempts__items__pk=submission.exam_item_id).first()


def regrade_origin(submission):
    """The exam kernel regrade whose preview graded `submission` (a copy, Purpose.REJUDGE) again, as a
    grader.runs.RunOrigin; None when it is not such a copy."""
    from django.utils.translation import gettext as _

    from grader.runs import RunKind, RunOrigin

    from .models import KernelRejudge

    record = (KernelRejudge.objects.select_related("regrade__exam", "version", "original__user")
              .filter(copy=submission).first())
    if record is None:
        return None
    exam = record.regrade.exam
    run_url = reverse("exams:kernel_regrade", args=[exam.pk, record.regrade.pk])
    crumbs = [(exam.localized_title, reverse("exams:results", args=[exam.pk])),
              (_("Regrade"), reverse("exams:regrade", args=[exam.pk])),
              (_("Kernel re-judging"), run_url)]
    return RunOrigin(RunKind.REGRADE, record.version.number, run_url, crumbs, original_id=record.original_id,
                     original_url=record.original.get_absolute_url(), original_user=record.original.user.get_username())


def attempts_in_progress(course, now: datetime | None = None) -> int:
    """How many attempts at the course's exams are being taken at `now` (started, not ended, before
    their deadline): the course's settings keep its target GPU while any is."""
    now = now or timezone.now()
    return ExamAttempt.objects.filter(in_progress(now), exam__course=course).count()


def member_attempts_in_progress(course, user, now: datetime | None = None) -> list[ExamAttempt]:
    """`user`'s attempts at the course's exams being taken at `now` (open, before their deadline), each
    with its exam, soonest deadline first: what removing them from the course would close."""
    now = now or timezone.now()
    return list(ExamAttempt.objects.filter(in_progress(now), exam__course=course, user=user)
                .select_related("exam").order_by("deadline"))
