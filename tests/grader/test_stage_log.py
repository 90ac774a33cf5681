"""The worker's stage log (grader.tasks.StageClock, WARPDRILL_STAGE_LOG): where a grading's time goes."""
from __future__ import annotations

import json

import pytest


@pytest.mark.django_db
def test_a_grading_writes_one_line_with_its_stages(settings, tmp_path, monkeypatch, django_capture_on_commit_callbacks):
    """An eager grading on the dummy backend appends one JSON line: the submission, the task's start,
    its total and each stage it went through, every figure a non-negative number of seconds that
    together stay within the total."""
    from django.contrib.auth.models import User

    from config.celery import app
    from grader import actions
    from grader.models import Status, Submission
    from problems.core.package import parse_package
    from problems.models import Problem
    from problems.services import import_package
    from tests.packages import tiny_package_files

    from grader import tasks
    from grader.core.input_cache import InputCache

    log_path = tmp_path / "stages.jsonl"
    monkeypatch.setenv("WARPDRILL_STAGE_LOG", str(log_path))
    # A fresh process's cache: earlier tests in this process may have computed tiny-add's inputs.
    monkeypatch.setattr(tasks, "INPUTS", InputCache())
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.WARPDRILL_JUDGE = {**settings.WARPDRILL_JUDGE, "BACKEND": "dummy"}
    app.conf.task_always_eager = True
    import_package(parse_package(tiny_package_files()))
    try:
        with django_capture_on_commit_callbacks(execute=True):
            sub = actions.create_submission(User.objects.create_user("s1"), Problem.objects.get(slug="tiny-add"),
                                            tiny_package_files()["solution.cu"])
    finally:
        app.conf.task_always_eager = False
    sub = Submission.objects.get(pk=sub.pk)
    assert sub.status == Status.GRADED
    lines = [json.loads(x) for x in log_path.read_text().splitlines()]
    assert len(lines) == 1
    line = lines[0]
    assert line["id"] == sub.pk
    assert abs(line["started"] - sub.started_at.timestamp()) < 5
    for stage in ("heartbeat", "claim", "package", "compile", "inputs", "runs", "progress", "save"):
        assert line[stage] >= 0, stage
    assert line["input_misses"] >= 1 and line["input_hits"] >= 0  # a fresh process computes the inputs
    assert 1 <= line["progress_writes"] <= 3  # stage changes only: running, checking
    spent = sum(line[k] for k in ("heartbeat", "claim", "package", "compile", "inputs", "runs", "progress", "save"))
    assert spent <= line["total_s"] + 1e-3


def test_without_the_setting_no_file_is_written(tmp_path, monkeypatch):
    """The clock always runs (it is cheap); the log is written only where WARPDRILL_STAGE_LOG names a file."""
    from grader import tasks

    monkeypatch.delenv("WARPDRILL_STAGE_LOG", raising=False)
    monkeypatch.chdir(tmp_path)
    with tasks._stages(7) as clock:
        with tasks._timed("compile"):
            pass
    assert set(clock.figures) == {"compile"} and clock.figures["compile"] >= 0
    assert list(tmp_path.iterdir()) == []
