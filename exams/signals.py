"""A kernel verdict of an exam item re-scores the attempt it belongs to, once the attempt has ended.

Only a submission's first verdict does (grader.grading.finish_grading stores it with its status GRADED):
a verdict that arrives after the student submitted belongs to the attempt as it was. A verdict given
later by a rejudge (grader.rejudging.apply_rejudge changes the verdict of a row that is GRADED already,
without its status) re-scores nothing by itself: an exam's regrade previews the new scores and stores
them only when an instructor applies it (exams.actions.regrades).
"""
from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from grader.models import Status, Submission


def is_first_verdict(instance, update_fields) -> bool:
    """Whether this save of a GRADED submission stored its first verdict: the grader's (status and verdict
    saved together) or a full save (a row written whole, e.g. created graded)."""
    return instance.status == Status.GRADED and (update_fields is None or {"status", "verdict"} <= set(update_fields))


@receiver(post_save, sender=Submission, dispatch_uid="exams.submission_graded")
def submission_graded(sender, instance, update_fields=None, **kwargs):
    if instance.exam_item_id and is_first_verdict(instance, update_fields):
        from .actions.grading import on_submission_graded

        transaction.on_commit(lambda: on_submission_graded(instance))
