"""Validate through the real queue: a package written in the browser's editor is validated by a real
Celery worker process on the emulator, each source getting its declared verdict, and then published."""
import time

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from authoring import actions
from authoring.models import ValidationRun
from courses.models import Course, Membership, Role
from grader.core.results import stored_message

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

# A second wrong solution: the tail guard written `i <= n` writes one element past the end.
OFF_BY_ONE = ("__global__ void scale(const float* x, float* y, float a, int n) {\n"
              "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
              "    if (i < n - 1) y[i] = a * x[i];\n}\n")


def test_validate_a_new_package_gives_the_declared_verdicts_and_allows_publishing(celery_worker_process):
    prof = User.objects.create_user("prof")
    course = Course.objects.create(name="PP", code="PP-1")
    Membership.objects.create(course=course, user=prof, role=Role.INSTRUCTOR)
    problem = actions.create_problem(course, prof, "scale-int", "Scale")
    files = dict(problem.versions.get().files)
    files["wrong/skips_last_element.cu"] = "// verdict: WRONG_ANSWER\n" + OFF_BY_ONE
    version, created = actions.save_version(problem, prof, files, "a second wrong solution")
    assert created and version.number == 2

    client = Client()
    client.force_login(prof)
    response = client.post(reverse("authoring:validate", args=[course.code, problem.slug, 2]))
    run = ValidationRun.objects.get(version=version)
    url = response["Location"]
    deadline = time.monotonic() + 180
    while run.outcome() == "running" and time.monotonic() < deadline:
        time.sleep(0.5)
    got = {i.name: (i.expected, i.submission.verdict) for i in run.items.select_related("submission")}
    assert got == {"solution.cu": ("ACCEPTED", "ACCEPTED"),
                   "wrong/no_bounds_check.cu": ("MEMORY_ERROR", "MEMORY_ERROR"),
                   "wrong/skips_last_element.cu": ("WRONG_ANSWER", "WRONG_ANSWER")}, \
        (got, celery_worker_process.output()[-3000:])
    assert run.outcome() == "passed"
    page = client.get(url).content.decode()
    assert page.count('class="row-ok"') == 3 and "every 1s" not in page
    client.post(reverse("authoring:publish", args=[course.code, problem.slug, 2]))
    problem.refresh_from_db()
    assert problem.is_published and problem.current_version == version


def test_a_broken_harness_reports_its_line_to_the_author_and_is_contained(celery_worker_process):
    """harness.py of a course's package runs in the sandbox: a failure there ends the validation run's
    submissions INTERNAL_ERROR at once (no retries) with the traceback and line for the author."""
    prof = User.objects.create_user("prof")
    course = Course.objects.create(name="PP", code="PP-2")
    Membership.objects.create(course=course, user=prof, role=Role.INSTRUCTOR)
    problem = actions.create_problem(course, prof, "scale-broken", "Scale")
    files = dict(problem.versions.get().files)
    files["harness.py"] = files["harness.py"].replace('    n = case["n"]\n', '    n = case["size"]\n')
    version, _ = actions.save_version(problem, prof, files, "typo in the harness")
    run = actions.start_validation(version, prof)
    deadline = time.monotonic() + 180
    while run.outcome() == "running" and time.monotonic() < deadline:
        time.sleep(0.5)
    item = run.items.select_related("submission").get(name="solution.cu")
    assert item.submission.verdict == "INTERNAL_ERROR", celery_worker_process.output()[-3000:]
    assert item.submission.tries == 1  # not retried: a harness bug is deterministic
    message = str(stored_message(item.submission.result))
    assert "harness.py line 5" in message and "KeyError" in message and "'size'" in message
    assert run.outcome() == "failed"
