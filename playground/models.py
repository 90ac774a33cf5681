"""Playground runs: a user's kernel run once with a chosen launch and arguments, never graded."""
import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from .core.run import PlaygroundResult


def new_key() -> str:
    """A run's key in its URLs: 16 random URL-safe characters, so that a shared link cannot be guessed."""
    return secrets.token_urlsafe(12)


class RunState(models.TextChoices):
    """Where a playground run is. The result is set only with DONE."""

    QUEUED = "QUEUED", _("Queued")  # saved and handed to the queue
    COMPILING = "COMPILING", _("Compiling")  # a worker took it and is compiling
    RUNNING = "RUNNING", _("Running")  # the kernel runs (in checking mode)
    RETRYING = "RETRYING", _("Not run, retrying")  # a platform fault: queued again
    DONE = "DONE", _("Done")  # final: the result is set (a compile error and a fault are results too)
    FAILED = "FAILED", _("Failed")  # final: the platform failed after its retries (`error` says why)


class PlaygroundRun(models.Model):
    """One run of a user's kernel. Only its owner sees it, unless `shared` (then anyone with the link)."""

    key = models.CharField(_("key"), max_length=24, unique=True, default=new_key, editable=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="playground_runs",
                             verbose_name=_("user"))
    source = models.TextField(_("source"))
    kernel = models.CharField(_("kernel"), max_length=64)
    # The rows as the form and the API write them (playground.core.spec.ArgumentSpec.to_dict), in order.
    args = models.JSONField(_("arguments"), default=list)
    launch_grid = models.CharField(_("grid"), max_length=200)
    launch_block = models.CharField(_("block"), max_length=200)
    launch_shared_bytes = models.CharField(_("dynamic shared memory (bytes)"), max_length=200, blank=True)
    # The submission it was opened from ("try this kernel in the playground"), if any.
    from_submission = models.ForeignKey("grader.Submission", null=True, blank=True, on_delete=models.SET_NULL,
                                        related_name="+", verbose_name=_("opened from submission"))
    shared = models.BooleanField(_("shared by link"), default=False)
    state = models.CharField(_("state"), max_length=16, choices=RunState.choices, default=RunState.QUEUED,
                             db_index=True)
    result = models.JSONField(_("result"), null=True, blank=True, help_text=_("The PlaygroundResult as a dict."))
    error = models.TextField(_("error"), blank=True)
    backend = models.CharField(_("backend"), max_length=16, blank=True)
    tries = models.PositiveSmallIntegerField(_("tries"), default=0)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True, db_index=True)
    # When it was last handed to the queue, and when a worker last took it: the sweeper re-queues a
    # run that waited or ran past WARPDRILL_STUCK_AFTER_S (a lost message, a dead worker).
    queued_at = models.DateTimeField(_("queued at"), null=True, blank=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["user", "-created_at"])]
        verbose_name = _("playground run")
        verbose_name_plural = _("playground runs")

    def __str__(self):
        return f"{self.key} ({self.kernel}) by {self.user}"

    def get_absolute_url(self):
        return reverse("playground:run", args=[self.key])

    @property
    def is_final(self) -> bool:
        return self.state in (RunState.DONE, RunState.FAILED)

    def playground_result(self) -> PlaygroundResult | None:
        return PlaygroundResult.from_dict(self.result) if self.result else None
