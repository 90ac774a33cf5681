"""Problem sets of a course: kernel problems and practice question families, due at a time."""
from django.conf import settings
from django.db import models
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from practice.labels import DIFFICULTY_CHOICES

from .core import standing

DEFAULT_DIFFICULTY = 2  # a set that names no difficulty draws its questions at exam level


class LatePolicy(models.TextChoices):
    """What happens to work after the due date."""

    NONE = "none", _("No late work: only work before the due date counts")
    MARKED = "marked", _("Late work counts, marked late, until the late deadline")


class ProblemSet(models.Model):
    """Homework of one course: open from `opens_at`, due at `due_at`."""

    course = models.ForeignKey("courses.Course", on_delete=models.CASCADE, related_name="problem_sets",
                               verbose_name=_("course"))
    title_en = models.CharField(_("title (English)"), max_length=200)
    title_ko = models.CharField(_("title (Korean)"), max_length=200, blank=True)
    opens_at = models.DateTimeField(_("opens at"))
    due_at = models.DateTimeField(_("due at"))
    late_policy = models.CharField(_("late policy"), max_length=16, choices=LatePolicy.choices,
                                   default=LatePolicy.NONE)
    late_until = models.DateTimeField(_("late work until"), null=True, blank=True,
                                      help_text=_("With 'late work counts': the last moment late work counts."))
    # The difficulty its question-family items are drawn at; None: DEFAULT_DIFFICULTY.
    difficulty = models.PositiveSmallIntegerField(_("difficulty of its questions"), null=True, blank=True,
                                                  choices=DIFFICULTY_CHOICES)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["due_at", "pk"]
        verbose_name = _("problem set")
        verbose_name_plural = _("problem sets")

    def __str__(self):
        return f"{self.course_id}: {self.title_en}"

    def title_in(self, language: str) -> str:
        """The title in `language` ("en" or "ko"): the Korean title where it has one, else the English."""
        return self.title_ko if language == "ko" and self.title_ko else self.title_en

    @property
    def title(self) -> str:
        """The title in the language of the request being served."""
        return self.title_in("ko" if (get_language() or "en").startswith("ko") else "en")

    @property
    def question_difficulty(self) -> int:
        """The difficulty its question families' questions are drawn at (1..3)."""
        return self.difficulty or DEFAULT_DIFFICULTY

    def closes_at(self):
        """When work stops counting: the due date, or the late deadline when late work counts."""
        return standing.closes_at(self.due_at, self.late_until, self.late_policy == LatePolicy.MARKED)

    def window(self) -> standing.Window:
        """The set's window (homework.core.standing: the one rule of what counts, and when)."""
        return standing.Window(self.opens_at, self.due_at, self.closes_at())


class ProblemSetItem(models.Model):
    """One item: a kernel problem, or a practice question family (its id, e.g. 'occupancy.blocks_per_sm')."""

    problem_set = models.ForeignKey(ProblemSet, on_delete=models.CASCADE, related_name="items",
                                    verbose_name=_("problem set"))
    position = models.PositiveSmallIntegerField(default=0)
    problem = models.ForeignKey("problems.Problem", null=True, blank=True, on_delete=models.CASCADE, related_name="+",
                                verbose_name=_("problem"))
    family = models.CharField(_("question family"), max_length=80, blank=True)

    class Meta:
        ordering = ["problem_set", "position", "pk"]
        verbose_name = _("problem set item")
        verbose_name_plural = _("problem set items")
        constraints = [
            models.CheckConstraint(
                condition=(models.Q(problem__isnull=False, family="") | models.Q(problem__isnull=True) & ~models.Q(family="")),
                name="problem_set_item_problem_xor_family"),
            # An item once per set: a second column of the same work would count it twice.
            models.UniqueConstraint(fields=["problem_set", "problem"], condition=models.Q(problem__isnull=False),
                                    name="problem_set_item_unique_problem"),
            models.UniqueConstraint(fields=["problem_set", "family"], condition=~models.Q(family=""),
                                    name="problem_set_item_unique_family"),
        ]

    def __str__(self):
        return self.problem.slug if self.problem_id else self.family
