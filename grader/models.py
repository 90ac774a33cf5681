"""Submissions: a student's kernel for one problem version, and its grading state."""
from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from grader.core.rejudge import RejudgeState, rejudge_state
from grader.core.results import JudgeResult
from grader.core.verdicts import Verdict


class Status(models.TextChoices):
    """Where a submission is in its life. The verdict is set only with GRADED."""

    QUEUED = "QUEUED", _("Queued")  # saved and handed to the queue
    COMPILING = "COMPILING", _("Compiling")  # a worker took it and is compiling
    RUNNING = "RUNNING", _("Running")  # running test cases (progress says which)
    CHECKING = "CHECKING", _("Checking")  # the check pass (races, barriers, memory) on the smallest test
    RETRYING = "RETRYING", _("Not graded, retrying")  # a platform fault: queued again, never charged
    GRADED = "GRADED", _("Graded")  # final: verdict and result are set


class Purpose(models.TextChoices):
    """Why a submission exists. Only STUDENT submissions count in statistics and dashboards."""

    STUDENT = "student", _("Student")  # a student's (or anyone's) own attempt at a problem
    VALIDATION = "validation", _("Validation")  # an author's solution or wrong solution, run to validate a version
    REJUDGE = "rejudge", _("Rejudge preview")  # a copy of a submission graded again, to preview a rejudge


class Submission(models.Model):
    """A student's source for one problem version, graded by the queue."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="submissions",
                             verbose_name=_("user"))
    problem_version = models.ForeignKey("problems.ProblemVersion", on_delete=models.PROTECT, related_name="submissions",
                                        verbose_name=_("problem version"))
    source = models.TextField(_("source"))
    # Student-chosen launch (only for problems that allow it); empty = the problem's launch.
    launch_block = models.CharField(_("launch block"), max_length=200, blank=True)
    launch_grid = models.CharField(_("launch grid"), max_length=200, blank=True)
    launch_shared_bytes = models.CharField(_("launch dynamic shared memory (bytes)"), max_length=200, blank=True)
    # The student's variant of a package with variant parameters ({"BLOCK": 256, "LAYOUT": "col"}), stored
    # so that the judge grades the task the student was shown; {} for a package without variants.
    variant = models.JSONField(_("variant"), default=dict, blank=True)
    purpose = models.CharField(_("purpose"), max_length=16, choices=Purpose.choices, default=Purpose.STUDENT)
    # The Celery queue that must grade it, for work that needs one backend: a validation run on a site
    # with GPU workers grades each source on `cpu` (the emulator) and on `gpu`. Blank: grader.routing
    # decides (`gpu` when the site has GPU workers, else `cpu`). Re-queues (sweeps, retries) keep it.
    queue = models.CharField(_("queue"), max_length=8, blank=True)

    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.QUEUED, db_index=True)
    verdict = models.CharField(_("verdict"), max_length=16, choices=[(v.value, v.value) for v in Verdict], blank=True)
    progress_done = models.PositiveSmallIntegerField(_("tests finished"), default=0, help_text=_("Test cases finished."))
    progress_total = models.PositiveSmallIntegerField(_("tests in all"), default=0, help_text=_("Test cases in all."))
    result = models.JSONField(_("result"), null=True, blank=True, help_text=_("The JudgeResult as a dict."))
    backend = models.CharField(_("backend"), max_length=16, blank=True)
    tries = models.PositiveSmallIntegerField(_("tries"), default=0,
                                             help_text=_("Grading attempts by workers (retries after faults)."))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True, db_index=True)
    queued_at = models.DateTimeField(_("queued at"), null=True, blank=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    # Exams: the exam item this submission answers (graded on the `exam` queue), and the time its
    # grader last said it was alive, so that a dead worker's exam submission is re-queued within
    # seconds (grader.sweeps.requeue_stale_exam_submissions) rather than the sweeper's minutes.
    exam_item = models.ForeignKey("exams.ExamItem", null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="submissions", verbose_name=_("exam item"))
    # The exam a submission was made in, set when it is made and kept when a reset detaches it from
    # its item (exam_item None): exam work stays out of the practice pages and keeps the exam's
    # feedback rule until the results are released (grader.access). An exam that has submissions cannot
    # be deleted (PROTECT): with SET_NULL its students' exam work became practice submissions.
    exam = models.ForeignKey("exams.Exam", null=True, blank=True, on_delete=models.PROTECT,
                             related_name="submissions", verbose_name=_("exam"))
    heartbeat_at = models.DateTimeField(_("grader heartbeat"), null=True, blank=True)
    # The course a practice submission of a bank problem was made for (opened from one of its problem
    # sets' items): its target GPU grades the resource report and occupancy (grader.tasks.
    # course_target_cc), as a course's own problem is graded for its course's. None: not made for one.
    course = models.ForeignKey("courses.Course", null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                               verbose_name=_("made for course"))

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["user", "-created_at"]), models.Index(fields=["status", "queued_at"])]
        verbose_name = _("submission")
        verbose_name_plural = _("submissions")

    def __str__(self):
        """'#13 block-sum v1 by alice: Time limit': the verdict's label as the site shows it (the status's
        until graded)."""
        from problems.templatetags.warpdrill import verdict_label  # the site's labels, as grader/admin.py shows

        state = verdict_label(self.verdict) if self.verdict else self.get_status_display()
        return gettext("#%(id)s %(version)s by %(user)s: %(state)s") % {
            "id": self.pk, "version": self.problem_version, "user": self.user.get_username(), "state": state}

    def get_absolute_url(self):
        return reverse("grader:submission", args=[self.pk])

    @property
    def problem(self):
        return self.problem_version.problem

    @property
    def is_final(self) -> bool:
        return self.status == Status.GRADED

    def judge_result(self) -> JudgeResult | None:
        return JudgeResult.from_dict(self.result) if self.result else None

    @property
    def is_exam_work(self) -> bool:
        """Made in an exam (answering an exam item now, or detached from one by a reset)."""
        return self.exam_item_id is not None or self.exam_id is not None

    @property
    def counts_as_attempt(self) -> bool:
        """Platform faults never count against the student."""
        return self.status == Status.GRADED and self.verdict != Verdict.INTERNAL_ERROR


class SubmissionRefusal(models.Model):
    """A submission refused before it was saved (too large, too many lines, a static check, a launch).

    Refusals count toward the submission rate limit like saved submissions do: checking a source
    costs the server time too, so a student must not be able to send refused requests without end.
    Rows older than the rate limit's window are deleted as new ones come (actions.record_refusal).
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="submission_refusals",
                             verbose_name=_("user"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True, db_index=True)

    class Meta:
        indexes = [models.Index(fields=["user", "-created_at"])]
        verbose_name = _("refused submission")
        verbose_name_plural = _("refused submissions")


class RejudgeRecord(models.Model):
    """One submission of a rejudge with a preview, kept for the record: its verdict and result before,
    and the copy graded again (grader.rejudging.create_rejudge_copy). Applying gives the submission its
    copy's verdict, result and version (grader.rejudging.apply_records); these fields keep the old ones.

    Abstract, shared by an author's rejudge (authoring.RejudgeItem) and an exam's regrade
    (exams.KernelRejudge); each declares `original` and `copy` (a OneToOne to the copy, null where no
    copy could be made) and `old_version`, with related names of its own. What a pair means is
    grader.core.rejudge's rule."""

    old_verdict = models.CharField(_("old verdict"), max_length=16)
    old_result = models.JSONField(_("old result"), null=True, blank=True)

    class Meta:
        abstract = True

    @property
    def state(self):
        """The submission's RejudgeState (grader.core.rejudge) (reads `copy`: select_related it)."""
        copy = self.copy
        if copy is None:
            return rejudge_state(self.old_verdict, None)
        return rejudge_state(self.old_verdict, copy.status == Status.GRADED, copy.verdict)

    @property
    def changed(self) -> bool:
        """Graded again with another verdict (a platform fault is not one)."""
        return self.state is RejudgeState.CHANGED

    @property
    def not_rejudged(self) -> bool:
        return self.state is RejudgeState.NOT_REJUDGED
