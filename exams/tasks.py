"""Celery tasks of exams: they take ids (or nothing), are safe to run twice, and write through exams.actions."""
from celery import shared_task

from .actions.attempts import close_expired
from .print_tasks import print_exam  # noqa: F401  (registered with the worker: printed exams run here)


@shared_task
def close_expired_attempts() -> int:
    """Close and grade every attempt past its deadline; drop the draws of closed exams."""
    from .drawing import forget_closed

    closed = close_expired()
    forget_closed()
    return closed


@shared_task
def predraw_exam(exam_id: int) -> int:
    """Draw and store every student's variant of the exam ahead of Start (exams.drawing)."""
    from .drawing import predraw_exam as predraw

    return predraw(exam_id)
