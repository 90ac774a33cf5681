"""The write path of problem sets: create, edit and delete one, add and remove items. Callers have
checked that the user is a TA or instructor of the course (homework.views, through courses.access)."""
from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.utils.translation import gettext as _

from grader.core.errors import WarpDrillError
from problems.models import Problem

from .models import LatePolicy, ProblemSet, ProblemSetItem


class ProblemSetError(WarpDrillError):
    """A problem-set change that cannot be made as asked; the message says why."""


def _check_window(opens_at, due_at, late_policy: str, late_until, difficulty: int | None) -> None:
    """The rule a set's times and level follow, when it is created and when it is edited: raises
    ProblemSetError when it would be due before it opens, its late deadline is not after the due date
    (late work counting), or the difficulty is not one of the levels."""
    from practice.core.questions import DIFFICULTIES

    if due_at <= opens_at:
        raise ProblemSetError(_("The due date must be after the opening time."))
    if late_policy == LatePolicy.MARKED and (late_until is None or late_until <= due_at):
        raise ProblemSetError(_("With late work counting, give a late deadline after the due date."))
    if difficulty is not None and difficulty not in DIFFICULTIES:
        raise ProblemSetError(_("Choose a difficulty from the list."))


def create_set(course, user, *, title_en: str, title_ko: str = "", opens_at, due_at,
               late_policy: str = LatePolicy.NONE, late_until=None, difficulty: int | None = None) -> ProblemSet:
    """A new problem set of `course`; `difficulty` (1..3, or None for exam level) is the one its
    question-family items are drawn at. Raises ProblemSetError when it breaks _check_window's rule."""
    _check_window(opens_at, due_at, late_policy, late_until, difficulty)
    return ProblemSet.objects.create(course=course, title_en=title_en.strip(), title_ko=title_ko.strip(),
                                     opens_at=opens_at, due_at=due_at, late_policy=late_policy,
                                     late_until=late_until if late_policy == LatePolicy.MARKED else None,
                                     difficulty=difficulty, created_by=user)


EDITABLE_FIELDS = ("title_en", "title_ko", "opens_at", "due_at", "late_policy", "late_until", "difficulty")


def update_set(problem_set: ProblemSet, *, title_en: str, title_ko: str = "", opens_at, due_at,
               late_policy: str = LatePolicy.NONE, late_until=None, difficulty: int | None = None) -> ProblemSet:
    """Change a set's titles, window, late policy and difficulty, by the rule that created it
    (_check_window; ProblemSetError, and nothing saved, when it breaks it). Its items stay; every
    student's status is read again against the new window (homework.core.standing), and questions
    already drawn keep their difficulty: only new ones are drawn at the new level."""
    _check_window(opens_at, due_at, late_policy, late_until, difficulty)
    problem_set.title_en, problem_set.title_ko = title_en.strip(), title_ko.strip()
    problem_set.opens_at, problem_set.due_at, problem_set.late_policy = opens_at, due_at, late_policy
    problem_set.late_until = late_until if late_policy == LatePolicy.MARKED else None
    problem_set.difficulty = difficulty
    problem_set.save(update_fields=list(EDITABLE_FIELDS))
    return problem_set


def delete_set(problem_set: ProblemSet) -> None:
    """Delete the set and its items (and the LMS links that open it: lti.ResourceLink cascades). The
    students' submissions and answers stay: they belong to the problems and questions, and count as
    practice from now on (a question opened for one of its items reads as a practice question)."""
    problem_set.delete()


def assignable_problems(course):
    """Kernel problems a course may assign: its own published ones and the bank's."""
    return (Problem.objects.filter(is_published=True, current_version__isnull=False)
            .filter(Q(course=course) | Q(course__isnull=True)).order_by("course", "slug"))


@transaction.atomic
def add_item(problem_set: ProblemSet, *, problem_slug: str = "", family: str = "") -> ProblemSetItem:
    """Append a kernel problem (by slug: the course's published ones or the bank's) or a question family.
    Raises ProblemSetError for anything else, and for an item the set has already (a second column of
    the same work would count it twice; the database refuses it too: problem_set_item_unique_*)."""
    from practice.core.questions import FAMILIES
    from practice.labels import family_title

    position = (problem_set.items.aggregate(m=Max("position"))["m"] or 0) + 1
    if problem_slug:
        problem = assignable_problems(problem_set.course).filter(slug=problem_slug).first()
        if problem is None:
            raise ProblemSetError(_("Choose a published problem of this course or of the bank."))
        if problem_set.items.filter(problem=problem).exists():
            raise ProblemSetError(_("“%(title)s” is already in this set.") % {"title": problem.title})
        return _create_item(problem_set, problem.title, problem=problem, position=position)
    if family in FAMILIES:
        if problem_set.items.filter(family=family).exists():
            raise ProblemSetError(_("“%(title)s” is already in this set.") % {"title": family_title(family)})
        return _create_item(problem_set, family_title(family), family=family, position=position)
    raise ProblemSetError(_("Choose a problem or a question family."))


def _create_item(problem_set: ProblemSet, title: str, **fields) -> ProblemSetItem:
    """The new item, or ProblemSetError when a concurrent request added the same one first (the
    unique constraint; in a savepoint, so the caller's transaction goes on)."""
    try:
        with transaction.atomic():
            return ProblemSetItem.objects.create(problem_set=problem_set, **fields)
    except IntegrityError:
        raise ProblemSetError(_("“%(title)s” is already in this set.") % {"title": title}) from None


def addable(problem_set: ProblemSet, problems, family_groups) -> tuple[list, list]:
    """What the set's "Add an item" dropdowns offer: `problems` (assignable_problems) and
    `family_groups` (practice.labels.family_groups) without the items the set has already; a topic
    whose families are all in it is left out."""
    have_problems = set(problem_set.items.exclude(problem=None).values_list("problem_id", flat=True))
    have_families = set(problem_set.items.exclude(family="").values_list("family", flat=True))
    groups = [(topic, [f for f in fams if f[0] not in have_families]) for topic, fams in family_groups]
    return [p for p in problems if p.pk not in have_problems], [(t, fams) for t, fams in groups if fams]


def remove_item(problem_set: ProblemSet, item_id: int) -> None:
    """Delete one item of the set (nothing when it is not one of the set's). The students' answers and
    submissions are kept: they belong to the questions and problems, not to the item."""
    problem_set.items.filter(pk=item_id).delete()


# The slot of a student's n-th question for one family item of a set (practice.models.QuestionVariant.slot):
# the set's page and the question page find the item from it (homework.services.set_item_of).
ITEM_SLOT = "set-{set}-{item}-{n}"


def item_slot_prefix(item: ProblemSetItem) -> str:
    return ITEM_SLOT.format(set=item.problem_set_id, item=item.pk, n="")


def item_question(item: ProblemSetItem, user, *, another: bool = False):
    """The student's current question of a family item: their latest one for this item, or (the first
    time, or with `another`) a new question of exactly the item's family, at the set's difficulty, for
    the course's target GPU. Returns the practice.models.QuestionVariant; answering it (practice's
    submit_answer) counts for the item like any answer to that family in the set's window.
    Raises ProblemSetError for a kernel-problem item."""
    from practice import actions as practice
    from practice.models import QuestionVariant

    if not item.family:
        raise ProblemSetError(_("This item is a kernel problem, not a question family."))
    prefix = item_slot_prefix(item)
    mine = QuestionVariant.objects.filter(user=user, family=item.family, slot__startswith=prefix)
    latest = mine.order_by("-created_at", "-pk").first()
    if latest is not None and not another:
        return latest
    problem_set = item.problem_set
    slot = ITEM_SLOT.format(set=problem_set.pk, item=item.pk, n=mine.count() + 1)
    return practice.get_or_create_variant(user, item.family, slot, problem_set.question_difficulty,
                                          target_cc=problem_set.course.target_cc or None)
