"""Exams: templates (data), scheduled exams, accommodations, attempts with their stored items, events.

Every state change goes through exams/actions/ (scheduling, attempts, grading).
"""
import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from accounts.timezones import when
from grader.models import RejudgeRecord


class ExamTemplate(models.Model):
    """An exam template of a course, stored as data (exams.core.template's format)."""

    course = models.ForeignKey("courses.Course", on_delete=models.CASCADE, related_name="exam_templates",
                               verbose_name=_("course"))
    title = models.CharField(_("title"), max_length=200)
    data = models.JSONField(_("template"), help_text=_("Zones and pools, as exams.core.template reads them."))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+", verbose_name=_("created by"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        ordering = ["course", "title"]
        verbose_name = _("exam template")
        verbose_name_plural = _("exam templates")

    def __str__(self):
        return self.title

    def title_in(self, language: str) -> str:
        """The template's title in `language` ("en" or "ko") from its data; the English title without one."""
        titles = (self.data or {}).get("title")
        return (titles.get(language) if isinstance(titles, dict) else None) or self.title

    @property
    def localized_title(self) -> str:
        """The title in the language of the request being served (Korean or English)."""
        from django.utils.translation import get_language

        return self.title_in("ko" if (get_language() or "en").startswith("ko") else "en")


class Feedback(models.TextChoices):
    """What a student learns about a kernel item during the exam."""

    NONE = "none", _("None until results are released")  # "submitted" only
    VERDICT = "verdict", _("Verdict only")  # the verdict's name, no test details
    FULL = "full", _("Full result")  # the submission page, as in practice


def new_secret() -> str:
    return secrets.token_hex(16)


class Exam(models.Model):
    """A template scheduled for a course. `spec` is the template's data when it was scheduled (or last
    edited), so editing the template later changes no exam that is scheduled."""

    course = models.ForeignKey("courses.Course", on_delete=models.CASCADE, related_name="exams",
                               verbose_name=_("course"))
    template = models.ForeignKey(ExamTemplate, on_delete=models.PROTECT, related_name="exams",
                                 verbose_name=_("template"))
    title = models.CharField(_("title"), max_length=200)
    spec = models.JSONField(_("template data"))
    opens_at = models.DateTimeField(_("opens at"))
    closes_at = models.DateTimeField(_("closes at"))
    duration_minutes = models.PositiveIntegerField(_("duration (minutes)"))
    password = models.CharField(_("password"), max_length=100, blank=True,
                                help_text=_("Optional: students type it to start."))
    honour_code = models.TextField(_("honour code"), blank=True,
                                   help_text=_("Optional: students tick that they accept it to start."))
    feedback = models.CharField(_("feedback during the exam"), max_length=8, choices=Feedback.choices,
                                default=Feedback.VERDICT)
    results_release_at = models.DateTimeField(_("results released at"), null=True, blank=True,
                                              help_text=_("Empty: results are not released yet."))
    # Exam mode (exams.lockdown): while a student's attempt is in progress, the pages outside the exam are closed.
    lockdown = models.BooleanField(_("close the rest of the site during an attempt"), default=True,
                                   help_text=_("While a student's attempt is in progress, the other pages of the "
                                               "site (problems, practice, the occupancy calculator, the "
                                               "playground, courses, other exams, submissions) are closed to them. "
                                               "Course staff are never locked out."))
    secret = models.CharField(max_length=64, default=new_secret, editable=False,
                              help_text="Seeds every student's variant; never shown.")
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["-opens_at"]
        verbose_name = _("exam")
        verbose_name_plural = _("exams")

    def __str__(self):
        return self.title

    def get_absolute_url(self):
        return reverse("exams:exam", args=[self.pk])

    def title_in(self, language: str) -> str:
        """The title in `language` ("en" or "ko"). An exam scheduled under its template's title (the
        English one, `title` left empty in the form) takes the template's title in that language, as its
        printed forms do; a title the instructor typed is theirs, in every language."""
        titles = (self.spec or {}).get("title")
        if isinstance(titles, dict) and self.title == titles.get("en"):
            return titles.get(language) or self.title
        return self.title

    @property
    def localized_title(self) -> str:
        """The title in the language of the request being served (Korean or English)."""
        from django.utils.translation import get_language

        return self.title_in("ko" if (get_language() or "en").startswith("ko") else "en")


class Accommodation(models.Model):
    """One student's extra time and/or own window for an exam."""

    exam = models.ForeignKey(Exam, on_delete=models.CASCADE, related_name="accommodations", verbose_name=_("exam"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
                             verbose_name=_("student"))
    extra_minutes = models.PositiveIntegerField(_("extra minutes"), default=0)
    opens_at = models.DateTimeField(_("own window opens"), null=True, blank=True)
    closes_at = models.DateTimeField(_("own window closes"), null=True, blank=True)

    class Meta:
        verbose_name = _("accommodation")
        verbose_name_plural = _("accommodations")
        constraints = [models.UniqueConstraint(fields=["exam", "user"], name="unique_accommodation")]


class AttemptState(models.TextChoices):
    """Where an attempt is."""

    OPEN = "open", _("In progress")  # started, before its deadline, not submitted
    SUBMITTED = "submitted", _("Submitted")  # the student submitted
    CLOSED = "closed", _("Closed at the deadline")  # the server closed it at the deadline with what was saved


class CloseReason(models.TextChoices):
    """Why a CLOSED attempt was closed before its deadline ("" on ExamAttempt: it was closed at the deadline)."""

    REMOVED = "removed", _("Closed: removed from the course")  # staff removed the student from the course
    STAFF = "staff", _("Closed early by staff")  # staff ended the attempt (exams.actions.attempts.end_attempt)


class ExamAttempt(models.Model):
    """A student's attempt, created on Start with every item drawn and stored (ExamItem rows)."""

    exam = models.ForeignKey(Exam, on_delete=models.CASCADE, related_name="attempts", verbose_name=_("exam"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="exam_attempts",
                             verbose_name=_("student"))
    state = models.CharField(_("state"), max_length=10, choices=AttemptState.choices, default=AttemptState.OPEN,
                             db_index=True)
    # Set with state CLOSED when the attempt was closed early, for a reason; "" when closed at the deadline.
    close_reason = models.CharField(_("why it was closed"), max_length=10, choices=CloseReason.choices, blank=True,
                                    default="")
    started_at = models.DateTimeField(_("started at"))
    deadline = models.DateTimeField(_("deadline"), db_index=True)
    ended_at = models.DateTimeField(_("ended at"), null=True, blank=True)
    last_saved_at = models.DateTimeField(_("last saved at"), null=True, blank=True)
    saves = models.PositiveIntegerField(_("saves"), default=0)
    total = models.FloatField(_("total"), null=True, blank=True)
    max_total = models.FloatField(_("maximum"), default=0)

    class Meta:
        ordering = ["exam", "user"]
        verbose_name = _("exam attempt")
        verbose_name_plural = _("exam attempts")
        constraints = [models.UniqueConstraint(fields=["exam", "user"], name="unique_attempt_per_student")]

    def __str__(self):
        return f"{self.exam} / {self.user}"

    @property
    def is_open(self) -> bool:
        return self.state == AttemptState.OPEN

    @property
    def state_label(self) -> str:
        """The state as every page names it, in the active language: "Submitted", "Closed at the deadline",
        or, for an attempt closed early, its reason ("Closed: removed from the course")."""
        if self.state == AttemptState.CLOSED and self.close_reason in CloseReason.values:
            return CloseReason(self.close_reason).label
        return self.get_state_display()

    @property
    def closed_for_removal(self) -> bool:
        """Whether the attempt was closed because staff removed its student from the course, and nobody has
        re-opened it since (an extension clears the reason). Staff cannot reset its questions then: the
        student cannot answer a fresh variant (exams.actions.resets.reset_refusal, one of its rules)."""
        return self.state == AttemptState.CLOSED and self.close_reason == CloseReason.REMOVED


class ExamItem(models.Model):
    """One drawn item of an attempt, stored in full (`data`: exams.core.draw's item dict), with the
    student's saved answer and its score."""

    attempt = models.ForeignKey(ExamAttempt, on_delete=models.CASCADE, related_name="items",
                                verbose_name=_("attempt"))
    key = models.CharField(_("slot"), max_length=20, help_text=_("Zone and pool item, e.g. z0.p3."))
    number = models.PositiveSmallIntegerField(_("number"))
    kind = models.CharField(_("kind"), max_length=10)
    data = models.JSONField(_("drawn item"))
    answer = models.JSONField(_("saved answer"), default=dict, blank=True,
                              help_text=_("Questions: {field: text}. Kernels: {'source': text} (a draft)."))
    saved_at = models.DateTimeField(_("saved at"), null=True, blank=True)
    points = models.FloatField(_("points"), null=True, blank=True)
    max_points = models.FloatField(_("maximum points"), default=0)
    status = models.CharField(_("status"), max_length=12, blank=True)

    class Meta:
        ordering = ["attempt", "number"]
        verbose_name = _("exam item")
        verbose_name_plural = _("exam items")
        constraints = [models.UniqueConstraint(fields=["attempt", "key"], name="unique_item_slot_per_attempt")]

    def __str__(self):
        return f"{self.attempt} #{self.number}"


class EventKind(models.TextChoices):
    """What happened to an attempt (its timeline)."""

    STARTED = "started", _("Started")
    SAVED = "saved", _("Saved")
    SUBMITTED_KERNEL = "kernel", _("Kernel submitted")
    SUBMITTED = "submitted", _("Submitted")
    CLOSED = "closed", _("Closed at the deadline")
    LATE_SAVE = "late", _("Save refused: the exam was closed or submitted")
    RESET = "reset", _("Question reset")
    EXTENDED = "extended", _("Time extended")
    REGRADED = "regraded", _("Regraded")


class AttemptEvent(models.Model):
    attempt = models.ForeignKey(ExamAttempt, on_delete=models.CASCADE, related_name="events",
                                verbose_name=_("attempt"))
    kind = models.CharField(_("event"), max_length=10, choices=EventKind.choices)
    at = models.DateTimeField(_("at"), auto_now_add=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                           related_name="+", verbose_name=_("by"))
    data = models.JSONField(_("details"), default=dict, blank=True)

    class Meta:
        ordering = ["attempt", "at", "pk"]
        verbose_name = _("attempt event")
        verbose_name_plural = _("attempt events")


class ExamDraw(models.Model):
    """A student's variant drawn ahead (when the exam is scheduled, by a background task), so that
    Start copies it instead of generating it. Drawn exactly as Start would draw it (deterministic
    per exam and student); `spec_hash` and `target_cc` say what it was drawn from, and Start draws
    afresh when the exam's template, the course's GPU or a kernel item's current version has moved
    since. Once the student starts, the attempt's ExamItems are the stored variant; this row is a
    cache of the future and is deleted then."""

    exam = models.ForeignKey(Exam, on_delete=models.CASCADE, related_name="draws", verbose_name=_("exam"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
                             verbose_name=_("student"))
    items = models.JSONField(_("drawn items"))
    spec_hash = models.CharField(max_length=64)
    target_cc = models.CharField(max_length=8, blank=True)
    drawn_at = models.DateTimeField(_("drawn at"), auto_now_add=True)

    class Meta:
        verbose_name = _("drawn variant")
        verbose_name_plural = _("drawn variants")
        constraints = [models.UniqueConstraint(fields=["exam", "user"], name="unique_draw_per_student")]


class RegradeAgainst(models.TextChoices):
    """Which package version a kernel regrade judges each submission against."""

    CURRENT = "current", _("the problem's current published version")  # the fixed package
    OWN = "own", _("the version each submission was graded on")  # the same package (a fixed judge)


class KernelRegrade(models.Model):
    """A re-judging of an exam's kernel submissions (of its ended attempts) for a regrade: each is graded
    again as a shadow copy at low priority (KernelRejudge rows), the regrade page previews what that
    changes, from what to what, and nothing changes until an instructor applies it. Applying is logged
    here (who, when, the diff as applied) and on each changed attempt's timeline; the old verdicts and
    results stay in the rows. exams.actions.regrades is its write path."""

    exam = models.ForeignKey(Exam, on_delete=models.CASCADE, related_name="kernel_regrades", verbose_name=_("exam"))
    against = models.CharField(_("judged against"), max_length=8, choices=RegradeAgainst.choices,
                               default=RegradeAgainst.CURRENT)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+",
                                   verbose_name=_("started by"))
    created_at = models.DateTimeField(_("started at"), auto_now_add=True)
    applied_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+", verbose_name=_("applied by"))
    applied_at = models.DateTimeField(_("applied at"), null=True, blank=True)
    applied_diff = models.JSONField(_("what applying changed"), default=dict, blank=True,
                                    help_text=_("The regrade's diff as it was applied (exams.core.regrade)."))
    discarded_at = models.DateTimeField(_("discarded at"), null=True, blank=True)

    class Meta:
        ordering = ["exam", "-created_at", "-pk"]
        verbose_name = _("kernel regrade")
        verbose_name_plural = _("kernel regrades")

    def __str__(self):
        return f"kernel regrade of {self.exam} against {self.against} at {when(self.created_at)}"

    @property
    def is_open(self) -> bool:
        """Neither applied nor discarded: the regrade page previews it."""
        return self.applied_at is None and self.discarded_at is None


class KernelRejudge(RejudgeRecord):
    """One kernel submission of a KernelRegrade: its verdict, result and version before (RejudgeRecord,
    old_version), the copy graded again (its problem_version is the version the new verdict came from),
    and the exam item it answers. The item's stored variant is never changed: it keeps pointing at the
    version it was drawn with."""

    regrade = models.ForeignKey(KernelRegrade, on_delete=models.CASCADE, related_name="items",
                                verbose_name=_("regrade"))
    item = models.ForeignKey(ExamItem, on_delete=models.CASCADE, related_name="+", verbose_name=_("exam item"))
    original = models.ForeignKey("grader.Submission", on_delete=models.CASCADE, related_name="exam_rejudges",
                                 verbose_name=_("submission"))
    copy = models.OneToOneField("grader.Submission", null=True, blank=True, on_delete=models.CASCADE,
                                related_name="exam_rejudge", verbose_name=_("rejudged copy"))
    old_version = models.ForeignKey("problems.ProblemVersion", on_delete=models.CASCADE, related_name="+",
                                    verbose_name=_("old version"))
    version = models.ForeignKey("problems.ProblemVersion", on_delete=models.CASCADE, related_name="+",
                                verbose_name=_("judged against"))

    class Meta:
        ordering = ["regrade", "pk"]
        verbose_name = _("re-judged exam submission")
        verbose_name_plural = _("re-judged exam submissions")
