"""Celery tasks. They take ids, are safe to run twice, and write only through the write path of
submissions (grader.actions, grading, sweeps, writemaps)."""
from __future__ import annotations

import dataclasses
import logging
import os
import threading
import time
from contextlib import contextmanager

from celery import shared_task
from celery.signals import worker_process_init, worker_ready, worker_shutting_down
from django.conf import settings
from django.db import InterfaceError, OperationalError

from grader import grading
from grader import retries
from grader import sweeps
from grader import writemaps
from grader.core.backends.registry import backend_class, get_backend, hang_explainer
from grader.core.emulator.toolchain import BuildStoppedError, stop_builds
from grader.core.errors import PlatformError
from grader.core.input_cache import InputCache
from grader.core.judge import LaunchChoice, judge
from grader.harness_box import HarnessError, sandboxed_loader
from grader.models import Purpose
from grader.stages import TimedBackend as _TimedBackend
from grader.stages import clock_now as _clock_now
from grader.stages import stages as _stages
from grader.stages import timed as _timed
from ops import metrics

log = logging.getLogger(__name__)

MAX_RETRIES = 3
# A submission whose grading has started this many times without a verdict (workers killed under
# it, hard time limits, re-deliveries) ends INTERNAL_ERROR instead of being tried forever.
MAX_TRIES = 6
# Each pool process keeps the inputs and expected outputs of the test cases it has judged, per
# package version (grader/core/input_cache.py: they are seeded, so every submission gets the same).
# WARPDRILL_INPUT_CACHE_MB=0 turns it off.
INPUT_CACHE_MB = int(os.environ.get("WARPDRILL_INPUT_CACHE_MB", "128"))
INPUTS = InputCache(INPUT_CACHE_MB << 20)
# Live progress is written when the stage changes (compiling -> running -> checking) and, within
# a stage, at most this often: a grading of 0.1 s shows "compiling" then its verdict, a long one
# still shows "test k of n" advancing. Each write is a database UPDATE and a status push.
PROGRESS_EVERY_S = float(os.environ.get("WARPDRILL_PROGRESS_EVERY_S", "0.25"))


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, max_retries=MAX_RETRIES)
def grade_submission(self, submission_id: int) -> str | None:
    """Grade one submission: claim it, run the judge, store the verdict (see _grade), with a heartbeat
    while it grades so that a dead worker's submission is re-queued within seconds
    (sweeps.requeue_dead_graders), not after the stuck sweeper's minutes."""
    return _grade_or_retry_later(self, submission_id)


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, max_retries=MAX_RETRIES)
def grade_exam_submission(self, submission_id: int) -> str | None:
    """Grade one exam submission: the same as grade_submission, on the `exam` queue (grader.routing),
    with a heartbeat while it grades so that a dead worker's submission is re-queued within seconds
    (sweeps.requeue_stale_exam_submissions)."""
    return _grade_or_retry_later(self, submission_id)


def _grade_or_retry_later(self, submission_id: int) -> str | None:
    """_grade with its heartbeat, and the message sent again with backoff (1, 2, 4 ... s, at most a
    minute) when the database refuses or drops the connection (full at max_connections, restarting):
    nothing could be stored then, and without a retry the submission waited QUEUED for the stuck
    sweep, WARPDRILL_STUCK_AFTER_S later (measured: 635 s, docs/scaling.md "What fails first")."""
    try:
        with _stages(submission_id), _heartbeat(submission_id):
            return _grade(self, submission_id)
    except (OperationalError, InterfaceError) as exc:
        from django.db import connection

        connection.close()  # a broken connection must not be reused by the retry
        log.warning("submission %s: the database refused or dropped the connection (%s); retrying", submission_id, exc)
        raise self.retry(exc=exc, countdown=min(2 ** self.request.retries, 60))


@contextmanager
def _heartbeat(submission_id: int):
    """Beat the submission's heart every EXAM_HEARTBEAT_EVERY_S from a thread while the block runs."""
    stop = threading.Event()

    def beat():
        from django.db import connection

        try:
            while not stop.wait(sweeps.EXAM_HEARTBEAT_EVERY_S):
                grading.beat_heart(submission_id)
        except Exception:  # a missed beat only makes the sweep re-queue a live one; grading is idempotent
            log.exception("submission %s: heartbeat failed", submission_id)
        finally:
            connection.close()

    with _timed("heartbeat"):
        grading.beat_heart(submission_id)
    thread = threading.Thread(target=beat, name=f"heartbeat-{submission_id}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(5)


SETUP_WAIT_S = 5  # while the runtime builds, how often a waiting submission's message comes back


def _setup_pending(task, backend) -> bool:
    """Whether `backend` is the emulator and another process is building a runtime variant grading uses
    (all but the write map's, which only a staff request needs). Never in eager mode (tests, scripts):
    there the re-sent message would run at once, in this call."""
    if task.request.is_eager or getattr(backend, "name", "") != "emulator":
        return False
    from grader.core.emulator import toolchain

    graded = [v for v in toolchain.VARIANTS if v != "writemap"]
    try:
        return toolchain.runtime_building(backend.cache_dir, graded, backend.cxx)
    except Exception:  # the check only spares a wait: grading goes on as before
        log.exception("could not tell whether the emulator runtime is building")
        return False


def _same_queue(task) -> dict:
    """apply_async's `queue` option that sends a task's message back to the queue it came from (a
    validation run's source sent to `cpu` on a site whose grading goes to `gpu` must stay on `cpu`);
    {} where the request does not say (eager runs)."""
    info = getattr(task.request, "delivery_info", None) or {}
    queue = info.get("routing_key")
    return {"queue": queue} if queue else {}


def _grade(self, submission_id: int) -> str | None:
    """Grade one submission: claim it, run the judge, store the verdict.

    Idempotent: a re-delivered message for a graded submission does nothing, and so does a
    duplicate that arrives while another live process grades it (the grading lock, see
    grading.grading_lock). A platform fault (PlatformError, or any unexpected exception: a broken
    harness, the soft time limit) marks it 'not graded, retrying' and retries with backoff; after
    the last retry, or after MAX_TRIES starts, it is stored as INTERNAL_ERROR, which never counts
    as an attempt.
    """
    try:
        backend = get_backend()
    except Exception as exc:  # a worker that cannot load its backend must not leave the row QUEUED
        log.exception("submission %s: the judge backend cannot be loaded", submission_id)
        return _retry_or_give_up(self, submission_id, "the judge backend cannot be loaded on this worker", exc)
    if _setup_pending(self, backend):
        # The worker is still building the emulator runtime (a first `make dev`): grading now would wait
        # for its lock inside the task's time limit. The submission stays queued, its queued_at fresh
        # (the sweepers see a waiting row, not a stale one), and the message comes back shortly.
        grading.still_waiting_for_setup(submission_id)
        log.info("submission %s: the judge is still setting up (the emulator runtime is building); "
                 "grading it in %s s", submission_id, SETUP_WAIT_S)
        self.apply_async((submission_id,), countdown=SETUP_WAIT_S, **_same_queue(self), **retries.same_priority(self))
        return None
    claiming = time.monotonic()
    with grading.grading_lock(submission_id) as lock_held:
        submission = grading.start_grading(submission_id, backend.name, lock_held=lock_held)
        clock = _clock_now()
        if clock is not None:
            clock.add("claim", time.monotonic() - claiming)
        if submission is None:
            return None
        if submission.tries > MAX_TRIES:
            grading.give_up(submission_id, f"grading was interrupted {submission.tries - 1} times")
            return "INTERNAL_ERROR"
        try:
            result = _judge(submission, backend)
            # Storing is part of grading: a result the database refuses (a value it cannot hold) is a
            # fault to retry and then give up on, not an escape that leaves the row RUNNING.
            with _timed("save"):
                grading.finish_grading(submission_id, result)
        except HarnessError as exc:
            # A course's harness.py failed: deterministic, so not retried. Its traceback is for the
            # problem's authors: it is kept only on their validation runs, never on a student's page.
            log.warning("submission %s: the problem's harness failed: %s", submission_id, exc.author_detail)
            if submission.purpose == Purpose.VALIDATION:
                grading.harness_failed(submission_id, exc.author_detail)
            else:
                grading.give_up(submission_id, str(exc))
            return "INTERNAL_ERROR"
        except Exception as exc:
            if isinstance(exc, PlatformError):
                reason = str(exc)  # user-safe by the error hierarchy's contract
            else:
                # A bug of the platform, not of the student: its text may hold paths or hidden data.
                log.exception("submission %s: unexpected error while grading", submission_id)
                reason = "an internal error of the grader"
            if _give_up_or_mark_retrying(self, submission_id, reason):
                return "INTERNAL_ERROR"
            fault = exc
        else:
            return result.verdict.value
    # The retry is sent only now that the lock is released, so that its message finds it free.
    retries.retry_with_backoff(self, fault)


def course_target_cc(submission) -> str:
    """The compute capability of the course a submission belongs to ("" when none): its exam's course,
    else its problem's course, else the course a bank problem was opened for (`Submission.course`:
    a problem set's item). The judge checks the launch and reports occupancy for that GPU, so an
    exam of a course about an RTX 3090 (8.6) shows 8.6's blocks per SM, as its questions do. A copy
    graded again for an exam's regrade takes its exam's course, as its original did; an author's
    rejudge copy carries its original's `course`."""
    try:
        if submission.exam_item_id:
            return submission.exam_item.attempt.exam.course.target_cc or ""
        if submission.purpose == Purpose.REJUDGE:
            # A copy graded again for an exam's regrade is judged for the GPU its original was judged for.
            record = getattr(submission, "exam_rejudge", None)  # exams.models.KernelRejudge
            if record is not None:
                return record.regrade.exam.course.target_cc or ""
        course = submission.problem_version.problem.course or submission.course
    except Exception:  # a row without its relations (tests, a deleted exam): the site's default
        return ""
    return (course.target_cc if course is not None else "") or ""


def _judge(submission, backend):
    """Run the judge on a claimed submission, reporting progress through the write path."""
    with _timed("package"):
        package = submission.problem_version.package()
    if submission.problem_version.problem.course_id is not None:
        # Written by a course's staff in the browser: its harness.py runs in the sandbox.
        package = dataclasses.replace(package, harness_loader=sandboxed_loader)
    if INPUT_CACHE_MB > 0:
        package = dataclasses.replace(package, harness_loader=INPUTS.loader(package.harness_loader))
    choice = LaunchChoice(submission.launch_block, submission.launch_grid, submission.launch_shared_bytes)
    queued = ((submission.started_at - submission.queued_at).total_seconds()
              if submission.queued_at and submission.started_at else None)
    timer = metrics.StageTimer(backend.name, queued_seconds=queued)  # grading latency per stage, for /metrics

    # start_grading stored COMPILING: the judge's first "compiling" report changes nothing shown.
    shown = {"stage": "compiling", "at": time.monotonic()}
    clock, cache_before = _clock_now(), (INPUTS.hits, INPUTS.misses)

    def progress(stage: str, done: int, total: int) -> None:
        timer.progress(stage)
        now = time.monotonic()
        if stage == shown["stage"] and now - shown["at"] < PROGRESS_EVERY_S:
            return
        shown.update(stage=stage, at=now)
        with _timed("progress"):
            grading.record_progress(submission.pk, stage, done, total)
        if clock is not None:
            clock.add("progress_writes", 1)

    try:
        return judge(
            package,
            submission.source,
            _TimedBackend(backend),
            launch_choice=choice,
            seed_secret=settings.WARPDRILL_SEED_SECRET,
            progress=progress,
            target_cc=course_target_cc(submission) or settings.WARPDRILL_TARGET_CC,
            variant=submission.variant or None,
            max_source_bytes=settings.WARPDRILL_MAX_SOURCE_BYTES,
            explainer=hang_explainer(backend),
            # An exam's grading capacity is sized for its rush (README): its write maps are drawn on
            # request only, never recorded while the exam queue is busy.
            # A rejudge's copy is a preview of a verdict: no write map either.
            writemaps=submission.exam_item_id is None and submission.purpose != Purpose.REJUDGE,
            budget_factor=settings.WARPDRILL_RUN_BUDGET_FACTOR or None,
        )
    finally:
        timer.finish()
        if clock is not None:  # generate() calls answered from the cache, and computed
            clock.add("input_hits", INPUTS.hits - cache_before[0])
            clock.add("input_misses", INPUTS.misses - cache_before[1])


def _retry_or_give_up(task, submission_id: int, reason: str, exc: Exception) -> str:
    """Show 'not graded, retrying' and retry with backoff; after the last retry, INTERNAL_ERROR."""
    if _give_up_or_mark_retrying(task, submission_id, reason):
        return "INTERNAL_ERROR"
    retries.retry_with_backoff(task, exc)


def _give_up_or_mark_retrying(task, submission_id: int, reason: str) -> bool:
    """After the last retry store INTERNAL_ERROR and return True; else show 'not graded, retrying'."""
    metrics.PLATFORM_FAULTS.labels(settings.WARPDRILL_JUDGE["BACKEND"]).inc()
    return retries.give_up_or_mark_retrying(task, MAX_RETRIES, lambda: grading.give_up(submission_id, reason),
                                            lambda: grading.mark_retrying(submission_id, reason))


@shared_task
def sweep_stale_exam_submissions() -> int:
    """Re-queue exam submissions whose grader died (a stale heartbeat) or whose message waits too long."""
    return len(sweeps.requeue_stale_exam_submissions()) + len(sweeps.requeue_dead_graders())


@shared_task
def sweep_dead_graders() -> int:
    """Re-queue non-exam submissions whose grader died (a stale heartbeat): seconds, not minutes."""
    return len(sweeps.requeue_dead_graders())


@shared_task
def sweep_stuck_submissions() -> int:
    """Re-queue submissions stuck past WARPDRILL_STUCK_AFTER_S (lost messages, dead workers)."""
    return retries.report_requeued(log, "stuck submission(s)", sweeps.requeue_stuck())


@worker_ready.connect
def prepare_backend(sender=None, **kwargs) -> threading.Thread | None:
    """Warm the judge backend when a worker starts, so the first submission does not wait for it.

    A backend whose warm state lives in the grading process (the gpu backend's children) is
    warmed here only when this process grades (solo and thread pools); a prefork worker warms it
    in each pool process instead (prepare_backend_in_pool_process).

    A backend whose warm state is on disk (the emulator's runtime, shared by every process) is
    warmed by a prefork worker's parent in a thread, which it returns: the pool processes take
    submissions meanwhile, and each builds or waits for (under the runtime's lock) only the variant
    its grading needs, so a fresh `make dev` grades its first submission after the plain variant's
    build, not after all four (≈ 40 s of two cores).
    """
    try:
        pool = getattr(sender, "pool", None)
        prefork = pool is not None and "prefork" in type(pool).__module__
        if backend_class().warm_per_process and prefork:
            return None
        if prefork:
            thread = threading.Thread(target=_prepare_logged, name="prepare-backend", daemon=True)
            thread.start()
            return thread
        get_backend().prepare()
    except Exception:  # the task will report the platform fault with its retry; log it here too
        log.exception("the judge backend could not be prepared")
    return None


def _prepare_logged() -> None:
    try:
        get_backend().prepare()
    except BuildStoppedError:
        log.info("the judge backend's preparation was stopped: the worker is shutting down")
    except Exception:
        log.exception("the judge backend could not be prepared")


@worker_shutting_down.connect
def stop_preparing(**kwargs) -> None:
    """A worker asked to stop (Ctrl+C in `make dev`, a deploy) stops the emulator runtime build its
    preparation thread may be running: the build's compilers would keep the shutdown waiting past
    honcho's 5 s, and a build cut off by the stop is not a broken one (it is built again next start)."""
    stop_builds()


@worker_process_init.connect
def prepare_backend_in_pool_process(**kwargs) -> None:
    """Warm a per-process backend (see Backend.warm_per_process) in a new prefork pool process; any
    other starts its process's own warm state there (Backend.prepare_process)."""
    try:
        if backend_class().warm_per_process:
            get_backend().prepare()
        else:
            get_backend().prepare_process()
    except Exception:
        log.exception("the judge backend could not be prepared in this pool process")


@shared_task(acks_late=True, reject_on_worker_lost=True)
def record_writemap(submission_id: int) -> int:
    """Record the write map of a graded submission on request (writemaps.request_writemap): the emulator's
    write-map run of its smallest sample test, stored with writemaps.store_writemaps. Safe to run twice
    (the second stores the same picture). Returns the number of maps stored. A platform fault stores
    none, so the page offers the button again."""
    from grader.core.writemap_request import record_writemap as record
    from grader.models import Submission

    submission = Submission.objects.select_related("problem_version__problem").filter(pk=submission_id).first()
    if submission is None:
        return 0
    backend = get_backend()
    if not backend.supports_writemap:  # a GPU worker: the emulator records it
        backend = get_backend("emulator")
    package = submission.problem_version.package()
    if submission.problem_version.problem.course_id is not None:
        package = dataclasses.replace(package, harness_loader=sandboxed_loader)
    choice = LaunchChoice(submission.launch_block, submission.launch_grid, submission.launch_shared_bytes)
    try:
        maps = record(package, submission.source, backend, launch_choice=choice,
                      seed_secret=settings.WARPDRILL_SEED_SECRET, variant=submission.variant or None)
    except (PlatformError, HarnessError) as exc:
        log.warning("submission %s: write map not recorded: %s", submission_id, exc)
        writemaps.store_writemaps(submission_id, [])
        return 0
    writemaps.store_writemaps(submission_id, maps)
    return len(maps)
