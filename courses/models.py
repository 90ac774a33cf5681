"""Courses, memberships with a per-course role, invites, and accounts a roster created.

State changes go through courses/actions.py; who may do what is decided in courses/access.py.
"""
from __future__ import annotations

from django.conf import settings
from django.core.validators import MinValueValidator, RegexValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from problems.core.gpus import CAPABILITIES, gpus_for

# Course codes appear in URLs (/courses/<code>/); these words are the app's own pages.
RESERVED_CODES = frozenset({"join", "new"})
COURSE_CODE_RE = r"^[A-Za-z0-9][A-Za-z0-9_-]*\Z"
DEFAULT_TARGET_CC = "9.0"  # the H200 the GPU workers run on


class Role(models.TextChoices):
    """A member's role in one course; it grants nothing in any other course."""

    STUDENT = "student", _("student")  # takes the course's exams and problem sets
    TA = "ta", _("TA")  # sees the members and invites, helps during exams; changes no roles
    INSTRUCTOR = "instructor", _("instructor")  # manages members, roles, invites, rosters and exams


class Language(models.TextChoices):
    """The language a course's generated content and printed exams default to."""

    ENGLISH = "en", _("English")
    KOREAN = "ko", _("Korean")


def target_gpu_choices() -> list[tuple[str, str]]:
    """(compute capability, label) for every capability in problems/core/gpus.py's table."""
    out = []
    for cc, cap in CAPABILITIES.items():
        names = ", ".join(g.name.replace("NVIDIA ", "").replace("GeForce ", "") for g in gpus_for(cc))
        out.append((cc, f"{cc} · {cap.architecture} — {names}"))
    return out


class Course(models.Model):
    """A course: its members, invites and (in the exams app) its exams belong to it."""

    name = models.CharField(_("name"), max_length=200)
    code = models.CharField(
        _("code"), max_length=40, unique=True,
        validators=[RegexValidator(COURSE_CODE_RE, _("Use letters, digits, hyphens and underscores."))],
        help_text=_("Short and unique, used in the course's address, e.g. CS4100-2026F."),
    )
    term = models.CharField(_("term"), max_length=60, blank=True, help_text=_("e.g. Fall 2026"))
    language = models.CharField(_("default language"), max_length=2, choices=Language.choices, default=Language.ENGLISH)
    target_cc = models.CharField(
        _("target GPU"), max_length=8, choices=target_gpu_choices, default=DEFAULT_TARGET_CC,
        help_text=_("The compute capability the course's occupancy answers are computed for."),
    )
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+", verbose_name=_("created by"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "code"]
        verbose_name = _("course")
        verbose_name_plural = _("courses")
        permissions = [("create_course", _("Can create courses (and become their instructor)"))]

    def __str__(self):
        return f"{self.code}: {self.name}"


class Membership(models.Model):
    """A user's role in one course. One membership per (course, user)."""

    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("course"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="course_memberships",
                             verbose_name=_("user"))
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.STUDENT)
    joined_at = models.DateTimeField(_("joined at"), auto_now_add=True)

    class Meta:
        ordering = ["course", "role", "user__username"]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [models.UniqueConstraint(fields=["course", "user"], name="unique_membership_per_course_user")]
        indexes = [models.Index(fields=["user", "course"], name="membership_user_course")]

    def __str__(self):
        return f"{self.user_id} in {self.course_id} as {self.role}"


class Invite(models.Model):
    """A code (and link) that enrols whoever uses it in a course with a role.

    It stops working when revoked, after `expires_at`, or once used `max_uses` times. A use is
    counted only when it makes someone a member (joining again as a member costs nothing).
    """

    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="invites", verbose_name=_("course"))
    code = models.CharField(_("code"), max_length=16, unique=True)
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.STUDENT)
    expires_at = models.DateTimeField(_("expires at"), null=True, blank=True)
    max_uses = models.PositiveIntegerField(_("maximum uses"), null=True, blank=True, validators=[MinValueValidator(1)])
    uses = models.PositiveIntegerField(_("uses"), default=0)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+", verbose_name=_("created by"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("invite")
        verbose_name_plural = _("invites")

    def __str__(self):
        return f"{self.code} ({self.course_id}, {self.role})"

    def is_usable(self, now=None) -> bool:
        """Not revoked, not expired at `now` (default: the current time), uses left."""
        now = now or timezone.now()
        return (self.revoked_at is None and (self.expires_at is None or now < self.expires_at)
                and (self.max_uses is None or self.uses < self.max_uses))


class ProvisionedAccount(models.Model):
    """An account a roster upload created, with no usable password until its owner sets one.

    Only the instructors of `course` may show its one-time set-password link, and only while the
    account still has no usable password: an account someone else created, or one whose owner has
    chosen a password, is never theirs to take over.
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="provisioned",
                                verbose_name=_("user"))
    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="provisioned_accounts",
                               verbose_name=_("course"))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+", verbose_name=_("created by"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("account created by a roster")
        verbose_name_plural = _("accounts created by a roster")

    def __str__(self):
        return f"{self.user_id} (roster of {self.course_id})"
