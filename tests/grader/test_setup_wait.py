"""While another process builds the emulator runtime (a first `make dev`: the prefork worker's warm-up
thread), a grading task does not claim its submission and wait for the build's lock inside its time
limit (the tester's "Running test 4 of 4" for 7 minutes, then the soft time limit and a traceback):
it leaves the submission queued with a fresh queued_at (no stale re-queue) and sends itself again."""
from __future__ import annotations

import fcntl
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.utils import timezone

from grader import tasks
from grader.core.emulator import toolchain
from grader.models import Status, Submission


class FakeTask:
    def __init__(self):
        self.request = SimpleNamespace(is_eager=False)
        self.sent = []

    def apply_async(self, args, countdown=None):
        self.sent.append((args, countdown))


@pytest.fixture
def make_submission_row(db, make_student, django_capture_on_commit_callbacks):
    """A saved QUEUED submission (its queue message captured, not sent), queued an hour ago."""
    from grader import actions
    from problems.core.package import parse_package
    from problems.models import Problem
    from problems.services import import_package
    from tests.packages import tiny_package_files

    import_package(parse_package(tiny_package_files()))
    problem = Problem.objects.get(slug="tiny-add")
    student = make_student("waiting-wen")

    def make() -> Submission:
        with django_capture_on_commit_callbacks(execute=False):
            sub = actions.create_submission(student, problem, tiny_package_files()["solution.cu"])
        Submission.objects.filter(pk=sub.pk).update(queued_at=timezone.now() - timedelta(hours=1))
        return Submission.objects.get(pk=sub.pk)

    return make


@pytest.fixture
def building(tmp_path):
    """An emulator backend over an empty cache whose runtime lock another open file holds."""
    backend = SimpleNamespace(name="emulator", cache_dir=tmp_path, cxx=toolchain.DEFAULT_CXX)
    lock = open(tmp_path / f"runtime-{toolchain.runtime_hash(backend.cxx)}.lock", "w")
    fcntl.flock(lock, fcntl.LOCK_EX)
    yield backend, lock
    lock.close()


def test_runtime_building_needs_the_lock_held_and_a_variant_missing(building, tmp_path):
    backend, lock = building
    assert toolchain.runtime_building(tmp_path, ["fast", "tsan"], backend.cxx)
    fcntl.flock(lock, fcntl.LOCK_UN)
    assert not toolchain.runtime_building(tmp_path, ["fast", "tsan"], backend.cxx)  # nobody builds: grade (and build)
    fcntl.flock(lock, fcntl.LOCK_EX)
    lib = tmp_path / f"runtime-{toolchain.runtime_hash(backend.cxx)}"
    lib.mkdir()
    for v in ("fast", "tsan"):
        (lib / f".done-{v}").write_text("x")
    assert not toolchain.runtime_building(tmp_path, ["fast", "tsan"], backend.cxx)  # built: the lock is the pch's


@pytest.mark.django_db
def test_task_waits_outside_its_time_limit_while_the_runtime_builds(building, monkeypatch, make_submission_row):
    backend, _lock = building
    sub = make_submission_row()
    monkeypatch.setattr(tasks, "get_backend", lambda *a, **k: backend)
    task = FakeTask()
    assert tasks._grade(task, sub.pk) is None
    assert task.sent == [((sub.pk,), tasks.SETUP_WAIT_S)]
    sub.refresh_from_db()
    assert sub.status == Status.QUEUED and sub.started_at is None
    assert timezone.now() - sub.queued_at < timedelta(seconds=30)  # fresh: the sweepers leave it alone
    from grader import actions
    from grader import sweeps

    assert sub.pk not in sweeps.requeue_stale_exam_submissions() + sweeps.requeue_dead_graders()


def test_eager_tasks_never_wait(building):
    task = FakeTask()
    task.request.is_eager = True
    assert not tasks._setup_pending(task, building[0])


@pytest.mark.django_db
def test_a_waiting_submission_says_the_grader_is_setting_up(building, monkeypatch, make_submission_row):
    """After a task deferred, queued submissions read "the grader is still setting up" (en + ko) on the
    pages and `setting_up: true` in the API, instead of "Waiting for a grader…"."""
    from django.template import Context, Template
    from django.utils import translation

    from grader import live

    backend, _lock = building
    sub = make_submission_row()
    live._cache().delete(live.SETTING_UP_KEY)
    note = Template('{% load i18n warpdrill %}{% judge_setting_up as s %}{% if s %}'
                    '{% translate "The grader is still setting up (its first start builds the emulator); your '
                    'submission waits and is graded as soon as it is ready." %}{% endif %}')
    assert note.render(Context()) == ""
    monkeypatch.setattr(tasks, "get_backend", lambda *a, **k: backend)
    tasks._grade(FakeTask(), sub.pk)
    assert live.setting_up()
    assert "still setting up" in note.render(Context())
    with translation.override("ko"):
        assert "채점기가 아직 준비 중입니다" in note.render(Context())
    templates = Path(__file__).resolve().parents[2] / "templates"
    for page in ("partials/submission_live.html", "exams/_kernel_submission.html"):
        assert "{% judge_setting_up as setting_up %}" in (templates / page).read_text()
    live._cache().delete(live.SETTING_UP_KEY)
