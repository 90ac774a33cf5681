"""Validation runs: an author's solution and wrong solutions of one version, graded by the queue.

A version may be published only when its latest run passed: the solution ACCEPTED and every wrong
solution the verdict it declares. Each item points at the real submission it made, so its page is
one click away; those submissions are marked `purpose=validation` and never count as attempts.
"""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts.timezones import when
from grader.models import RejudgeRecord, Status


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
        return f"validation of {self.version} at {when(self.created_at)}"

    def outcome(self) -> str:
        """"running" while any item is not graded, else "passed" or "failed"."""
        items = list(self.items.select_related("submission"))
        if any(i.submission.status != Status.GRADED for i in items):
            return "running"
        return "passed" if items and all(i.ok for i in items) else "failed"


class ValidationItem(models.Model):
    """One source of a run (the solution, or wrong/<name>.cu) graded once on one queue, and the verdicts
    it must get: `expected` (its `// verdict:`), or on the GPU backend `expected_gpu` where the source
    declares a different `// gpu-verdict:`. A site with GPU workers grades each source twice, its
    submission sent to `cpu` (the emulator) and to `gpu` (Submission.queue): two items of one name."""

    run = models.ForeignKey(ValidationRun, on_delete=models.CASCADE, related_name="items", verbose_name=_("run"))
    name = models.CharField(_("file"), max_length=100)  # "solution.cu" or "wrong/<name>.cu"
    expected = models.CharField(_("declared verdict"), max_length=16)
    expected_gpu = models.CharField(_("declared verdict on the GPU"), max_length=16, blank=True)  # "": `expected`
    submission = models.OneToOneField("grader.Submission", on_delete=models.CASCADE, related_name="validation_item",
                                      verbose_name=_("submission"))

    class Meta:
        ordering = ["run", "pk"]
        verbose_name = _("validation item")
        verbose_name_plural = _("validation items")

    def __str__(self):
        return f"{self.name}: {self.expected}"

    def declared_on(self, backend: str) -> str:
        """The verdict this source must get from the backend named `backend` ("emulator", "gpu", ...)."""
        return self.expected_gpu if backend == "gpu" and self.expected_gpu else self.expected

    @property
    def declared(self) -> str:
        """The verdict it must get from the backend that graded it (Submission.backend), or, before that,
        from the backend its queue is for."""
        return self.declared_on(self.submission.backend or ("gpu" if self.submission.queue == "gpu" else ""))

    @property
    def ok(self) -> bool:
        """Graded with the verdict declared for the backend that graded it."""
        return self.submission.status == Status.GRADED and self.submission.verdict == self.declared


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


class RejudgeItem(RejudgeRecord):
    """One submission of a rejudge: its verdict and result before (RejudgeRecord), and the copy graded
    again; `state`, `changed` and `not_rejudged` say what the pair means (grader.core.rejudge)."""

    run = models.ForeignKey(RejudgeRun, on_delete=models.CASCADE, related_name="items", verbose_name=_("rejudge"))
    original = models.ForeignKey("grader.Submission", on_delete=models.CASCADE, related_name="rejudge_items",
                                 verbose_name=_("submission"))
    copy = models.OneToOneField("grader.Submission", on_delete=models.CASCADE, related_name="rejudge_copy_of",
                                verbose_name=_("rejudged copy"))
    old_version = models.ForeignKey("problems.ProblemVersion", on_delete=models.CASCADE, related_name="+",
                                    verbose_name=_("old version"))

    class Meta:
        ordering = ["run", "pk"]
        verbose_name = _("rejudged submission")
        verbose_name_plural = _("rejudged submissions")


# The verdicts a dashboard counts (INTERNAL_ERROR is never an attempt), each with its count column
# in ProblemStats. A test checks that every such Verdict has one.
COUNTED_VERDICTS = ("ACCEPTED", "WRONG_ANSWER", "COMPILE_ERROR", "RUNTIME_ERROR", "TIME_LIMIT", "DEADLOCK",
                    "SYNC_ERROR", "MEMORY_ERROR")


def verdict_column(verdict: str) -> str:
    """ProblemStats' count column of a verdict: 'n_' + its name in lower case."""
    return "n_" + verdict.lower()


class ProblemStats(models.Model):
    """One student's graded STUDENT submissions to one problem, summed (the dashboards read these
    instead of counting submissions). Kept by authoring.progress on every change of a counted
    submission (a verdict, a rejudge, a deletion), recomputed from that pair's rows, so it always
    equals a recount; `manage.py rebuild_problem_stats` recomputes every pair. A course's dashboard
    keeps the pairs of its students and its problems at read time, so enrolments and problem sets
    may change freely."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
                             verbose_name=_("student"))
    problem = models.ForeignKey("problems.Problem", on_delete=models.CASCADE, related_name="+",
                                verbose_name=_("problem"))
    attempts = models.PositiveIntegerField(_("attempts"), default=0)
    best_verdict = models.CharField(_("best verdict"), max_length=16, blank=True,
                                    help_text=_("ACCEPTED once accepted, else the latest verdict."))
    first_at = models.DateTimeField(_("first submitted at"), null=True)
    last_at = models.DateTimeField(_("last submitted at"), null=True)
    first_accepted_at = models.DateTimeField(_("first accepted at"), null=True)
    # first_accepted_at - first_at in seconds, stored so that the dashboards' median time to a first
    # ACCEPTED reads numbers: on SQLite, parsing two datetimes per solved pair in Python was most of
    # a counted course dashboard (about 25,000 datetimes at 500 students; bench/dashboard_bench.py).
    seconds_to_accepted = models.FloatField(_("seconds to first accepted"), null=True)
    n_accepted = models.PositiveIntegerField(default=0)
    n_wrong_answer = models.PositiveIntegerField(default=0)
    n_compile_error = models.PositiveIntegerField(default=0)
    n_runtime_error = models.PositiveIntegerField(default=0)
    n_time_limit = models.PositiveIntegerField(default=0)
    n_deadlock = models.PositiveIntegerField(default=0)
    n_sync_error = models.PositiveIntegerField(default=0)
    n_memory_error = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("problem progress")
        verbose_name_plural = _("problem progress")
        constraints = [models.UniqueConstraint(fields=["user", "problem"], name="unique_stats_per_user_problem")]
        indexes = [models.Index(fields=["problem", "user"], name="stats_problem_user")]


class ProblemDay(models.Model):
    """How many counted submissions one student made to one problem on one day (in the site's time
    zone, settings.TIME_ZONE): the dashboards' submissions-per-day chart. Kept with ProblemStats."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    problem = models.ForeignKey("problems.Problem", on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    n = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "problem", "day"], name="unique_day_per_user_problem")]


class ProblemError(models.Model):
    """How often one student's counted submissions to one problem failed with one compile error (its
    first message, identifiers and numbers blanked) or one diagnostic (its first, with its line):
    the dashboards' common-errors table. Kept with ProblemStats."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    problem = models.ForeignKey("problems.Problem", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=12)  # "compile" or "diagnostic"
    text = models.CharField(max_length=300)
    n = models.PositiveIntegerField(default=0)

    class Meta:
        indexes = [models.Index(fields=["user", "problem"], name="problem_error_pair")]
