"""Celery tasks of exams: they take ids (or nothing), are safe to run twice, and write through exams.actions."""
from celery import shared_task

from . import actions
from .print_tasks import print_exam  # noqa: F401  (registered with the worker: printed exams run here)


@shared_task
def close_expired_attempts() -> int:
    """Close and grade every attempt past its deadline."""
    return actions.close_expired()
