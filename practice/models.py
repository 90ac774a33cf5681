"""Generated questions: a stored variant per student and question slot, and attempts at it.

These models lived in the problems app until the layout split; their tables keep the old names
(`db_table`), and the move was a state-only migration, so existing databases keep their rows.
"""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class QuestionVariant(models.Model):
    """A generated question as one student saw it.

    The generated params and answer are stored (not only the seed), with the generator's
    version, so editing a generator never changes a variant already shown.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="question_variants")
    family = models.CharField(max_length=80, help_text="Generator family id, e.g. 'occupancy.blocks_per_sm'.")
    generator_version = models.PositiveIntegerField()
    difficulty = models.PositiveSmallIntegerField(default=1)
    seed = models.BigIntegerField()
    slot = models.CharField(
        max_length=80, help_text="Which question this is for the student: a practice counter, an exam question id."
    )
    params = models.JSONField()
    answer = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)
    # When the answer key and worked solution were first shown: a right answer, the allowed wrong
    # tries used up, or the student asked to see it (practice.actions.reveal). Answers given after
    # that are marked QuestionAttempt.after_reveal and never count as solving the question.
    revealed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "problems_questionvariant"
        verbose_name = _("question variant")
        verbose_name_plural = _("question variants")
        constraints = [
            models.UniqueConstraint(fields=["user", "family", "slot"], name="unique_variant_per_user_slot"),
        ]

    def __str__(self):
        return f"{self.family} v{self.generator_version} for {self.user.get_username()} ({self.slot})"


class QuestionAttempt(models.Model):
    """One answer given to a variant. An unparseable answer is not stored (it costs no attempt)."""

    variant = models.ForeignKey(QuestionVariant, on_delete=models.CASCADE, related_name="attempts")
    response = models.JSONField(help_text="The parsed answer, per field.")
    correct = models.BooleanField()
    # Given after the key was shown (QuestionVariant.revealed_at): graded and shown, never counted as solved.
    after_reveal = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    @property
    def counts_as_solved(self) -> bool:
        """A right answer given before the key was shown."""
        return self.correct and not self.after_reveal

    class Meta:
        db_table = "problems_questionattempt"
        ordering = ["-created_at"]
        verbose_name = _("question attempt")
        verbose_name_plural = _("question attempts")

    def __str__(self):
        return f"{self.variant}: {'correct' if self.correct else 'wrong'}"


class TopicStats(models.Model):
    """One student's answers to one topic's practice questions, per difficulty (1, 2, 3): how many
    answers, and how many questions answered right before their key was shown. The course
    dashboard's practice per topic reads these rows (at most one per student and topic) instead of
    every answer. Kept by practice.topic_stats whenever an answer is stored, changed or deleted,
    recomputed from that student's answers to that topic, so it equals a recount;
    `manage.py rebuild_practice_stats` recomputes every row (after a bulk load, or after a family
    moved to another topic)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
                             verbose_name=_("student"))
    topic = models.CharField(_("topic"), max_length=32)
    answers_1 = models.PositiveIntegerField(default=0)
    answers_2 = models.PositiveIntegerField(default=0)
    answers_3 = models.PositiveIntegerField(default=0)
    solved_1 = models.PositiveIntegerField(default=0)
    solved_2 = models.PositiveIntegerField(default=0)
    solved_3 = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("practice progress per topic")
        verbose_name_plural = _("practice progress per topic")
        constraints = [models.UniqueConstraint(fields=["user", "topic"], name="unique_topic_stats_per_user")]
