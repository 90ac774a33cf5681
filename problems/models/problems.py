"""Kernel problems and their immutable versions."""
from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from problems.core.package import ProblemPackage, Topic, parse_package


class ProblemKind(models.TextChoices):
    """What a student hands in for a problem (problem.yaml's `kind`; the package parser accepts only these)."""

    KERNEL = "kernel", _("CUDA kernel")  # a .cu file with the kernel the harness launches


class Problem(models.Model):
    """A problem as students see it; its content lives in versions (one per package change)."""

    slug = models.SlugField(_("slug"), unique=True, max_length=63)
    title_en = models.CharField(_("title (English)"), max_length=200)
    title_ko = models.CharField(_("title (Korean)"), max_length=200, blank=True)
    topic = models.CharField(_("topic"), max_length=32, choices=[(t.value, t.value) for t in Topic])
    kind = models.CharField(_("kind"), max_length=16, choices=ProblemKind.choices, default=ProblemKind.KERNEL)
    difficulty = models.PositiveSmallIntegerField(_("difficulty"), default=1)
    current_version = models.ForeignKey(
        "ProblemVersion", null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        verbose_name=_("current version"),
    )
    is_published = models.BooleanField(_("published"), default=True)
    # The course that owns and edits the problem (authoring/); None for the shipped bank, which is
    # read-only in the browser and open to everyone.
    course = models.ForeignKey("courses.Course", null=True, blank=True, on_delete=models.CASCADE,
                               related_name="problems", verbose_name=_("course"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        ordering = ["topic", "difficulty", "slug"]
        verbose_name = _("problem")
        verbose_name_plural = _("problems")

    def __str__(self):
        return self.slug

    @property
    def title(self) -> str:
        """The title in the active language, falling back to English."""
        if (get_language() or "en").startswith("ko") and self.title_ko:
            return self.title_ko
        return self.title_en

    def get_absolute_url(self):
        return reverse("problems:detail", args=[self.slug])


class ProblemVersion(models.Model):
    """An immutable snapshot of a package's files. Submissions point at the version they were judged on."""

    problem = models.ForeignKey(Problem, on_delete=models.CASCADE, related_name="versions", verbose_name=_("problem"))
    number = models.PositiveIntegerField(_("number"))
    content_hash = models.CharField(_("content hash"), max_length=64)
    files = models.JSONField(_("files"), help_text=_("Every file of the package: {relative path: text}."))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # Who saved it and why (authoring in the browser); empty for the bank's imports.
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                               verbose_name=_("author"))
    message = models.CharField(_("message"), max_length=300, blank=True)  # the author's own words, as written
    # A message WarpDrill wrote itself (a code of authoring.version_messages.VersionMessage and its
    # parameters), rendered in the reader's language; "" for an author's message or none.
    message_code = models.CharField(_("message code"), max_length=40, blank=True)
    message_params = models.JSONField(_("message parameters"), default=dict, blank=True)

    class Meta:
        ordering = ["problem", "-number"]
        verbose_name = _("problem version")
        verbose_name_plural = _("problem versions")
        constraints = [
            models.UniqueConstraint(fields=["problem", "number"], name="unique_problem_version_number"),
            models.UniqueConstraint(fields=["problem", "content_hash"], name="unique_problem_version_hash"),
        ]

    def __str__(self):
        return f"{self.problem.slug} v{self.number}"

    def package(self) -> ProblemPackage:
        """The parsed package (the stored files were valid when imported): from the package cache
        for a saved version (problems.services.version_package), parsed here for an unsaved one."""
        cached = getattr(self, "_package", None)
        if cached is None:
            if self.pk is not None:
                from problems.services import version_package  # services imports these models

                cached = self._package = version_package(self)
            else:
                cached = self._package = parse_package(self.files)
        return cached
