"""A kernel problem with variant parameters on the site: each student practises their own variant
(statement, starter and judge agree), stored with the submission so the judge grades that task."""
from pathlib import Path

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from django.urls import reverse

from grader import tasks
from grader.core.backends.base import RunOutcome, RunStatus
from grader.core.backends.dummy import DummyBackend
from grader.models import Submission
from problems.core.package import read_package_dir
from problems.services import practice_variant, version_package
from tests.web.conftest import import_files

BANK = Path(__file__).resolve().parents[2] / "problems" / "bank"


@pytest.fixture
def segment_sum(db):
    return import_files(read_package_dir(BANK / "segment-sum"))


def _students_with_different_variants(problem):
    """Two students whose drawn variants differ (the draw is by user id: try a few)."""
    package = version_package(problem.current_version)
    group, _ = Group.objects.get_or_create(name="Student")
    users = []
    for k in range(12):
        user = User.objects.create_user(f"student{k}", password="pw-123456789")
        user.groups.add(group)
        if all(practice_variant(user, package) != practice_variant(u, package) for u in users):
            users.append(user)
        if len(users) == 2:
            return users
    raise AssertionError("12 students drew the same variant")


def _client(user):
    client = Client()
    client.force_login(user)
    return client


def test_each_student_reads_and_starts_from_their_own_variant(segment_sum):
    """The page shows the student's BLOCK and layout in the statement and the starter, the same on
    every visit, and no placeholder; another student's page shows theirs."""
    url = reverse("problems:detail", args=[segment_sum.slug])
    package = version_package(segment_sum.current_version)
    for user in _students_with_different_variants(segment_sum):
        variant = practice_variant(user, package)
        html = _client(user).get(url).content.decode()
        assert f"#define BLOCK {variant['BLOCK']}" in html
        assert f"<code>BLOCK</code> = {variant['BLOCK']}, layout <code>{variant['LAYOUT']}</code>" in html
        assert "{{" not in html
        assert _client(user).get(url).content.decode().count(f"#define BLOCK {variant['BLOCK']}") == \
            html.count(f"#define BLOCK {variant['BLOCK']}")


def test_korean_statement_is_the_same_variant(segment_sum):
    """The Korean page renders the Korean statement of the student's variant."""
    user = _students_with_different_variants(segment_sum)[0]
    variant = practice_variant(user, version_package(segment_sum.current_version))
    client = _client(user)
    html = client.get(reverse("problems:detail", args=[segment_sum.slug]), HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert f"여러분의 layout은 <code>{variant['LAYOUT']}</code>입니다" in html


def test_submission_stores_the_variant_and_the_judge_grades_it(segment_sum, django_capture_on_commit_callbacks):
    """A submit stores the student's variant; the task judges with it: the launch is that variant's
    BLOCK threads and the reference is that layout's."""
    user = _students_with_different_variants(segment_sum)[1]
    variant = practice_variant(user, version_package(segment_sum.current_version))
    with django_capture_on_commit_callbacks(execute=False):
        _client(user).post(reverse("problems:detail", args=[segment_sum.slug]), {"source": "__global__ void k() {}"})
    submission = Submission.objects.get(user=user)
    assert submission.variant == variant
    launches = []

    def run(source, spec, request):
        launches.append(request.launch.block[0])
        return RunOutcome(status=RunStatus.OK, outputs={"out": request.inputs["out"]})

    tasks._judge(submission, DummyBackend(run))
    assert set(launches) == {variant["BLOCK"]}
