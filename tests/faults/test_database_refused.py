"""A grading whose database connection is refused (PostgreSQL full at max_connections, or restarting)
is retried with backoff, not left QUEUED for the stuck sweep's minutes (docs/scaling.md, "What fails first")."""
from __future__ import annotations

import pytest
from django.db import OperationalError


@pytest.mark.django_db(transaction=True)
def test_a_refused_connection_is_retried_and_the_submission_graded(settings, monkeypatch, django_capture_on_commit_callbacks):
    from django.contrib.auth.models import User

    from config.celery import app
    from grader import actions
    from grader import grading
    from grader.models import Status, Submission
    from problems.core.package import parse_package
    from problems.models import Problem
    from problems.services import import_package
    from tests.packages import tiny_package_files

    refused = []
    beat_heart = grading.beat_heart

    def refusing_once(submission_id):
        if not refused:
            refused.append(submission_id)
            raise OperationalError('connection failed: FATAL:  too many connections for database "warpdrill"')
        return beat_heart(submission_id)

    monkeypatch.setattr(grading, "beat_heart", refusing_once)
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.WARPDRILL_BACKEND = "dummy"
    app.conf.task_always_eager = True
    import_package(parse_package(tiny_package_files()))
    try:
        with django_capture_on_commit_callbacks(execute=True):
            sub = actions.create_submission(User.objects.create_user("refused-1"), Problem.objects.get(slug="tiny-add"),
                                            tiny_package_files()["solution.cu"])
    finally:
        app.conf.task_always_eager = False
    sub = Submission.objects.get(pk=sub.pk)
    assert refused == [sub.pk]
    assert sub.status == Status.GRADED and sub.verdict == "ACCEPTED", (sub.status, sub.verdict)
    assert sub.tries == 1  # the refused try never claimed it: no attempt, no try counted
