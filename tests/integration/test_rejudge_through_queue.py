"""Rejudge with a preview through the real queue: a student's submissions are graded by a real Celery
worker process, the author fixes the problem in a new version, previews a rejudge (the worker grades
copies, the originals stay as they were), and applies it (the originals get the new verdicts, the old
ones are kept, the dashboard's counts follow)."""
from __future__ import annotations

import re
import time

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from authoring import actions
from authoring.models import ProblemStats, RejudgeItem, RejudgeRun
from courses.models import Course, Membership, Role
from grader import actions as grader_actions
from grader.models import Purpose, Status, Submission

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

SOLUTION = ("__global__ void scale(const float* x, float* y, float a, int n) {\n"
            "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "    if (i < n) y[i] = a * x[i];\n}\n")
# Right only while the harness's factor is the skeleton's fixed 1.5.
HARDCODED = SOLUTION.replace("a * x[i]", "1.5f * x[i]")
NO_GUARD = SOLUTION.replace("if (i < n) ", "")


def _wait(predicate, worker, seconds: float = 240) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for the worker:\n" + worker.output()[-3000:])
        time.sleep(0.5)


def _validate_and_publish(problem, version, prof, worker) -> None:
    run = actions.start_validation(version, prof)
    _wait(lambda: run.outcome() != "running", worker)
    assert run.outcome() == "passed", [(i.name, i.submission.verdict) for i in run.items.select_related("submission")]
    actions.publish(version, prof)


def test_rejudge_preview_then_apply_through_the_queue(celery_worker_process):
    worker = celery_worker_process
    prof, stu = User.objects.create_user("prof"), User.objects.create_user("stu")
    course = Course.objects.create(name="PP", code="PP-R")
    Membership.objects.create(course=course, user=prof, role=Role.INSTRUCTOR)
    Membership.objects.create(course=course, user=stu, role=Role.STUDENT)
    problem = actions.create_problem(course, prof, "scale-rejudge", "Scale")
    v1 = problem.versions.get()
    _validate_and_publish(problem, v1, prof, worker)

    # The student's three submissions, graded by the worker on version 1.
    problem.refresh_from_db()
    mine = {name: grader_actions.create_submission(stu, problem, source).pk
            for name, source in (("solution", SOLUTION), ("hardcoded", HARDCODED), ("no_guard", NO_GUARD))}
    rows = Submission.objects.filter(pk__in=mine.values())
    _wait(lambda: all(s.status == Status.GRADED for s in rows.all()), worker)
    before = {name: Submission.objects.get(pk=pk).verdict for name, pk in mine.items()}
    assert before == {"solution": "ACCEPTED", "hardcoded": "ACCEPTED", "no_guard": "MEMORY_ERROR"}, \
        worker.output()[-3000:]
    stats = ProblemStats.objects.get(user=stu, problem=problem)
    assert (stats.attempts, stats.n_accepted, stats.n_wrong_answer) == (3, 2, 0)

    # The fix: the factor is drawn per test, so a kernel cannot hard-code it. Validated and published.
    files = dict(v1.files)
    files["harness.py"] = files["harness.py"].replace('"a": np.float32(1.5)', '"a": np.float32(rng.uniform(2.0, 3.0))')
    assert files["harness.py"] != v1.files["harness.py"]
    v2, created = actions.save_version(problem, prof, files, "draw the factor per test")
    assert created
    _validate_and_publish(problem, v2, prof, worker)

    # Preview: the worker grades copies against version 2; the page shows the one change coming.
    client = Client()
    client.force_login(prof)
    response = client.post(reverse("authoring:rejudge", args=[course.code, problem.slug]),
                           {"scope": "all", "against": "2"})
    run = RejudgeRun.objects.get(problem=problem)
    url = reverse("authoring:rejudge-run", args=[course.code, problem.slug, run.pk])
    assert response["Location"] == url
    assert run.items.count() == 3 and all(i.copy.purpose == Purpose.REJUDGE for i in run.items.select_related("copy"))
    _wait(lambda: 'data-running="0"' in client.get(url).content.decode(), worker)
    page = client.get(url).content.decode()
    assert "1 of 3 verdicts would change." in page and page.count('data-changed="1"') == 1, page
    changed_row = re.search(r'<tr class="row-problem" data-changed="1">(.*?)</tr>', page, re.S).group(1)
    assert f"#{mine['hardcoded']}" in changed_row and "Accepted" in changed_row and "Wrong answer" in changed_row
    # Nothing changed yet: not the verdicts, not the version, not the dashboard's counts.
    assert {name: Submission.objects.get(pk=pk).verdict for name, pk in mine.items()} == before
    assert set(rows.values_list("problem_version__number", flat=True)) == {1}
    stats.refresh_from_db()
    assert (stats.attempts, stats.n_accepted) == (3, 2)

    # Apply: the originals take the copies' verdicts and version 2; the old results stay in the rejudge.
    client.post(url)
    run.refresh_from_db()
    assert run.applied_by == prof and run.applied_at is not None
    after = {name: Submission.objects.get(pk=pk) for name, pk in mine.items()}
    assert {name: s.verdict for name, s in after.items()} == {
        "solution": "ACCEPTED", "hardcoded": "WRONG_ANSWER", "no_guard": "MEMORY_ERROR"}
    assert {s.problem_version.number for s in after.values()} == {2}
    assert all(s.purpose == Purpose.STUDENT for s in after.values())
    kept = RejudgeItem.objects.get(run=run, original_id=mine["hardcoded"])
    assert kept.old_verdict == "ACCEPTED" and kept.old_version == v1 and kept.old_result["verdict"] == "ACCEPTED"
    stats.refresh_from_db()
    assert (stats.attempts, stats.n_accepted, stats.n_wrong_answer, stats.best_verdict) == (3, 1, 1, "ACCEPTED")
    assert "Applied by prof" in client.get(url).content.decode()
    # Applying twice changes nothing.
    client.post(url)
    assert RejudgeRun.objects.get(pk=run.pk).applied_at == run.applied_at
