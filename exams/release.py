"""When students see an exam's results: the Django shell around exams.core.release.

results_visible() is the one rule every student page, API and file that shows a student their answers,
the keys, the worked solutions or a verdict the exam kept back asks; staff pages do not ask it.
"""
from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from .actions.scheduling import windows
from .core.release import ResultsRelease, held_after, results_release
from .models import AttemptState, Exam


def _running_deadlines(exam: Exam, now: datetime) -> list[datetime]:
    """The deadlines of `exam`'s attempts still open at `now` (an open one past its deadline is closed
    lazily, and counts as ended)."""
    return list(exam.attempts.filter(state=AttemptState.OPEN, deadline__gt=now).values_list("deadline", flat=True))


def _unstarted_closes(exam: Exam, now: datetime) -> list[datetime]:
    """When the windows of the course's students who have not started `exam` close (exams.actions.scheduling's
    windows(): their accommodation's own close, else the exam's), those still open at `now`. Three queries
    whatever the number of students."""
    from courses.models import Membership, Role

    if exam.closes_at <= now and not exam.accommodations.filter(closes_at__gt=now).exists():
        return []
    started = exam.attempts.values("user_id")
    students = Membership.objects.filter(course_id=exam.course_id, role=Role.STUDENT) \
        .exclude(user_id__in=started).values_list("user_id", flat=True)
    return [closes for _opens, closes, _extra in windows(exam, students).values() if closes > now]


def release_state(exam: Exam, now: datetime | None = None) -> ResultsRelease:
    """The exam's results as students may see them at `now` (default: the current time)."""
    now = now or timezone.now()
    return results_release(exam.results_release_at, _running_deadlines(exam, now), now, _unstarted_closes(exam, now))


def results_visible(exam: Exam, now: datetime | None = None) -> bool:
    """Whether students may see `exam`'s results: its release time has come and no attempt of it can
    still be answered (exams.core.release)."""
    return release_state(exam, now).visible


def held_for_staff(exam: Exam, now: datetime | None = None) -> ResultsRelease | None:
    """For the instructor's pages: the attempts running, and the windows of students not started yet
    still open, past the exam's release time, which hold the results from students until the last of
    them ends; None when nothing holds them."""
    now = now or timezone.now()
    later = max(now, exam.results_release_at) if exam.results_release_at else now
    return held_after(exam.results_release_at, _running_deadlines(exam, now), now, _unstarted_closes(exam, later))
