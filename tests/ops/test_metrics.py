"""/metrics: protected, in the Prometheus text format, with the grading, queue and exam metrics."""
from __future__ import annotations

import time

import pytest
from prometheus_client.parser import text_string_to_metric_families

from ops import metrics
from tests.exams.conftest import course, exam, kernel_problem, people  # noqa: F401  (fixtures)


def samples(text: str) -> dict[tuple[str, tuple], float]:
    """{(sample name, sorted label items): value} of a scrape."""
    out = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def value(scrape: dict, name: str, **labels) -> float:
    return scrape.get((name, tuple(sorted(labels.items()))), 0.0)


@pytest.fixture
def token(settings):
    settings.WARPDRILL_METRICS_TOKEN = "metrics-token-123"
    return "metrics-token-123"


def test_metrics_need_the_token_when_one_is_set(client, token, db):
    assert client.get("/metrics").status_code == 404
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong").status_code == 404
    response = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/plain")


def test_without_a_token_only_loopback_clients_are_served(client, settings, db):
    settings.WARPDRILL_METRICS_TOKEN = ""
    assert client.get("/metrics", REMOTE_ADDR="127.0.0.1").status_code == 200
    assert client.get("/metrics", REMOTE_ADDR="10.1.2.3").status_code == 404


def test_the_scrape_has_queue_depth_exam_attempts_and_submissions_by_status(client, token, db, monkeypatch):
    """State read at scrape time: messages per configured queue (from the broker), attempts in progress."""
    from exams.models import AttemptState, ExamAttempt

    monkeypatch.setattr(metrics, "queue_depths", lambda queues: {q: 7 if q == "exam" else 0 for q in queues})
    monkeypatch.setattr(ExamAttempt.objects, "filter",
                        lambda **kw: type("Q", (), {"count": lambda self: 3 if kw == {"state": AttemptState.OPEN} else -1})())
    scrape = samples(client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {token}").content.decode())
    assert value(scrape, "warpdrill_queue_depth", queue="exam") == 7
    assert value(scrape, "warpdrill_queue_depth", queue="cpu") == 0
    assert value(scrape, "warpdrill_exam_attempts_in_progress") == 3


def test_exam_attempts_in_progress_follow_real_attempts(client, token, exam, people):
    """Two students start the exam (the gauge counts 2), one submits (1), the other's attempt is closed (0)."""
    from exams.actions.attempts import close_attempt, start_attempt, submit_attempt
    from exams.models import AttemptState

    def in_progress():
        return value(samples(client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {token}").content.decode()),
                     "warpdrill_exam_attempts_in_progress")

    assert in_progress() == 0
    alice = start_attempt(exam, people["alice"], accept_honour_code=True)
    bob = start_attempt(exam, people["bob"], accept_honour_code=True)
    assert in_progress() == 2
    submit_attempt(alice.pk, people["alice"])
    assert in_progress() == 1
    close_attempt(bob.pk, AttemptState.CLOSED)
    assert in_progress() == 0


@pytest.mark.django_db(transaction=True)
def test_queue_depth_counts_the_messages_waiting_in_the_real_broker():
    """Three messages sent to `exam` with no worker: the broker reports three waiting (Redis sums its
    priority lists; the embedded broker counts its files)."""
    from config.celery import app

    before = metrics.queue_depths(["exam"])["exam"]
    for _ in range(3):
        app.send_task("ops.tests.nothing", queue="exam", priority=6)
    assert metrics.queue_depths(["exam"])["exam"] == before + 3
    with app.connection_for_write() as conn:
        conn.default_channel.queue_purge("exam")
    assert metrics.queue_depths(["exam"])["exam"] == 0


def test_a_grading_is_timed_per_stage_and_counted(client, token, db):
    """StageTimer observes queue, compile, run, check and total for the backend."""
    def count(stage):
        return value(samples(client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {token}").content.decode()),
                     "warpdrill_grading_seconds_count", backend="testbe", stage=stage)

    before = {stage: count(stage) for stage in metrics.STAGES}
    timer = metrics.StageTimer("testbe", queued_seconds=1.5)
    for stage in ("compiling", "running", "running", "checking"):
        timer.progress(stage)
        time.sleep(0.01)
    timer.finish()
    after = {stage: count(stage) for stage in metrics.STAGES}
    assert {stage: after[stage] - before[stage] for stage in metrics.STAGES} == {
        "queue": 1, "compile": 1, "run": 1, "check": 1, "total": 1}


def test_web_requests_their_latency_and_database_statements_are_counted(client, token, db):
    """django-prometheus's middleware and database backend: a real page's request is counted by status,
    timed in the per-view latency histogram, and its SQL statements are counted and timed; a 404 too."""
    from django.conf import settings
    from django.urls import resolve

    def scrape():
        return samples(client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {token}").content.decode())

    assert settings.DATABASES["default"]["ENGINE"].startswith("django_prometheus.db.backends.")
    vendor = {"postgresql": "postgresql", "sqlite3": "sqlite"}[settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]]
    view = resolve("/").view_name
    before = scrape()
    assert client.get("/").status_code == 200  # the problem list: a few queries
    assert client.get("/no-such-page-here/").status_code == 404
    after = scrape()

    def moved(name, **labels):
        return value(after, name, **labels) - value(before, name, **labels)

    assert moved("django_http_responses_total_by_status_total", status="200") == 1
    assert moved("django_http_responses_total_by_status_total", status="404") == 1
    assert moved("django_http_requests_latency_seconds_by_view_method_count", view=view, method="GET") == 1
    assert moved("django_http_requests_latency_seconds_by_view_method_sum", view=view, method="GET") > 0
    assert moved("django_http_requests_latency_including_middlewares_seconds_count") == 2
    assert moved("django_db_execute_total", alias="default", vendor=vendor) >= 1
    assert moved("django_db_query_duration_seconds_count", alias="default", vendor=vendor) >= 1


def test_gpu_child_restarts_are_counted(client, token, db):
    """The GPU pool counts a child it kills and replaces (its _retire), without a GPU."""
    from grader.core.gpu.pool import _count_restart

    def restarts():
        return value(samples(client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {token}").content.decode()),
                     "warpdrill_child_restarts_total", kind="gpu", slot="main")

    before = restarts()
    _count_restart("main")
    assert restarts() == before + 1


@pytest.mark.django_db(transaction=True)
def test_platform_faults_retries_and_verdicts_of_a_real_grading(client, token, settings, django_capture_on_commit_callbacks):
    """An eager grading on the dummy backend whose harness raises: each of its four tries is a platform
    fault, three of them retried, and the verdict after the last retry, INTERNAL_ERROR, is counted."""
    from problems.core.package import parse_package
    from problems.models import Problem
    from problems.services import import_package
    from tests.packages import tiny_package_files
    from grader import actions
    from grader.models import Status, Submission
    from django.contrib.auth.models import User

    def scrape():
        return samples(client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {token}").content.decode())

    settings.CELERY_TASK_ALWAYS_EAGER = True
    from config.celery import app
    app.conf.task_always_eager = True
    settings.WARPDRILL_JUDGE = {**settings.WARPDRILL_JUDGE, "BACKEND": "dummy"}
    import_package(parse_package(tiny_package_files(**{"harness.py": "def generate(case, rng):\n    raise RuntimeError('x')\n"
                                                                    "def reference(inputs):\n    return {}\n"})))
    before = scrape()
    try:
        with django_capture_on_commit_callbacks(execute=True):
            sub = actions.create_submission(User.objects.create_user("m1"), Problem.objects.get(slug="tiny-add"),
                                            tiny_package_files()["solution.cu"])
    finally:
        app.conf.task_always_eager = False
    sub = Submission.objects.get(pk=sub.pk)
    assert sub.status == Status.GRADED and sub.verdict == "INTERNAL_ERROR"
    after = scrape()
    assert value(after, "warpdrill_platform_faults_total", backend="dummy") - value(before, "warpdrill_platform_faults_total", backend="dummy") == 4
    assert value(after, "warpdrill_task_retries_total", task="grader.tasks.grade_submission") - value(
        before, "warpdrill_task_retries_total", task="grader.tasks.grade_submission") == 3
    verdicts = {k: v - before.get(k, 0) for k, v in after.items() if k[0] == "warpdrill_verdicts_total"}
    assert {dict(k[1])["verdict"]: v for k, v in verdicts.items() if v} == {"INTERNAL_ERROR": 1}, verdicts
    assert all(dict(k[1])["backend"] == "dummy" for k, v in verdicts.items() if v)


def test_a_box_killed_at_its_wall_clock_limit_is_counted(client, token, db, tmp_path):
    """A real sandboxed box that sleeps past its limit is killed by the watchdog and counted by reason."""
    from grader.core import sandbox  # noqa: F401
    from tests.sandbox.run import run_box

    def kills():
        return value(samples(client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {token}").content.decode()),
                     "warpdrill_sandbox_kills_total", reason="time")

    before = kills()
    ok = run_box(["/bin/sh", "-c", "true"], tmp_path, 10.0)
    assert not ok.timed_out and kills() == before
    slept = run_box(["/bin/sh", "-c", "sleep 30"], tmp_path, 0.5)
    assert slept.timed_out
    assert kills() == before + 1
