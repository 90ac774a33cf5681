"""A kernel verdict of an exam item re-scores the attempt it belongs to, once the attempt has ended."""
from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from grader.models import Status, Submission


@receiver(post_save, sender=Submission, dispatch_uid="exams.submission_graded")
def submission_graded(sender, instance, update_fields=None, **kwargs):
    if instance.exam_item_id and instance.status == Status.GRADED and (update_fields is None or "verdict" in update_fields):
        from .actions.grading import on_submission_graded

        transaction.on_commit(lambda: on_submission_graded(instance))
