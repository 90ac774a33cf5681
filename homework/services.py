"""Reads of problem sets: what is open for a member, and each item's status for a student."""
from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse
from django.utils import timezone

from courses import access
from courses.services import OpenItem

from .core.standing import ItemStatus, classify
from .models import ProblemSet

__all__ = ["ItemRow", "ItemStatus", "item_rows", "open_problem_sets", "visible_sets"]


@dataclass(frozen=True)
class ItemRow:
    """One item as its page shows it."""

    item: object  # ProblemSetItem
    title: str
    url: str
    status: ItemStatus


def visible_sets(course, user):
    """The course's sets the user may see: all for its staff, the opened ones for its students."""
    sets = ProblemSet.objects.filter(course=course)
    if access.can_manage(access.course_role(user, course)):
        return sets
    return sets.filter(opens_at__lte=timezone.now())


def open_problem_sets(course, user, now=None) -> list[OpenItem]:
    """The course's problem sets open now (opened, and work still counts) as the course page's items."""
    now = now or timezone.now()
    out = []
    for s in ProblemSet.objects.filter(course=course, opens_at__lte=now):
        if s.closes_at() > now:
            out.append(OpenItem(title=s.title, url=reverse("homework:set", args=[course.code, s.pk]),
                                kind="problem set", closes_at=s.due_at))
    return out


def _status(times_correct, times_any, problem_set) -> ItemStatus:
    """The status from every right answer's and every attempt's time since the set opened."""
    closes = problem_set.closes_at()
    solved = [t for t in times_correct if t <= closes]
    return classify(min(solved) if solved else None, any(t <= closes for t in times_any), problem_set.due_at)


def item_rows(problem_set, user) -> list[ItemRow]:
    """Every item of the set with `user`'s status: kernel problems from their graded practice
    submissions (platform faults, validation runs and exam work excluded), question families from their answers, both
    counted from the set's opening time."""
    from grader.core.verdicts import Verdict
    from grader.access import practice_submissions
    from grader.models import Status
    from practice.core.questions import FAMILIES
    from practice.models import QuestionAttempt

    rows = []
    for item in problem_set.items.select_related("problem"):
        if item.problem_id:
            subs = (practice_submissions(user).filter(status=Status.GRADED, problem_version__problem=item.problem,
                                                      created_at__gte=problem_set.opens_at)
                    .exclude(verdict=Verdict.INTERNAL_ERROR).values_list("created_at", "verdict"))
            subs = list(subs)
            status = _status([t for t, v in subs if v == Verdict.ACCEPTED], [t for t, _ in subs], problem_set)
            rows.append(ItemRow(item, item.problem.title, reverse("problems:detail", args=[item.problem.slug]), status))
        else:
            answers = list(QuestionAttempt.objects.filter(variant__user=user, variant__family=item.family,
                                                          created_at__gte=problem_set.opens_at)
                           .values_list("created_at", "correct", "after_reveal"))
            family = FAMILIES.get(item.family)
            title = _family_title(family) if family else item.family
            rows.append(ItemRow(item, title, reverse("practice:home"),
                                _status([t for t, ok, shown in answers if ok and not shown],
                                        [t for t, _ok, _shown in answers], problem_set)))
    return rows


def _family_title(family) -> str:
    from django.utils.translation import get_language

    for attr in ("title", "name", "label"):
        value = getattr(family, attr, None)
        if isinstance(value, dict):
            return value.get("ko" if (get_language() or "").startswith("ko") else "en") or value.get("en", family.id)
        if isinstance(value, str):
            return value
    return family.id


def item_columns(problem_set, items) -> list[tuple]:
    """(item, title in the active language, staff URL) per dashboard item (homework.dashboard.Item):
    a kernel problem's dashboard, a question family's preview."""
    from urllib.parse import urlencode

    from practice.core.questions import FAMILIES
    from problems.models import Problem

    code = problem_set.course.code
    problems = {p.slug: p for p in Problem.objects.filter(slug__in=[i.key for i in items if i.kind == "problem"])}
    out = []
    for item in items:
        if item.kind == "problem":
            problem = problems.get(item.key)
            out.append((item, problem.title if problem else item.key,
                        reverse("authoring:problem-dashboard", args=[code, item.key])))
        else:
            family = FAMILIES.get(item.key)
            out.append((item, _family_title(family) if family else item.key,
                        reverse("authoring:family-preview", args=[code]) + "?" + urlencode({"family": item.key})))
    return out
