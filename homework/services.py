"""Reads of problem sets: what is open for a member, and each item's status for a student."""
from __future__ import annotations

import re
from dataclasses import dataclass

from django.urls import reverse
from django.utils import timezone

from courses import access
from courses.services import OpenItem
from practice.labels import family_title

from .core.standing import ItemStatus, Phase
from .models import ProblemSet

__all__ = ["ItemRow", "ItemStatus", "KernelSetOrigin", "SetItemOrigin", "item_rows", "item_titles", "kernel_set_origin", "open_problem_sets", "set_item_of", "visible_sets"]


@dataclass(frozen=True)
class ItemRow:
    """One item as its page shows it."""

    item: object  # ProblemSetItem
    title: str
    url: str
    status: ItemStatus
    reserved: bool = False  # a kernel problem an exam of the course keeps from students now (staff see it)


def visible_sets(course, user):
    """The course's sets the user may see: all for its staff, the opened ones for its students."""
    sets = ProblemSet.objects.filter(course=course)
    if access.can_manage(access.course_role(user, course)):
        return sets
    return sets.filter(opens_at__lte=timezone.now())


def open_problem_sets(course, user, now=None) -> list[OpenItem]:
    """The course's problem sets open now (opened, and work still counts: homework.core.standing's
    Phase OPEN or LATE) as the course page's items, each with its due date and, where late work
    counts, its late deadline; `closes_at` is when work stops counting."""
    now = now or timezone.now()
    out = []
    for s in ProblemSet.objects.filter(course=course, opens_at__lte=now):
        window = s.window()
        if window.phase(now) in (Phase.OPEN, Phase.LATE):
            out.append(OpenItem(title=s.title, url=reverse("homework:set", args=[course.code, s.pk]),
                                kind="problem set", closes_at=window.closes_at, due_at=window.due_at,
                                late_until=window.late_until))
    return out


def item_rows(problem_set, user) -> list[ItemRow]:
    """Every item of the set with `user`'s status by the one rule (homework.core.standing, the set's
    window): kernel problems from their counted practice submissions (grader.access.counted_practice_q:
    platform faults, validation runs and exam work excluded), question families from their answers.
    A kernel item links to its problem opened for the course (its target GPU grades it); a family
    item to a question of exactly its family (homework.actions.item_question); any answer to that
    family in the window counts. A course problem an exam reserves now (exams.reservations) is left
    out for students and marked `reserved` for staff."""
    from grader.access import counted_practice_q
    from grader.core.verdicts import Verdict
    from grader.models import Submission
    from practice.models import QuestionAttempt

    from exams.services import reserved_problem_ids

    window = problem_set.window()
    staff = access.can_manage(access.course_role(user, problem_set.course))
    reserved = reserved_problem_ids(problem_set.course_id)
    rows = []
    for item in problem_set.items.select_related("problem"):
        if item.problem_id in reserved and not staff:
            continue  # an exam keeps it secret until every student's window has closed: not listed
        if item.problem_id:
            subs = list(Submission.objects.filter(counted_practice_q(), user=user, problem_version__problem=item.problem,
                                                  created_at__gte=window.opens_at).values_list("created_at", "verdict"))
            status = window.status([t for t, v in subs if v == Verdict.ACCEPTED], [t for t, _ in subs])
            rows.append(ItemRow(item, item.problem.title, problem_url(item.problem, problem_set.course, problem_set), status,
                                reserved=item.problem_id in reserved))
        else:
            answers = list(QuestionAttempt.objects.filter(variant__user=user, variant__family=item.family,
                                                          created_at__gte=window.opens_at)
                           .values_list("created_at", "correct", "after_reveal"))
            rows.append(ItemRow(item, family_title(item.family), reverse("homework:item-question",
                                                     args=[problem_set.course.code, problem_set.pk, item.pk]),
                                window.status([t for t, ok, shown in answers if ok and not shown],
                                              [t for t, _ok, _shown in answers])))
    return rows


def item_titles(problem_set) -> list[str]:
    """The titles of the set's items in order, in the active language (a kernel problem's title, a
    question family's name)."""
    return [item.problem.title if item.problem_id else family_title(item.family)
            for item in problem_set.items.select_related("problem")]


def problem_url(problem, course, problem_set=None) -> str:
    """A set item's kernel problem opened for `course`: a bank problem's page with ?course=<code>, so
    that its submissions are graded for the course's target GPU (grader.tasks.course_target_cc); a
    course's own problem needs none (its course decides). With `problem_set`, also ?set=<id>: the
    page links back to the set (kernel_set_origin)."""
    from urllib.parse import urlencode

    url = reverse("problems:detail", args=[problem.slug])
    query = {} if problem.course_id else {"course": course.code}
    if problem_set is not None:
        query["set"] = problem_set.pk
    return f"{url}?{urlencode(query)}" if query else url


@dataclass(frozen=True)
class KernelSetOrigin:
    """The problem set a kernel problem's page was opened from (?set=<id>), for its breadcrumbs."""

    problem_set: ProblemSet
    set_url: str


def kernel_set_origin(user, problem, set_id: str) -> KernelSetOrigin | None:
    """The set `set_id` (the ?set= of a set item's link) if `user` may see it (homework.services.
    visible_sets) and it has `problem` as an item; None otherwise (a stale or forged id is ignored:
    the page is then the problem's own)."""
    if not (set_id or "").isdigit() or not user.is_authenticated:
        return None
    s = (ProblemSet.objects.select_related("course").filter(pk=int(set_id), items__problem=problem).first())
    if s is None or access.course_role(user, s.course) is None \
            or not visible_sets(s.course, user).filter(pk=s.pk).exists():
        return None
    return KernelSetOrigin(s, reverse("homework:set", args=[s.course.code, s.pk]))


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
    phase: Phase  # where the set's window stands now (homework.core.standing)
    status: ItemStatus  # this question's standing in the set, by the set's rule (its badge)

    @property
    def counts_now(self) -> bool:
        """The set still counts work (until its due date, or its late deadline)."""
        return self.phase in (Phase.OPEN, Phase.LATE)


_SLOT_RE = re.compile(r"set-(?P<set>\d+)-(?P<item>\d+)-\d+")


def set_item_of(variant, now=None) -> SetItemOrigin | None:
    """The problem-set item `variant` (a practice.models.QuestionVariant) was opened for, from its slot
    (homework.actions.ITEM_SLOT), with the variant's own standing in the set by the set's rule (its
    right answers before its key was shown, in the set's window: solved, solved late, ...); None for
    a practice or exam question, or an item since removed."""
    from .models import ProblemSetItem

    m = _SLOT_RE.fullmatch(variant.slot or "")
    if m is None:
        return None
    item = (ProblemSetItem.objects.select_related("problem_set__course")
            .filter(pk=int(m["item"]), problem_set_id=int(m["set"])).first())
    if item is None:
        return None
    s, code = item.problem_set, item.problem_set.course.code
    window = s.window()
    answers = list(variant.attempts.values_list("created_at", "correct", "after_reveal"))
    status = window.status([t for t, ok, shown in answers if ok and not shown], [t for t, _ok, _shown in answers])
    return SetItemOrigin(s, item, reverse("homework:set", args=[code, s.pk]),
                         reverse("homework:item-question", args=[code, s.pk, item.pk]),
                         window.phase(now or timezone.now()), status)
