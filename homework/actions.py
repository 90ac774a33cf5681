"""The write path of problem sets: create one, add and remove items. Callers have checked that the
user is a TA or instructor of the course (homework.views, through courses.access)."""
from __future__ import annotations

from django.db import transaction
from django.db.models import Max, Q
from django.utils.translation import gettext as _

from grader.core.errors import WarpDrillError
from problems.models import Problem

from .models import LatePolicy, ProblemSet, ProblemSetItem


class ProblemSetError(WarpDrillError):
    """A problem-set change that cannot be made as asked; the message says why."""


def create_set(course, user, *, title_en: str, title_ko: str = "", opens_at, due_at,
               late_policy: str = LatePolicy.NONE, late_until=None) -> ProblemSet:
    """A new problem set of `course`. Raises ProblemSetError when it would be due before it opens or
    its late deadline is not after the due date."""
    if due_at <= opens_at:
        raise ProblemSetError(_("The due date must be after the opening time."))
    if late_policy == LatePolicy.MARKED and (late_until is None or late_until <= due_at):
        raise ProblemSetError(_("With late work counting, give a late deadline after the due date."))
    return ProblemSet.objects.create(course=course, title_en=title_en.strip(), title_ko=title_ko.strip(),
                                     opens_at=opens_at, due_at=due_at, late_policy=late_policy,
                                     late_until=late_until if late_policy == LatePolicy.MARKED else None,
                                     created_by=user)


def assignable_problems(course):
    """Kernel problems a course may assign: its own published ones and the bank's."""
    return (Problem.objects.filter(is_published=True, current_version__isnull=False)
            .filter(Q(course=course) | Q(course__isnull=True)).order_by("course", "slug"))


@transaction.atomic
def add_item(problem_set: ProblemSet, *, problem_slug: str = "", family: str = "") -> ProblemSetItem:
    """Append a kernel problem (by slug: the course's published ones or the bank's) or a question family.
    Raises ProblemSetError for anything else."""
    from practice.core.questions import FAMILIES

    position = (problem_set.items.aggregate(m=Max("position"))["m"] or 0) + 1
    if problem_slug:
        problem = assignable_problems(problem_set.course).filter(slug=problem_slug).first()
        if problem is None:
            raise ProblemSetError(_("Choose a published problem of this course or of the bank."))
        return ProblemSetItem.objects.create(problem_set=problem_set, problem=problem, position=position)
    if family in FAMILIES:
        return ProblemSetItem.objects.create(problem_set=problem_set, family=family, position=position)
    raise ProblemSetError(_("Choose a problem or a question family."))


def remove_item(problem_set: ProblemSet, item_id: int) -> None:
    problem_set.items.filter(pk=item_id).delete()
