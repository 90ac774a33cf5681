"""Structured logs: JSON lines, a request id on web logs, and the submission id, exam attempt id and
backend on every log line of a grading (ops.logcontext, bound on Celery's task signals)."""
from __future__ import annotations

import io
import json
import logging

import pytest

from ops import logcontext
from ops.jsonlog import JsonFormatter
from tests.exams.conftest import course, exam, fast_password_hasher, kernel_problem, people  # noqa: F401 (fixtures)


@pytest.fixture
def json_lines():
    """Capture every record of the root logger as the production handler writes it (filter + JSON)."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(logcontext.ContextFilter())
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    try:
        yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)


def test_a_record_is_one_json_object_with_the_bound_fields(json_lines):
    log = logging.getLogger("warpdrill.test")
    with logcontext.bound(submission_id=12, backend="emulator"):
        log.info("graded %s", "ok")
    log.info("outside")
    try:
        raise ValueError("boom")
    except ValueError:
        log.exception("failed")
    inside, outside, failed = json_lines()
    assert inside["message"] == "graded ok" and inside["submission_id"] == 12 and inside["backend"] == "emulator"
    assert inside["level"] == "INFO" and inside["logger"] == "warpdrill.test" and inside["ts"].endswith("+00:00")
    assert "submission_id" not in outside
    assert "ValueError: boom" in failed["exc"]


def test_web_log_lines_carry_the_request_id(client, db, json_lines):
    """Django's own 'Not Found' line has the id that the response's X-Request-ID gives; a proxy's id is kept."""
    response = client.get("/no-such-page/")
    request_id = response["X-Request-ID"]
    assert len(request_id) == 32
    lines = [line for line in json_lines() if line["logger"] == "django.request"]
    assert lines and all(line["request_id"] == request_id for line in lines), lines
    assert client.get("/no-such-page/", HTTP_X_REQUEST_ID="nginx-req-0123456789")["X-Request-ID"] == "nginx-req-0123456789"
    assert len(client.get("/", HTTP_X_REQUEST_ID="bad id\nwith newline")["X-Request-ID"]) == 32


@pytest.mark.django_db(transaction=True)
def test_every_line_of_an_exam_grading_has_the_submission_attempt_and_backend(exam, people, settings, json_lines,
                                                                             django_capture_on_commit_callbacks):
    """An exam kernel submission graded (eagerly, dummy backend): every line between the task's start and
    end names the submission, the exam attempt and the backend; nothing is left bound afterwards."""
    from config.celery import app
    from exams.actions.attempts import start_attempt, submit_kernel
    from grader.models import Submission

    settings.WARPDRILL_JUDGE = {**settings.WARPDRILL_JUDGE, "BACKEND": "dummy"}
    attempt = start_attempt(exam, people["alice"])
    item = attempt.items.get(kind="kernel")
    app.conf.task_always_eager = True
    try:
        with django_capture_on_commit_callbacks(execute=True):
            sub = submit_kernel(item, people["alice"], "__global__ void add(const float* a, const float* b, "
                                                          "float* c, int n) { }\n")
    finally:
        app.conf.task_always_eager = False
    assert Submission.objects.get(pk=sub.pk).status == "GRADED"
    grading = [line for line in json_lines() if line.get("task_id")]
    assert any(f"submission {sub.pk} graded" in line["message"] for line in grading), json_lines()
    for line in grading:
        assert (line.get("submission_id"), line.get("exam_attempt_id"), line.get("backend")) == (sub.pk, attempt.pk, "dummy"), line
    assert logcontext.current() == {}


def test_an_eager_task_inside_a_request_gives_the_request_id_back():
    """The task's fields are bound for the task only: the fields from before it come back afterwards."""
    from ops.signals import bind_grading_context, count_verdict

    class Task:
        name = "grader.tasks.sweep_stuck_submissions"

    with logcontext.bound(request_id="req-1234567890"):
        bind_grading_context(task_id="t-1", task=Task(), args=())
        assert logcontext.current()["task_id"] == "t-1" and logcontext.current()["request_id"] == "req-1234567890"
        count_verdict(task_id="t-1", task=Task(), retval=3, state="SUCCESS")
        assert logcontext.current() == {"request_id": "req-1234567890"}
