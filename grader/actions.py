"""The write path of submissions: refuse what cannot be graded, count the rate limit, create and enqueue.

Views, the API, management commands and tasks all call it. The rest of the path is cut by concern:
grading.py (the grading lock, claim, progress, finish, retry, give up), sweeps.py (re-enqueue the
stuck and the dead graders'), rejudging.py (rejudge, rejudge copies), writemaps.py (a write map on
request). Each change locks the row, saves with `update_fields`, and enqueues only after the
transaction commits.
"""
from __future__ import annotations

import logging
import math
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from grader.core.errors import BadRequestError, LaunchConfigError
from grader.core.launch import launch_comment_line, parse_launch_comment
from grader.core.judge import LaunchChoice, evaluate_launches, launch_expressions
from grader.core.messages import Message
from grader.core.static_checks import static_check

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


class InExamError(BadRequestError):
    """A practice submission of a problem that is a kernel question of an exam the user is taking now:
    refused (409), since its verdict would tell what the exam may keep back until its results; the
    question is answered on the exam's page (`exam_url`)."""

    http_status = 409

    def __init__(self, message: str, exam_url: str):
        super().__init__(message)
        self.exam_url = exam_url

    def data(self) -> dict:
        return {"exam_url": self.exam_url}


def check_not_in_exam(user, problem) -> None:
    """Raise InExamError if `problem` is a kernel question of an exam attempt `user` has open now."""
    from exams.services import exam_question_in_progress

    found = exam_question_in_progress(user, problem)
    if found is not None:
        raise InExamError(_("This problem is question %(n)d of your exam in progress (%(exam)s): answer it on "
                            "the exam's page. You can practise it here again once your attempt has ended.") % {
            "n": found.number, "exam": found.exam.localized_title}, found.url)


class ReservedProblemError(BadRequestError):
    """A practice submission of a course problem that an exam of its course reserves now
    (exams.reservations), by someone who is not the course's staff: answered as for a problem that
    does not exist (404), as its page is."""

    http_status = 404


def check_not_reserved(user, problem) -> None:
    """Raise ReservedProblemError if an exam keeps `problem` from `user` now."""
    from exams.services import closed_to

    if closed_to(user, problem):
        raise ReservedProblemError(_("Not found."))


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
        # Refused here (nothing saved, no attempt) only where the judge would refuse it for free: the
        # expressions fail on a sample test or on every test. Failing on hidden tests only is graded
        # (those tests' RUNTIME_ERROR): a free refusal would tell the hidden sizes apart (evaluate_launches).
        _launches, _unevaluated, refusal = evaluate_launches(package, launch_expressions(package, source, choice))
        if refusal is not None:
            error = refusal.params["error"]
            # An expression's error is a message template: the reader gets it in their language.
            reason = error.render(_) if isinstance(error, Message) else str(error)
            raise LaunchConfigError(_("Launch configuration: %(error)s") % {"error": reason})


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
                      variant: dict | None = None, *, version=None, exam_item=None, course=None) -> Submission:
    """Save a QUEUED submission for the problem's current version (or `version`, which an exam item
    pins) and enqueue it after commit; with `exam_item` it answers that exam item and is graded on
    the `exam` queue. `course` is the course a bank problem was opened for (a problem set's item;
    the caller has checked that `user` is a member): graded for its target GPU.

    `variant` is the task the student was given by a package with variant parameters (an exam
    attempt's stored one); None means the user's practice variant (problems.services.practice_variant).
    Raises BadRequestError (source, launch), ReservedProblemError (a course problem an exam keeps from
    `user` now), InExamError or RateLimitError; nothing is saved then.
    """
    version = version or problem.current_version
    if exam_item is None:
        check_not_reserved(user, problem)
        check_not_in_exam(user, problem)
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
            exam_id=exam_item.attempt.exam_id if exam_item is not None else None,
            course=course,
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
# Redis honours it: kombu's Redis transport keeps one list per priority step (its default steps 0, 3, 6,
# 9; lower is sooner) and reads them in order (tests/integration/test_queue_priority.py); brokers without
# priorities ignore it, and the runs then simply queue in order.
LOW_PRIORITY = 9
# The priority of a submission's grading message by its purpose, wherever it is sent from (the first
# send, a sweep's re-send, a retry): staff work stays behind students' practice and exams throughout.
PRIORITY_BY_PURPOSE = {Purpose.VALIDATION: LOW_PRIORITY, Purpose.REJUDGE: LOW_PRIORITY}


def create_validation_submission(user, version, source: str, variant: dict | None = None,
                                 queue: str = "") -> Submission:
    """Save a QUEUED validation submission of `source` (an author's solution or wrong solution) for
    exactly `version` (not necessarily the problem's current one) and enqueue it at LOW_PRIORITY.

    Validation runs are the platform checking a package, not attempts: no rate limit, and
    `purpose` VALIDATION keeps them out of every statistic. Precondition: the caller may author
    the problem (authoring.actions checks). Raises BadRequestError for a source the static check refuses.
    `variant` is the package variant it is judged as (None: the default variant). `queue` is the Celery
    queue that must grade it ("cpu": the emulator, "gpu"; "": grader.routing decides), kept with the row.
    """
    if len(source.encode("utf-8", "replace")) > settings.WARPDRILL_MAX_SOURCE_BYTES:
        raise BadRequestError(_("The source is larger than %(kib)d KiB; remove unused code.") % {
            "kib": settings.WARPDRILL_MAX_SOURCE_BYTES // 1024})
    package = version.package()
    with transaction.atomic():
        submission = Submission.objects.create(
            user=user, problem_version=version, source=source, purpose=Purpose.VALIDATION,
            variant=package.with_variant(variant or None).variant, status=Status.QUEUED,
            progress_total=len(package.tests), queued_at=timezone.now(), queue=queue,
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
    `priority` is Celery's message priority (None: PRIORITY_BY_PURPOSE's for its purpose, else the
    default). A submission with a `queue` of its own goes there; any other, where grader.routing sends it.
    """
    if priority is None:
        priority = PRIORITY_BY_PURPOSE.get(submission.purpose)
    exam = submission.exam_item_id is not None
    queue = submission.queue or ""
    transaction.on_commit(lambda: _send(submission.pk, priority, exam, queue))


def _send(submission_id: int, priority: int | None = None, exam: bool = False, queue: str = "") -> None:
    from .tasks import grade_exam_submission, grade_submission

    # The exam task runs the same grading; routing.QUEUES sends it to the `exam` queue.
    task = grade_exam_submission if exam else grade_submission
    options = {"priority": priority} if priority is not None else {}
    if queue:
        options["queue"] = queue
    try:
        if not options:
            task.delay(submission_id)
        else:
            task.apply_async((submission_id,), **options)
    except Exception as exc:  # kombu/redis errors vary by transport; all mean "not sent now"
        log.error("submission %s: saved but not queued (%s: %s); the sweeper will queue it",
                  submission_id, type(exc).__name__, exc)
