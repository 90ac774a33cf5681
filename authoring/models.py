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
