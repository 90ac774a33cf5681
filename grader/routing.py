"""Celery routing: a table from task name to queue; grading goes to `gpu` when GPU workers exist,
exam grading to its own `exam` queue (workers reserved for it, so practice traffic cannot starve an exam)."""
from django.conf import settings

# Tasks that must run where the judge backend lives.
GRADING_TASKS = {"grader.tasks.grade_submission", "playground.tasks.run_playground"}
# grader.tasks.record_writemap (a write map on request) runs on `cpu`: the emulator records it.
# Task name -> queue, for tasks with a queue of their own. The exam sweeps go to `exam` too: behind a
# practice queue full of gradings on `cpu` they would wait minutes, while the exam clock runs.
QUEUES = {
    "grader.tasks.grade_exam_submission": "exam",
    "grader.tasks.sweep_stale_exam_submissions": "exam",
    "exams.tasks.close_expired_attempts": "exam",
    # Drawing the variants ahead of Start: the exam's workers, so an exam-only deployment draws them.
    "exams.tasks.predraw_exam": "exam",
}


def grading_queue() -> str:
    """'gpu' when GPU workers are configured, else 'cpu' (the emulator)."""
    return "gpu" if settings.WARPDRILL_GPU_WORKERS else "cpu"


def route_task(name, args, kwargs, options, task=None, **kw):
    """Celery router (CELERY_TASK_ROUTES): exam grading on `exam`, grading by backend, everything else on `cpu`."""
    if name in QUEUES:
        return {"queue": QUEUES[name]}
    if name in GRADING_TASKS:
        return {"queue": grading_queue()}
    return {"queue": "cpu"}
