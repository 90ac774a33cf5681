"""An exam regrade re-judges its kernel submissions through the real queue: a real Celery worker process
grades the exam's submissions on the `exam` queue against a package whose reference is wrong (v1), then,
after the fix (v2) is published, grades the regrade's shadow copies on the practice queue at low
priority; the regrade page follows them live and shows the diff, and only applying changes the scores."""
from __future__ import annotations

import re
import time
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from exams.actions.attempts import start_attempt, submit_attempt, submit_kernel
from exams.actions.scheduling import save_template, schedule_exam
from exams.models import KernelRegrade
from grader.models import Purpose, Status, Submission
from problems.core.package import parse_package
from problems.services import import_package
from tests.conftest import WorkerProcess, worker_env
from tests.packages import HARNESS, SOLUTION, WRONG_SUB, tiny_package_files

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# Version 1's reference subtracts: the right kernel (a + b) is judged WRONG_ANSWER, a - b ACCEPTED.
BROKEN_HARNESS = HARNESS.replace('{"c": inputs["a"] + inputs["b"]}', '{"c": inputs["a"] - inputs["b"]}')
SUBTRACTS = WRONG_SUB.replace("// verdict: WRONG_ANSWER\n", "")


def wait_for(pred, timeout: float, worker, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return
        time.sleep(0.5)
    raise AssertionError(f"{what}: not within {timeout} s\n{worker.output()[-4000:]}")


@pytest.fixture
def worker(transactional_db):
    """One worker for the exam queue and the practice queues (the exam's gradings, then the copies)."""
    w = WorkerProcess(worker_env(WARPDRILL_ALLOW_UNSAFE_SANDBOX="0"), queues="exam,cpu,gpu", name="regrade")
    w.wait_ready()
    yield w
    w.stop()


def test_regrade_rejudges_kernels_through_the_queue_after_a_package_fix(worker):
    assert BROKEN_HARNESS != HARNESS
    import_package(parse_package(tiny_package_files(**{"harness.py": BROKEN_HARNESS})))
    from courses.models import Course, Membership

    course = Course.objects.create(name="GPU", code="GPU-RG")
    ivy = User.objects.create_user("ivy-rg")
    alice, bob = User.objects.create_user("alice-rg"), User.objects.create_user("bob-rg")
    Membership.objects.create(course=course, user=ivy, role="instructor")
    for student in (alice, bob):
        Membership.objects.create(course=course, user=student, role="student")
    template = save_template(course, ivy, {"zones": [{"pool": [{"kernel": "tiny-add", "attempt_points": [10, 7, 5]}]}]})
    now = timezone.now()
    exam = schedule_exam(course, template, opens_at=now - timedelta(minutes=1), closes_at=now + timedelta(hours=1),
                         duration_minutes=60)
    subs = {}
    for student, source in ((alice, SOLUTION), (bob, SUBTRACTS)):
        attempt = start_attempt(exam, student)
        subs[student.username] = submit_kernel(attempt.items.get(kind="kernel"), student, source)
    wait_for(lambda: Submission.objects.filter(pk__in=[s.pk for s in subs.values()], status=Status.GRADED).count() == 2,
             240, worker, "the exam's gradings")
    assert {u: Submission.objects.get(pk=s.pk).verdict for u, s in subs.items()} == {
        "alice-rg": "WRONG_ANSWER", "bob-rg": "ACCEPTED"}, worker.output()[-3000:]
    for student in (alice, bob):
        submit_attempt(exam.attempts.get(user=student).pk, student)
    totals = lambda: dict(exam.attempts.values_list("user__username", "total"))  # noqa: E731
    assert totals() == {"alice-rg": 0.0, "bob-rg": 10.0}

    import_package(parse_package(tiny_package_files()))  # the fix: v2, now the current version
    client = Client()
    client.force_login(ivy)
    url = reverse("exams:regrade", args=[exam.pk])
    client.post(url, {"action": "rejudge", "against": "current"})
    run = KernelRegrade.objects.get(exam=exam)
    copies = list(run.items.values_list("copy_id", flat=True))
    assert len(copies) == 2 and set(Submission.objects.filter(pk__in=copies).values_list("purpose", flat=True)) == {
        Purpose.REJUDGE}
    assert 'hx-trigger="every 2s"' in client.get(url).content.decode()  # followed live while the copies grade
    partial = ""

    def finished():
        nonlocal partial
        partial = client.get(url, HTTP_HX_REQUEST="true").content.decode()  # what htmx polls
        return 'data-running="0"' in partial

    wait_for(finished, 240, worker, "the re-judging")
    assert "2 of 2 submissions re-judged" in partial and "<html" not in partial
    assert totals() == {"alice-rg": 0.0, "bob-rg": 10.0}  # nothing changed before apply
    rows = dict(re.findall(r'data-student="([^"]+)"(.*?)</tr>', partial, re.S))
    assert "Wrong answer" in rows["alice-rg"] and "Accepted" in rows["alice-rg"] and "0 → 10" in rows["alice-rg"]
    assert "10 → 0" in rows["bob-rg"] and "version 2" in rows["bob-rg"]
    fingerprint = partial.split('name="fingerprint" value="')[1].split('"')[0]
    client.post(url, {"action": "apply", "fingerprint": fingerprint})
    assert totals() == {"alice-rg": 10.0, "bob-rg": 0.0}
    assert {u: Submission.objects.get(pk=s.pk).verdict for u, s in subs.items()} == {
        "alice-rg": "ACCEPTED", "bob-rg": "WRONG_ANSWER"}
    # The worker graded the copies (and the originals once each, before).
    graded = re.findall(r"submission (\d+) graded: ([A-Z_]+)", worker.output())
    assert sorted(v for pk, v in graded if int(pk) in copies) == ["ACCEPTED", "WRONG_ANSWER"]
    assert sorted(int(pk) for pk, _v in graded) == sorted([*copies, *(s.pk for s in subs.values())])
