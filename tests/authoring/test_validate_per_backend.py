"""Validate compares each run with the verdict declared for the backend that graded it: a wrong solution's
`// verdict:` on the emulator, its `// gpu-verdict:` (where it has one) on the GPU. On a site with GPU
workers every source is graded on both queues, `cpu` (the emulator) and `gpu`, and both must pass.

The copy is of the bank's warp-shuffle-sum, whose wrong/early_return.cu is SYNC_ERROR on the emulator and
ACCEPTED on the GPU, and wrong/plain_add_into_total.cu SYNC_ERROR and WRONG_ANSWER. The emulator's runs are
the real emulator's, through the grading task in this process; the GPU's are a fake GPU backend's (no GPU
here), which gives each source the verdict an H100 gives it (docs/gpu-validation.md)."""
from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse

from authoring import actions
from authoring.models import ValidationRun
from grader import tasks
from grader.core.backends.dummy import DummyBackend
from grader.core.backends.registry import get_backend
from grader.core.results import JudgeResult
from grader.core.verdicts import Verdict
from grader.models import Submission
from problems.core.package import load_package
from problems.models import Problem
from problems.services import import_package

pytestmark = pytest.mark.django_db

BANK = Path(__file__).resolve().parents[2] / "problems" / "bank"
SLUG = "shfl-a"


class FakeGpuBackend(DummyBackend):
    """A GPU worker's backend where there is no GPU: it compiles nothing and its judge result is the
    verdict `gives` names for the source (what the real GPU gives it)."""

    name = "gpu"

    def __init__(self, gives: dict[str, Verdict]):
        super().__init__()
        self.gives = gives


@pytest.fixture
def copy(courses, people):
    """Course A's copy of warp-shuffle-sum (version 1)."""
    import_package(load_package(BANK / "warp-shuffle-sum"))
    return actions.copy_from_bank(courses["A"], people["prof"], Problem.objects.get(slug="warp-shuffle-sum"), SLUG)


@pytest.fixture
def worker(monkeypatch, settings):
    """grade(submission id, backend): the grading task run in this process by a worker whose backend is
    `backend` ("emulator": the real emulator; a FakeGpuBackend: its verdict for the source)."""
    settings.WARPDRILL_JUDGE = {**settings.WARPDRILL_JUDGE, "BACKEND": "emulator"}
    get_backend.cache_clear()
    real_judge = tasks._judge

    def fake_judge(submission, backend):
        if isinstance(backend, FakeGpuBackend):
            return JudgeResult(verdict=backend.gives[submission.source], backend="gpu")
        return real_judge(submission, backend)

    monkeypatch.setattr(tasks, "_judge", fake_judge)

    def grade(submission_id: int, backend) -> str:
        monkeypatch.setattr(tasks, "get_backend", lambda name=None: backend)
        return tasks.grade_submission.apply((submission_id,)).get()

    yield grade
    get_backend.cache_clear()


def _by_source(package) -> dict[str, object]:
    return {"solution.cu": package.solution, **{f"wrong/{w.name}": w for w in package.wrong}}


def _gpu_gives(package) -> dict[str, Verdict]:
    """What an H100 gives each source of the package: the solution ACCEPTED, each wrong one its GPU verdict."""
    return {package.solution: Verdict.ACCEPTED, **{w.source: w.expected_on("gpu") for w in package.wrong}}


def _run_page(client, run) -> str:
    return client.get(reverse("authoring:run", args=["PP-A", SLUG, run.pk])).content.decode()


@pytest.mark.slow
def test_each_run_is_compared_with_the_verdict_declared_for_the_backend_that_graded_it(copy, people, worker,
                                                                                        client_for, sent_tasks):
    """A site without GPU workers grades each source once, on `cpu`. The emulator gives early_return.cu
    SYNC_ERROR, its `// verdict:`, and the run passes; had the site's one grading queue been a GPU's, the
    GPU's ACCEPTED is compared with its `// gpu-verdict:` and passes too (before, it was compared with
    SYNC_ERROR and no copy of the ten bank problems with a gpu-verdict could ever be published)."""
    version = copy.versions.get()
    package = version.package()
    with sent_tasks.until_commit():
        run = actions.start_validation(version, people["prof"])
    sent = sent_tasks.commit()
    items = {i.name: i for i in run.items.select_related("submission")}
    assert set(items) == {"solution.cu", "wrong/early_return.cu", "wrong/no_barrier_before_warp_zero.cu",
                          "wrong/plain_add_into_total.cu"}
    assert {sent_tasks.queues[pk] for pk in sent} == {"cpu"} and len(sent) == 4
    assert (items["wrong/early_return.cu"].expected, items["wrong/early_return.cu"].expected_gpu) == \
        ("SYNC_ERROR", "ACCEPTED")
    assert items["wrong/no_barrier_before_warp_zero.cu"].expected_gpu == ""  # the same on both

    # The table shows both declared verdicts where they differ, before anything is graded.
    page = _run_page(client_for("prof"), run)
    assert page.count('class="declared-on"') == 4  # early_return and plain_add_into_total, two each
    assert "on the GPU" in page and 'data-queue="gpu"' not in page  # one column: this site has no GPU workers

    for item in items.values():
        assert worker(item.submission_id, get_backend("emulator")) == item.expected, item.name
    run = ValidationRun.objects.get(pk=run.pk)
    assert run.outcome() == "passed"
    assert all(i.submission.backend == "emulator" for i in run.items.select_related("submission"))

    # The same sources graded by a GPU: each compared with its GPU verdict.
    gpu = FakeGpuBackend(_gpu_gives(package))
    with sent_tasks.until_commit():
        run2 = actions.start_validation(version, people["prof"])
    sent_tasks.commit()
    for item in run2.items.all():
        worker(item.submission_id, gpu)
    run2 = ValidationRun.objects.get(pk=run2.pk)
    got = {i.name: (i.submission.backend, i.submission.verdict, i.ok) for i in run2.items.select_related("submission")}
    assert got["wrong/early_return.cu"] == ("gpu", "ACCEPTED", True)
    assert got["wrong/plain_add_into_total.cu"] == ("gpu", "WRONG_ANSWER", True)
    assert run2.outcome() == "passed"
    page = _run_page(client_for("prof"), run2)
    assert page.count('class="row-ok"') == 4 and "does not match" not in page


@pytest.mark.slow
def test_with_gpu_workers_validate_runs_on_the_emulator_and_the_gpu_and_both_must_pass(copy, people, worker, settings,
                                                                                       client_for, sent_tasks):
    settings.WARPDRILL_GPU_WORKERS = True
    version = copy.versions.get()
    package = version.package()
    client = client_for("prof")
    with sent_tasks.until_commit():
        response = client.post(reverse("authoring:validate", args=["PP-A", SLUG, 1]))
    sent = sent_tasks.commit()
    run = ValidationRun.objects.get(version=version)
    assert response["Location"] == reverse("authoring:run", args=["PP-A", SLUG, run.pk])
    items = list(run.items.select_related("submission"))
    # Each of the four sources on both queues, each submission sent to its own.
    assert len(items) == 8 and sorted(sent_tasks.queues[pk] for pk in sent) == ["cpu"] * 4 + ["gpu"] * 4
    assert {(i.name, i.submission.queue) for i in items} == {(name, q) for name in _by_source(package) for q in ("cpu", "gpu")}
    page = _run_page(client, run)
    assert '<th data-queue="cpu">CPU (emulator)</th>' in page and '<th data-queue="gpu">GPU</th>' in page
    assert page.count('<tr class="" data-name=') == 4 and 'id="run-backends"' in page

    # The GPU worker first; the emulator's half is still to come, so nothing can be published yet.
    gpu = FakeGpuBackend(_gpu_gives(package))
    for item in items:
        if item.submission.queue == "gpu":
            worker(item.submission_id, gpu)
    assert run.outcome() == "running"
    client.post(reverse("authoring:publish", args=["PP-A", SLUG, 1]))
    assert not Problem.objects.get(slug=SLUG).is_published
    for item in items:
        if item.submission.queue == "cpu":
            worker(item.submission_id, get_backend("emulator"))
    assert run.outcome() == "passed", [(i.name, i.submission.queue, i.submission.verdict)
                                       for i in run.items.select_related("submission")]
    page = _run_page(client, run)
    assert page.count('class="row-ok"') == 4 and page.count('<td class="got" data-queue="gpu" data-backend="gpu">') == 4
    row = page[page.index('data-name="wrong/early_return.cu"'):]
    row = row[:row.index("</tr>")]
    assert row.count('data-verdict="SYNC_ERROR"') == 1 and row.count('data-verdict="ACCEPTED"') == 1
    client.post(reverse("authoring:publish", args=["PP-A", SLUG, 1]))
    assert Problem.objects.get(slug=SLUG).is_published


def test_a_gpu_that_misses_its_declared_verdict_fails_the_run(copy, people, worker, settings, client_for, sent_tasks):
    """The GPU half alone can fail a run: early_return.cu declared ACCEPTED on the GPU but got SYNC_ERROR there
    (a GPU with synccheck that sees it): the run fails and the row says so in the GPU's column."""
    settings.WARPDRILL_GPU_WORKERS = True
    version = copy.versions.get()
    package = version.package()
    with sent_tasks.until_commit():
        run = actions.start_validation(version, people["prof"])
    sent_tasks.commit()
    gives = _gpu_gives(package)
    early = next(w for w in package.wrong if w.name == "early_return.cu")
    gives[early.source] = Verdict.SYNC_ERROR
    items = list(run.items.select_related("submission"))
    for item in items:
        if item.submission.queue == "gpu":
            worker(item.submission_id, FakeGpuBackend(gives))
        else:  # the emulator's verdicts, as the first test shows it gives them
            from grader import grading

            grading.start_grading(item.submission_id, "emulator")
            grading.finish_grading(item.submission_id, JudgeResult(verdict=Verdict(item.expected)))
    assert run.outcome() == "failed"
    bad = [(i.name, i.submission.queue) for i in run.items.select_related("submission") if not i.ok]
    assert bad == [("wrong/early_return.cu", "gpu")]
    page = _run_page(client_for("prof"), run)
    row = page[page.index('data-name="wrong/early_return.cu"'):]
    row = row[:row.index("</tr>")]
    assert 'class="row-problem"' in page and row.count("does not match") == 1
    assert row.index("does not match") > row.index('data-queue="gpu"')  # in the GPU's column
    client_for("prof").post(reverse("authoring:publish", args=["PP-A", SLUG, 1]))
    assert not Problem.objects.get(slug=SLUG).is_published


def test_a_gpu_queue_graded_by_an_emulator_worker_is_compared_with_the_emulators_verdict_and_says_so(
        copy, people, settings, client_for, sent_tasks):
    """A misrouted worker (an emulator consuming `gpu`, as `make dev`'s one worker does) grades the GPU
    column: its verdicts are compared with the emulator's declarations, and the cell names the backend."""
    from grader import grading

    settings.WARPDRILL_GPU_WORKERS = True
    with sent_tasks.until_commit():
        run = actions.start_validation(copy.versions.get(), people["prof"])
    sent_tasks.commit()
    for item in run.items.all():
        grading.start_grading(item.submission_id, "emulator")
        grading.finish_grading(item.submission_id, JudgeResult(verdict=Verdict(item.expected)))
    assert run.outcome() == "passed"
    page = _run_page(client_for("prof"), run)
    assert page.count("graded by the emulator backend") == 4


def test_a_validation_submissions_queue_survives_the_sweepers_and_a_setup_wait(copy, people, settings, sent_tasks):
    """The stuck sweeper and the dead-grader sweeper send a validation submission back to its own queue,
    and so does a task that waits for the emulator's setup (the message's own queue)."""
    from datetime import timedelta
    from types import SimpleNamespace

    from django.utils import timezone

    from grader import sweeps
    from grader.models import Status

    settings.WARPDRILL_GPU_WORKERS = True
    with sent_tasks.until_commit():
        run = actions.start_validation(copy.versions.get(), people["prof"])
    sent_tasks.commit()
    old = timezone.now() - timedelta(hours=1)
    Submission.objects.filter(validation_item__run=run).update(queued_at=old)
    sent_tasks.queues.clear()
    with sent_tasks.until_commit():
        stuck = sweeps.requeue_stuck()
    sent = sent_tasks.commit()
    assert len(stuck) == 8 == len(sent)
    assert {sent_tasks.queues[pk] for pk in sent} == {"cpu", "gpu"}
    assert all(sent_tasks.queues[s.pk] == s.queue for s in Submission.objects.filter(pk__in=sent))
    Submission.objects.filter(validation_item__run=run).update(status=Status.RUNNING, started_at=old, heartbeat_at=old)
    sent_tasks.queues.clear()
    with sent_tasks.until_commit():
        dead = sweeps.requeue_dead_graders()
    sent = sent_tasks.commit()
    assert len(dead) == 8 and all(sent_tasks.queues[s.pk] == s.queue for s in Submission.objects.filter(pk__in=sent))
    # A task message that came from `cpu` is sent back to `cpu`; an eager run (no delivery info) to the router.
    assert tasks._same_queue(SimpleNamespace(request=SimpleNamespace(delivery_info={"routing_key": "cpu"}))) == \
        {"queue": "cpu"}
    assert tasks._same_queue(SimpleNamespace(request=SimpleNamespace(delivery_info=None))) == {}


def test_send_hands_a_submissions_own_queue_to_celery(monkeypatch):
    """grader.actions._send: a submission with a queue of its own is sent there with its priority; one
    without goes where grader.routing sends it (no queue option)."""
    from grader import actions as grader_actions

    calls = []

    class FakeTask:
        def delay(self, *args):
            calls.append((args, {}))

        def apply_async(self, args, **options):
            calls.append((args, options))

    monkeypatch.setattr(tasks, "grade_submission", FakeTask())
    grader_actions._send(1, 9, False, "gpu")
    grader_actions._send(2, None, False, "")
    grader_actions._send(3, 9, False, "")
    assert calls == [((1,), {"priority": 9, "queue": "gpu"}), ((2,), {}), ((3,), {"priority": 9})]
