"""Reads of problem sets: what is open for a member, and each item's status for a student."""
from __future__ import annotations

import re
from dataclasses import dataclass

from django.urls import reverse
from django.utils import timezone

from courses import access
from courses.services import OpenItem
from practice.labels import family_title

from .core.standing import ItemStatus, classify
from .models import ProblemSet

__all__ = ["ItemRow", "ItemStatus", "SetItemOrigin", "item_rows", "open_problem_sets", "set_item_of", "visible_sets"]


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
    submissions (platform faults, validation runs and exam work excluded), question families from their
    answers, both counted from the set's opening time. A family item links to a question of exactly its
    family (homework.actions.item_question); any answer to that family in the window counts."""
    from grader.core.verdicts import Verdict
    from grader.access import practice_submissions
    from grader.models import Status
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
            rows.append(ItemRow(item, family_title(item.family), reverse("homework:item-question",
                                                     args=[problem_set.course.code, problem_set.pk, item.pk]),
                                _status([t for t, ok, shown in answers if ok and not shown],
                                        [t for t, _ok, _shown in answers], problem_set)))
    return rows


def item_columns(problem_set, items) -> list[tuple]:
    """(item, title in the active language, staff URL) per dashboard item (homework.dashboard.Item):
    a kernel problem's dashboard, a question family's preview."""
    from urllib.parse import urlencode

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
            out.append((item, family_title(item.key),
                        reverse("authoring:family-preview", args=[code]) + "?" + urlencode({"family": item.key})))
    return out


@dataclass(frozen=True)
class SetItemOrigin:
    """The set item a practice question was opened for, as the question's page links back to it."""

    problem_set: object  # ProblemSet
    item: object  # ProblemSetItem
    set_url: str
    another_url: str  # POST: another question of the item's family
    counts_now: bool  # the set still counts work (before its due date, or its late deadline)


_SLOT_RE = re.compile(r"set-(?P<set>\d+)-(?P<item>\d+)-\d+")


def set_item_of(variant, now=None) -> SetItemOrigin | None:
    """The problem-set item `variant` (a practice.models.QuestionVariant) was opened for, from its slot
    (homework.actions.ITEM_SLOT); None for a practice or exam question, or an item since removed."""
    from .models import ProblemSetItem

    m = _SLOT_RE.fullmatch(variant.slot or "")
    if m is None:
        return None
    item = (ProblemSetItem.objects.select_related("problem_set__course")
            .filter(pk=int(m["item"]), problem_set_id=int(m["set"])).first())
    if item is None:
        return None
    s, code = item.problem_set, item.problem_set.course.code
    return SetItemOrigin(s, item, reverse("homework:set", args=[code, s.pk]),
                         reverse("homework:item-question", args=[code, s.pk, item.pk]),
                         s.opens_at <= (now or timezone.now()) < s.closes_at())
