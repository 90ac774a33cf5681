"""Validation runs: an author's solution and wrong solutions of one version, graded by the queue.

A version may be published only when its latest run passed: the solution ACCEPTED and every wrong
solution the verdict it declares. Each item points at the real submission it made, so its page is
one click away; those submissions are marked `purpose=validation` and never count as attempts.
"""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from grader.models import Status


class ValidationRun(models.Model):
    """One press of Validate on one version."""

    version = models.ForeignKey("problems.ProblemVersion", on_delete=models.CASCADE, related_name="validations",
                                verbose_name=_("problem version"))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+",
                                   verbose_name=_("started by"))
    created_at = models.DateTimeField(_("started at"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("validation run")
        verbose_name_plural = _("validation runs")

    def __str__(self):
        return f"validation of {self.version} at {self.created_at:%Y-%m-%d %H:%M}"

    def outcome(self) -> str:
        """"running" while any item is not graded, else "passed" or "failed"."""
        items = list(self.items.select_related("submission"))
        if any(i.submission.status != Status.GRADED for i in items):
            return "running"
        return "passed" if items and all(i.ok for i in items) else "failed"


class ValidationItem(models.Model):
    """One source of a run (the solution, or wrong/<name>.cu) and the verdict it must get."""

    run = models.ForeignKey(ValidationRun, on_delete=models.CASCADE, related_name="items", verbose_name=_("run"))
    name = models.CharField(_("file"), max_length=100)  # "solution.cu" or "wrong/<name>.cu"
    expected = models.CharField(_("declared verdict"), max_length=16)
    submission = models.OneToOneField("grader.Submission", on_delete=models.CASCADE, related_name="validation_item",
                                      verbose_name=_("submission"))

    class Meta:
        ordering = ["run", "pk"]
        verbose_name = _("validation item")
        verbose_name_plural = _("validation items")

    def __str__(self):
        return f"{self.name}: {self.expected}"

    @property
    def ok(self) -> bool:
        """Graded with the declared verdict."""
        return self.submission.status == Status.GRADED and self.submission.verdict == self.expected


class RejudgeScope(models.TextChoices):
    """Which submissions of a problem a rejudge covers."""

    ALL = "all", _("All submissions")
    VERSION = "version", _("Submissions graded on one version")
    COURSE = "course", _("Submissions of the course's students")


class RejudgeRun(models.Model):
    """A rejudge of a problem's submissions against `version`: previewed first (every submission graded
    again as a copy), then applied or not. Applying is logged here and keeps every old result."""

    problem = models.ForeignKey("problems.Problem", on_delete=models.CASCADE, related_name="rejudges",
                                verbose_name=_("problem"))
    version = models.ForeignKey("problems.ProblemVersion", on_delete=models.CASCADE, related_name="+",
                                verbose_name=_("graded against"))
    scope = models.CharField(_("scope"), max_length=16, choices=RejudgeScope.choices, default=RejudgeScope.ALL)
    scope_version = models.PositiveIntegerField(_("version of the scope"), null=True, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+",
                                   verbose_name=_("started by"))
    created_at = models.DateTimeField(_("started at"), auto_now_add=True)
    applied_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+", verbose_name=_("applied by"))
    applied_at = models.DateTimeField(_("applied at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("rejudge")
        verbose_name_plural = _("rejudges")

    def __str__(self):
        return f"rejudge of {self.problem} against v{self.version.number}"


class RejudgeItem(models.Model):
    """One submission of a rejudge: its verdict before, and the copy graded again."""

    run = models.ForeignKey(RejudgeRun, on_delete=models.CASCADE, related_name="items", verbose_name=_("rejudge"))
    original = models.ForeignKey("grader.Submission", on_delete=models.CASCADE, related_name="rejudge_items",
                                 verbose_name=_("submission"))
    copy = models.OneToOneField("grader.Submission", on_delete=models.CASCADE, related_name="rejudge_copy_of",
                                verbose_name=_("rejudged copy"))
    old_verdict = models.CharField(_("old verdict"), max_length=16)
    old_result = models.JSONField(_("old result"), null=True, blank=True)
    old_version = models.ForeignKey("problems.ProblemVersion", on_delete=models.CASCADE, related_name="+",
                                    verbose_name=_("old version"))

    class Meta:
        ordering = ["run", "pk"]
        verbose_name = _("rejudged submission")
        verbose_name_plural = _("rejudged submissions")

    @property
    def changed(self) -> bool:
        return self.copy.status == Status.GRADED and self.copy.verdict != self.old_verdict
