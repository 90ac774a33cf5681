"""The one write path of submissions: create, start, progress, finish, retry, rejudge.

Views, the API, management commands and tasks all call these. Each change locks the row,
saves with `update_fields`, and enqueues only after the transaction commits.
"""
from __future__ import annotations

import logging
import math
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import DatabaseError, connection, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from grader.core.errors import BadRequestError, LaunchConfigError
from grader.core.escape import escape_untrusted
from grader.core import messages as M
from grader.core.launch import LaunchExpressionError, build_launch, launch_comment_line, parse_launch_comment
from grader.core.judge import LaunchChoice, launch_expressions
from grader.core.static_checks import static_check
from grader.core.results import JudgeResult
from grader.core.verdicts import NOT_RUN, Verdict

from . import live
from .models import Purpose, Status, Submission, SubmissionRefusal

log = logging.getLogger(__name__)


class RateLimitError(BadRequestError):
    """The user submitted too often; `retry_after` is the whole seconds (at least 1) until the
    next submission is allowed."""

    http_status = 429

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after

    def headers(self) -> dict[str, str]:
        return {"Retry-After": str(self.retry_after)}


class FixedLaunchError(LaunchConfigError):
    """A launch was chosen for a problem whose launch is fixed.

    `fields` names the chosen fields as the API spells them ("launch.block", ...), in the
    order block, grid, shared_bytes; or is ("source",) when a `// launch:` line chose it.
    """

    def __init__(self, message: str, fields: tuple[str, ...]):
        super().__init__(message)
        self.fields = fields

    def data(self) -> dict:
        """`fields` as a 400 for a bad body names them ({"launch": {"block": [message]}}, or
        {"source": [message]} for a `// launch:` line in the source)."""
        launch = {name.removeprefix("launch."): [str(self)] for name in self.fields if name.startswith("launch.")}
        return {"fields": {"launch": launch} if launch else {name: [str(self)] for name in self.fields}}


def _fixed_launch_text(package) -> str:
    """The fixed launch as a kernel call writes it between <<< and >>>: "grid, block[, shared]"."""
    t = package.launch
    return f"{t.grid}, {t.block}" + (f", {t.shared_bytes}" if str(t.shared_bytes).strip() not in ("", "0") else "")


def refuse_fixed_launch(package, choice: LaunchChoice | None, source: str = "") -> None:
    """Raise FixedLaunchError when the problem's launch is fixed and the student chose one anyway:
    in `choice` (any field set, after stripping), or else in a `// launch:` line of `source` that
    sets a field. Such a choice used to be ignored by the grader, so the submission was graded with
    a launch other than the one the student asked for, without a word. The error's `fields` is
    ("launch.block", ...) for a choice, or ("source",) for a launch line."""
    if package.launch.student_chooses:
        return
    chosen = tuple(f"launch.{name}" for name in ("block", "grid", "shared_bytes")
                   if choice is not None and str(getattr(choice, name) or "").strip())
    fixed = _fixed_launch_text(package)
    if not chosen:
        if any(parse_launch_comment(source).values()):
            message = _("line %(line)d: this problem's launch is fixed (<<<%(launch)s>>>), so a // launch: line "
                        "cannot choose it; remove the line.") % {"line": launch_comment_line(source), "launch": fixed}
            raise FixedLaunchError(message, ("source",))
        return
    message = ngettext(
        "%(fields)s: this problem's launch is fixed (<<<%(launch)s>>>), so it cannot be chosen; submit without it.",
        "%(fields)s: this problem's launch is fixed (<<<%(launch)s>>>), so they cannot be chosen; submit without them.",
        len(chosen),
    ) % {"fields": ", ".join(chosen), "launch": fixed}
    raise FixedLaunchError(message, chosen)


def validate_submission(problem, source: str, choice: LaunchChoice | None, version=None) -> None:
    """Refuse what cannot be graded, before anything is saved. Raises BadRequestError: among
    others FixedLaunchError for a launch chosen where the problem's is fixed. `version` (default:
    the problem's current one) is the package version it would be graded on."""
    version = version or problem.current_version
    if version is None:
        raise BadRequestError(_("This problem has no published version yet."))
    if len(source.encode("utf-8", "replace")) > settings.WARPDRILL_MAX_SOURCE_BYTES:
        raise BadRequestError(
            _("The source is larger than %(kib)d KiB; remove unused code.") % {"kib": settings.WARPDRILL_MAX_SOURCE_BYTES // 1024}
        )
    # Every later step reads the source line by line (the launch line, the static checks, the page's
    # listing): a line limit bounds them all, whatever the bytes are spent on.
    lines = source.count("\n") + 1
    if lines > settings.WARPDRILL_MAX_SOURCE_LINES:
        raise BadRequestError(
            _("The source has %(lines)d lines, more than %(max)d; remove unused code.") % {
                "lines": lines, "max": settings.WARPDRILL_MAX_SOURCE_LINES})
    refusal = static_check(source, settings.WARPDRILL_MAX_SOURCE_BYTES)
    if refusal:
        raise BadRequestError(refusal)
    package = version.package()
    refuse_fixed_launch(package, choice, source)
    if package.launch.student_chooses:
        exprs = launch_expressions(package, source, choice)
        for test in package.tests:
            try:
                build_launch(*exprs, test.params, **package.launch.options())
            except LaunchConfigError as exc:
                # An expression's error is a message template: the reader gets it in their language.
                reason = (exc.message.render(_)
                          if isinstance(exc, LaunchExpressionError) else str(exc))
                raise LaunchConfigError(_("Launch configuration: %(error)s") % {"error": reason}) from None


# Other models whose rows are runs on the grading queue and count toward the submission rate limit
# (each with `user` and `created_at`); apps add theirs in AppConfig.ready with count_toward_rate_limit.
RATE_LIMITED_MODELS: list = []


def count_toward_rate_limit(model) -> None:
    """Make rows of `model` (fields `user`, `created_at`) count toward check_rate_limit, as the
    playground's runs do: the queue is one, so is the limit."""
    if model not in RATE_LIMITED_MODELS:
        RATE_LIMITED_MODELS.append(model)


def check_rate_limit(user, now=None) -> None:
    """At most WARPDRILL_SUBMISSIONS_PER_MINUTE submissions per user in any 60 seconds.

    Raises RateLimitError, whose `retry_after` counts whole seconds from `now` (default: the
    current time) until the oldest of the user's last `limit` submissions has left the window.
    One query of at most `limit` timestamps.
    """
    limit = settings.WARPDRILL_SUBMISSIONS_PER_MINUTE
    if not limit:
        return
    now = now or timezone.now()
    window = timedelta(minutes=1)
    # Refused submissions count too (see SubmissionRefusal), and every other kind of run registered
    # with count_toward_rate_limit (playground runs): the newest `limit` of all kinds.
    recent = sorted([created for model in (Submission, SubmissionRefusal, *RATE_LIMITED_MODELS)
                     for created in model.objects.filter(user=user, created_at__gte=now - window)
                     .order_by("-created_at").values_list("created_at", flat=True)[:limit]], reverse=True)[:limit]
    if len(recent) < limit:
        return
    # The window counts submissions at or after now - 60 s, so the limit-th newest stops counting
    # only once it is strictly older than that: the first whole second past that moment.
    retry_after = max(1, math.floor((recent[-1] + window - now).total_seconds()) + 1)
    per_minute = ngettext("You can submit %(n)d time a minute.", "You can submit %(n)d times a minute.", limit) % {
        "n": limit}
    again = ngettext("Try again in %(seconds)d second.", "Try again in %(seconds)d seconds.", retry_after) % {
        "seconds": retry_after}
    raise RateLimitError(f"{per_minute} {again}", retry_after)


def create_submission(user, problem, source: str, choice: LaunchChoice | None = None,
                      variant: dict | None = None, *, version=None, exam_item=None) -> Submission:
    """Save a QUEUED submission for the problem's current version (or `version`, which an exam item
    pins) and enqueue it after commit; with `exam_item` it answers that exam item and is graded on
    the `exam` queue.

    `variant` is the task the student was given by a package with variant parameters (an exam
    attempt's stored one); None means the user's practice variant (problems.services.practice_variant).
    Raises BadRequestError (source, launch) or RateLimitError; nothing is saved then.
    """
    version = version or problem.current_version
    check_rate_limit(user)
    try:
        validate_submission(problem, source, choice, version)
    except BadRequestError:
        record_refusal(user)
        raise
    choice = choice or LaunchChoice()
    with transaction.atomic():
        # Lock the user's row and count again: concurrent requests of one user are counted one
        # after another, so parallel submits cannot slip past the limit (PostgreSQL; SQLite
        # serialises writers anyway).
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        check_rate_limit(user)
        submission = Submission.objects.create(
            user=user,
            problem_version=version,
            exam_item=exam_item,
            source=source,
            launch_block=choice.block,
            launch_grid=choice.grid,
            launch_shared_bytes=choice.shared_bytes,
            variant=_variant_for(user, version, variant),
            status=Status.QUEUED,
            progress_total=len(version.package().tests),
            queued_at=timezone.now(),
        )
        enqueue(submission)
    return submission


def record_refusal(user, now=None) -> None:
    """Count a refused submission of `user` toward the rate limit; forget refusals older than its window."""
    now = now or timezone.now()
    SubmissionRefusal.objects.create(user=user)
    SubmissionRefusal.objects.filter(created_at__lt=now - timedelta(minutes=5)).delete()


# Celery message priority of validation runs (and other staff work): below students' submissions.
# Redis honours it with the `priority_steps`/`queue_order_strategy` transport options; brokers
# without priorities ignore it, and the runs then simply queue in order.
LOW_PRIORITY = 9


def create_rejudge_copy(user, version, original: Submission) -> Submission:
    """Save a QUEUED copy of `original` (its source, launch choice and variant) owned by `user` (the
    staff member previewing a rejudge), for `version`, with purpose REJUDGE, and enqueue it at
    LOW_PRIORITY. The original is not touched: apply_rejudge copies the copy's verdict onto it."""
    package = version.package()
    with transaction.atomic():
        submission = Submission.objects.create(
            user=user, problem_version=version, source=original.source, purpose=Purpose.REJUDGE,
            launch_block=original.launch_block, launch_grid=original.launch_grid,
            launch_shared_bytes=original.launch_shared_bytes,
            variant=original.variant, status=Status.QUEUED, progress_total=len(package.tests), queued_at=timezone.now(),
        )
        enqueue(submission, priority=LOW_PRIORITY)
    return submission


def apply_rejudge(original_id: int, copy: Submission) -> bool:
    """Give the graded submission `original_id` the verdict, result and version of its graded rejudge
    `copy`. Returns False (nothing changed) when either is not graded. The caller keeps the old
    verdict and result (authoring.models.RejudgeItem)."""
    if copy.status != Status.GRADED:
        return False
    with transaction.atomic():
        original = Submission.objects.select_for_update().filter(pk=original_id).first()
        if original is None or original.status != Status.GRADED:
            return False
        original.verdict, original.result = copy.verdict, copy.result
        original.problem_version_id = copy.problem_version_id
        original.progress_done, original.progress_total = copy.progress_done, copy.progress_total
        original.backend = copy.backend
        original.save(update_fields=["verdict", "result", "problem_version", "progress_done", "progress_total",
                                     "backend"])
    log.info("submission %s rejudged: now %s (from rejudge copy %s)", original_id, copy.verdict, copy.pk)
    return True


def create_validation_submission(user, version, source: str, variant: dict | None = None) -> Submission:
    """Save a QUEUED validation submission of `source` (an author's solution or wrong solution) for
    exactly `version` (not necessarily the problem's current one) and enqueue it at LOW_PRIORITY.

    Validation runs are the platform checking a package, not attempts: no rate limit, and
    `purpose` VALIDATION keeps them out of every statistic. Precondition: the caller may author
    the problem (authoring.actions checks). Raises BadRequestError for a source the static check refuses.
    `variant` is the package variant it is judged as (None: the default variant).
    """
    if len(source.encode("utf-8", "replace")) > settings.WARPDRILL_MAX_SOURCE_BYTES:
        raise BadRequestError(_("The source is larger than %(kib)d KiB; remove unused code.") % {
            "kib": settings.WARPDRILL_MAX_SOURCE_BYTES // 1024})
    package = version.package()
    with transaction.atomic():
        submission = Submission.objects.create(
            user=user, problem_version=version, source=source, purpose=Purpose.VALIDATION,
            variant=package.with_variant(variant or None).variant, status=Status.QUEUED,
            progress_total=len(package.tests), queued_at=timezone.now(),
        )
        enqueue(submission, priority=LOW_PRIORITY)
    return submission


def _variant_for(user, version, variant: dict | None) -> dict:
    """The variant stored with a new submission: `variant` checked against the package version it is
    graded on, or the user's practice one."""
    from problems.services import practice_variant, version_package

    package = version_package(version)
    if variant is None:
        return practice_variant(user, package)
    return package.with_variant(variant or None).variant  # raises PackageError for an undeclared one


def enqueue(submission: Submission, priority: int | None = None) -> None:
    """Send grade_submission(id) to the queue once the current transaction commits.

    The row is committed first, so a broker that is down loses nothing: the failure is logged,
    the caller still gets its submission, and the sweeper (requeue_stuck) sends it later.
    `priority` is Celery's message priority (None: the default; LOW_PRIORITY for staff work).
    """
    exam = submission.exam_item_id is not None
    transaction.on_commit(lambda: _send(submission.pk, priority, exam))


def _send(submission_id: int, priority: int | None = None, exam: bool = False) -> None:
    from .tasks import grade_exam_submission, grade_submission

    # The exam task runs the same grading; routing.QUEUES sends it to the `exam` queue.
    task = grade_exam_submission if exam else grade_submission
    try:
        if priority is None:
            task.delay(submission_id)
        else:
            task.apply_async((submission_id,), priority=priority)
    except Exception as exc:  # kombu/redis errors vary by transport; all mean "not sent now"
        log.error("submission %s: saved but not queued (%s: %s); the sweeper will queue it",
                  submission_id, type(exc).__name__, exc)


# The grading lock: a PostgreSQL session-level advisory lock per submission, held by the process
# that grades it from the claim to the end of the run. PostgreSQL ends a session whose process died
# (its socket closes) and frees its locks with it, so the lock says "a live process is grading this"
# at once, which no status or timestamp can: a message put back at once after its pool process was
# killed, and a duplicate arriving while the grader is alive, find the same row in RUNNING.
# Two-key form: (GRADING_LOCK_SPACE, submission id) keeps these apart from any other advisory lock.
# https://www.postgresql.org/docs/current/explicit-locking.html#ADVISORY-LOCKS
GRADING_LOCK_SPACE = 0x5744  # "WD"
# How long a message waits for the lock before it counts the holder as live: PostgreSQL needs a
# moment to notice that a killed process's socket closed, and a re-delivery can be that quick.
GRADING_LOCK_WAIT_S = 2.0


def _lock_key(submission_id: int) -> tuple[int, int]:
    # Both keys are int4; an id past 2**31 - 1 shares a lock with a far smaller one, which only
    # makes one of two unrelated messages wait for the sweeper (the steal rule in start_grading).
    return GRADING_LOCK_SPACE, submission_id % 2**31


@contextmanager
def grading_lock(submission_id: int) -> Iterator[bool]:
    """Hold the submission's grading lock for the block; yields whether it was got within
    GRADING_LOCK_WAIT_S.

    Call outside any transaction. The lock belongs to this thread's database session: it is freed
    when the block ends, or by PostgreSQL when the process dies. Databases without advisory locks
    (SQLite, for development) always yield True: there, as before, only a stored verdict stops a
    duplicate from grading.
    """
    if connection.vendor != "postgresql":
        yield True
        return
    key = _lock_key(submission_id)
    deadline = time.monotonic() + GRADING_LOCK_WAIT_S
    with connection.cursor() as cursor:
        while True:
            cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", key)
            held = cursor.fetchone()[0]
            if held or time.monotonic() >= deadline:
                break
            time.sleep(0.1)
    try:
        yield held
    finally:
        if held:
            try:
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_advisory_unlock(%s, %s)", key)
            except DatabaseError:
                # The session is gone (a database restart), and its locks went with it. Close the
                # broken connection so that the next task opens a fresh one.
                log.exception("submission %s: the grading lock could not be released", submission_id)
                connection.close()


def start_grading(submission_id: int, backend: str, lock_held: bool = True) -> Submission | None:
    """Claim a submission for grading: COMPILING, one more try, a fresh started_at.

    Call inside `grading_lock(submission_id)`, passing what it yielded as `lock_held`. None when
    the submission is gone or already graded (an idempotent re-delivery), or when another live
    process holds the lock (a duplicate message while it is graded): the caller must then not grade.
    A holder whose grading started more than WARPDRILL_STUCK_AFTER_S ago is hung or on a machine
    that vanished without closing its connection (the sweeper's notion of stuck: no healthy
    grading runs that long, see CELERY_TASK_TIME_LIMIT), so it is graded without the lock then.
    """
    deadline = timezone.now() - timedelta(seconds=settings.WARPDRILL_STUCK_AFTER_S)
    with transaction.atomic():
        submission = Submission.objects.select_for_update().filter(pk=submission_id).first()
        if submission is None or submission.status == Status.GRADED:
            log.info("submission %s: already graded or gone; duplicate message ignored", submission_id)
            return None
        if not lock_held:
            if submission.started_at is None or submission.started_at >= deadline:
                log.info("submission %s: being graded by another worker; duplicate message ignored", submission_id)
                return None
            log.warning("submission %s: its grader has held it since %s; grading it again", submission_id,
                        submission.started_at.isoformat())
        submission.status = Status.COMPILING
        submission.backend = backend
        submission.tries += 1
        submission.progress_done = 0
        submission.started_at = timezone.now()
        submission.save(update_fields=["status", "backend", "tries", "progress_done", "started_at"])
    return submission


def record_progress(submission_id: int, stage: str, done: int, total: int) -> None:
    """Show live progress: COMPILING, RUNNING test k of n, then CHECKING. Never touches a graded row."""
    status = {"compiling": Status.COMPILING, "checking": Status.CHECKING}.get(stage, Status.RUNNING)
    Submission.objects.filter(pk=submission_id).exclude(status=Status.GRADED).update(
        status=status, progress_done=done, progress_total=total
    )
    live.changed(submission_id)


def finish_grading(submission_id: int, result: JudgeResult) -> bool:
    """Store the verdict and result. Exactly one final verdict: returns False if it was already graded."""
    with transaction.atomic():
        submission = Submission.objects.select_for_update().filter(pk=submission_id).first()
        if submission is None or submission.status == Status.GRADED:
            log.info("submission %s: already graded or gone; this run's %s is dropped", submission_id,
                     result.verdict.value)
            return False
        submission.status = Status.GRADED
        submission.verdict = result.verdict.value
        submission.result = result.to_dict()
        submission.progress_done = sum(1 for test in result.tests if test.verdict is not NOT_RUN)  # tests that ran
        submission.finished_at = timezone.now()
        submission.save(update_fields=["status", "verdict", "result", "progress_done", "finished_at"])
    # One line per final verdict: fault tests count these to prove a submission is graded once.
    log.info("submission %s graded: %s (try %s)", submission_id, result.verdict.value, submission.tries)
    return True


def mark_retrying(submission_id: int, reason: str) -> None:
    """A platform fault: show 'not graded, retrying'; the task is retried by Celery."""
    log.warning("submission %s: platform fault, retrying: %s", submission_id, escape_untrusted(reason))
    Submission.objects.filter(pk=submission_id).exclude(status=Status.GRADED).update(
        status=Status.RETRYING, queued_at=timezone.now()
    )
    live.changed(submission_id)


def give_up(submission_id: int, reason: str) -> None:
    """After the last retry: INTERNAL_ERROR, which never counts as an attempt."""
    result = JudgeResult(verdict=Verdict.INTERNAL_ERROR, message=_("Not graded: %(reason)s. This does not count as an attempt; an instructor can rejudge it.") % {"reason": escape_untrusted(reason)})
    finish_grading(submission_id, result)


def rejudge(submission_ids) -> int:
    """Send graded submissions back to the queue to be graded again. Returns how many were queued.

    Each submission keeps its user, source, launch choice and problem version (it is judged against
    the version it was submitted to, not the problem's current one); its verdict, result, progress,
    backend and tries are cleared and it becomes QUEUED, then is enqueued after commit. Only GRADED
    submissions are rejudged: one that is QUEUED, RETRYING, COMPILING or RUNNING is skipped (it is
    on its way to a verdict already, and a second message would grade it twice at once), and so is
    an id that does not exist. Skipped = the number of distinct ids - the result.
    Each row is locked and checked in its own transaction, so a worker that finishes meanwhile is
    seen; call it outside a transaction or inside one that commits (the messages go on commit).
    """
    ids = list(dict.fromkeys(submission_ids))  # each once, in the given order
    queued = 0
    for pk in ids:
        with transaction.atomic():
            submission = Submission.objects.select_for_update().filter(pk=pk).first()
            if submission is None or submission.status != Status.GRADED:
                continue
            submission.status = Status.QUEUED
            submission.verdict = ""
            submission.result = None
            submission.progress_done = 0
            submission.backend = ""
            # A fresh budget of grading starts: rejudging one that ended INTERNAL_ERROR after
            # MAX_TRIES interrupted runs must not give up at once.
            submission.tries = 0
            submission.queued_at = timezone.now()
            submission.started_at = None
            submission.finished_at = None
            submission.save(update_fields=["status", "verdict", "result", "progress_done", "backend", "tries",
                                           "queued_at", "started_at", "finished_at"])
            enqueue(submission)
        queued += 1
    log.info("rejudge: %d of %d submissions queued", queued, len(ids))
    return queued


def requeue_stuck(now=None) -> list[int]:
    """Re-enqueue submissions stuck past WARPDRILL_STUCK_AFTER_S. Returns their ids.

    Stuck means: waiting (QUEUED/RETRYING) since before the deadline, or being graded
    (COMPILING/RUNNING) since before it (counted from started_at: a worker that took it late from
    a long queue is working on it now and must not get a twin). Each goes back to QUEUED with a
    fresh queued_at, so it is sent again at most once per deadline.
    """
    now = now or timezone.now()
    deadline = now - timedelta(seconds=settings.WARPDRILL_STUCK_AFTER_S)
    waiting = Q(status__in=[Status.QUEUED, Status.RETRYING], queued_at__lt=deadline)
    grading = Q(status__in=[Status.COMPILING, Status.RUNNING, Status.CHECKING], started_at__lt=deadline)
    rows = list(Submission.objects.filter(waiting | grading).values_list("pk", "exam_item_id")[:500])
    for pk, exam_item_id in rows:
        with transaction.atomic():
            # The same condition again, in the UPDATE itself: a worker may have taken it meanwhile.
            updated = Submission.objects.filter(waiting | grading, pk=pk).update(status=Status.QUEUED, queued_at=now)
            if updated:
                live.changed(pk)
                enqueue(Submission(pk=pk, exam_item_id=exam_item_id))
    return [pk for pk, _item in rows]


# A grader beats its heart every EXAM_HEARTBEAT_EVERY_S while it grades a submission, exam or not
# (grader.tasks); one whose heart has not beaten for EXAM_HEARTBEAT_STALE_S lost its worker. Exam
# submissions: Waiting
# ones (a message a dead worker had prefetched: Redis gives it back only after its visibility
# timeout) are sent again only when the exam queue has stalled: nothing started grading for
# EXAM_QUEUED_STALE_S. While the queue moves, a waiting submission is simply waiting, and sending it
# again would only add duplicates to a long queue. A duplicate message is harmless otherwise:
# grading is idempotent and the grading lock keeps a live grader's submission from a second grader.
EXAM_HEARTBEAT_EVERY_S = 2.0
EXAM_HEARTBEAT_STALE_S = 10.0
EXAM_QUEUED_STALE_S = 60.0


def beat_heart(submission_id: int) -> None:
    """Record that a live grader is grading this submission now."""
    Submission.objects.filter(pk=submission_id).exclude(status=Status.GRADED).update(heartbeat_at=timezone.now())


SETUP_NOTE_S = 5  # how often a waiting task says so (grader.tasks.SETUP_WAIT_S)


def still_waiting_for_setup(submission_id: int) -> int:
    """A queued submission whose worker is still setting up (grader.tasks._setup_pending) is waiting, not
    stale: its queued_at is moved to now, so neither sweeper re-queues it. Returns the rows changed (0 or 1)."""
    live.mark_setting_up(3 * SETUP_NOTE_S)
    changed = Submission.objects.filter(pk=submission_id, status__in=[Status.QUEUED, Status.RETRYING]).update(
        queued_at=timezone.now())
    if changed:
        live.changed(submission_id)
    return changed


def requeue_dead_graders(now=None) -> list[int]:
    """Re-enqueue non-exam submissions whose grader died: COMPILING/RUNNING/CHECKING with a heartbeat
    older than EXAM_HEARTBEAT_STALE_S (every grading task beats, grader.tasks._heartbeat). Returns their ids.

    A worker SIGKILLed mid-grade (or whose filesystem-broker message is lost with it) leaves its row
    RUNNING; without this the student waits WARPDRILL_STUCK_AFTER_S (minutes) for requeue_stuck.
    Waiting rows are left to requeue_stuck: a long practice queue is not a fault. Runs every few
    seconds from both sweeps (the `cpu` and the `exam` queue), one indexed query when nothing is
    stale; the UPDATE repeats the condition, so two sweeps never send one row twice.
    """
    now = now or timezone.now()
    beat_deadline = now - timedelta(seconds=EXAM_HEARTBEAT_STALE_S)
    stale = (Q(exam_item__isnull=True, status__in=[Status.COMPILING, Status.RUNNING, Status.CHECKING])
             & (Q(heartbeat_at__lt=beat_deadline) | Q(heartbeat_at__isnull=True, started_at__lt=beat_deadline)))
    requeued = []
    for pk in list(Submission.objects.filter(stale).values_list("pk", flat=True)[:500]):
        with transaction.atomic():
            if Submission.objects.filter(stale, pk=pk).update(status=Status.QUEUED, queued_at=now, heartbeat_at=None):
                enqueue(Submission(pk=pk, exam_item_id=None))
                requeued.append(pk)
    if requeued:
        log.warning("re-queued %d submission(s) of dead graders: %s", len(requeued), requeued)
    return requeued


def requeue_stale_exam_submissions(now=None) -> list[int]:
    """Re-enqueue exam submissions whose grader died (COMPILING/RUNNING/CHECKING with a stale
    heartbeat), and waiting ones (QUEUED/RETRYING for EXAM_QUEUED_STALE_S) when the exam queue has
    stalled (nothing started grading for as long). Returns their ids.
    Runs every few seconds (settings.CELERY_BEAT_SCHEDULE); one indexed query when nothing is stale."""
    now = now or timezone.now()
    beat_deadline = now - timedelta(seconds=EXAM_HEARTBEAT_STALE_S)
    grading = (Q(status__in=[Status.COMPILING, Status.RUNNING, Status.CHECKING])
               & (Q(heartbeat_at__lt=beat_deadline) | Q(heartbeat_at__isnull=True, started_at__lt=beat_deadline)))
    quiet_since = now - timedelta(seconds=EXAM_QUEUED_STALE_S)
    stalled = not Submission.objects.filter(exam_item__isnull=False, started_at__gte=quiet_since).exists()
    waiting = Q(status__in=[Status.QUEUED, Status.RETRYING], queued_at__lt=quiet_since)
    stale = Q(exam_item__isnull=False) & ((grading | waiting) if stalled else grading)
    rows = list(Submission.objects.filter(stale).values_list("pk", "exam_item_id")[:500])
    requeued = []
    for pk, exam_item_id in rows:
        with transaction.atomic():
            if Submission.objects.filter(stale, pk=pk).update(status=Status.QUEUED, queued_at=now, heartbeat_at=None):
                live.changed(pk)
                enqueue(Submission(pk=pk, exam_item_id=exam_item_id))
                requeued.append(pk)
    if requeued:
        log.warning("re-queued %d stale exam submission(s): %s", len(requeued), requeued)
    return requeued


# ---- the write map on request (issue 19) ----

def writemap_requestable(submission: Submission) -> bool:
    """Whether a write map may be asked for: graded, compiled, and none recorded or asked for yet."""
    result = submission.result or {}
    return (submission.status == Status.GRADED and submission.verdict not in ("", Verdict.COMPILE_ERROR.value,
                                                                             Verdict.INTERNAL_ERROR.value)
            and not result.get("writemaps") and not result.get("writemap_requested"))


def request_writemap(submission_id: int) -> bool:
    """Ask the queue to record the write map of a graded submission's smallest sample test
    (grader.tasks.record_writemap, after commit). Returns False when it is not requestable
    (writemap_requestable) or was asked for already: asking twice enqueues once."""
    from grader.tasks import record_writemap

    with transaction.atomic():
        submission = Submission.objects.select_for_update().filter(pk=submission_id).first()
        if submission is None or not writemap_requestable(submission):
            return False
        submission.result = {**submission.result, "writemap_requested": True}
        submission.save(update_fields=["result"])
        transaction.on_commit(lambda: record_writemap.delay(submission_id))
    live.changed(submission_id)
    return True


def store_writemaps(submission_id: int, maps: list[dict]) -> None:
    """Keep the write maps a request recorded (grader.core.writemap.store.encode's dicts) in the result."""
    with transaction.atomic():
        submission = Submission.objects.select_for_update().filter(pk=submission_id).first()
        if submission is None or not submission.result:
            return
        result = {k: v for k, v in submission.result.items() if k != "writemap_requested"}
        if maps:
            result["writemaps"] = maps
        else:
            result["writemap_unavailable"] = True
        submission.result = result
        submission.save(update_fields=["result"])
    live.changed(submission_id)
