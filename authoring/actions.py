"""The one write path of authoring: create, copy, save, upload, validate and publish problems.

Every function takes the acting user and a course the caller has already checked (authoring.views
asks courses.access for a TA or instructor of that course). Package files are checked by the same
parser `import_problems` uses (problems.core.package.parse_package); a save that changes them makes
a new immutable ProblemVersion with its author and message, and students keep seeing the published
(current) version until another version is published.
"""
from __future__ import annotations

import math
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from grader import actions as grader_actions
from grader import rejudging as grader_rejudging
from grader.core.errors import WarpDrillError
from grader.core.verdicts import Verdict
from grader.routing import grading_queue
from problems.core.package import PackageError, SLUG_RE, parse_package
from problems.models import Problem, ProblemVersion

from .core.archive import unpack
from .core.edit import rename_slug, skeleton
from .models import ValidationItem, ValidationRun
from .version_messages import VersionMessage


class AuthoringError(WarpDrillError):
    """An authoring request that cannot be done as asked; the message says why, for the author."""


class ValidationRunningError(AuthoringError):
    """Validate was pressed while a validation of the same problem is still grading: one at a time per
    problem (each is the solution and every wrong solution on the grading queue). `run` is the one running."""

    http_status = 409

    def __init__(self, run):
        super().__init__(_("A validation of this problem is still running (version %(n)d): it is shown here; "
                           "start another once it has finished.") % {"n": run.version.number})
        self.run = run


def _parsed(files: dict[str, str], slug: str):
    """The parsed package, whose slug must be `slug`. Raises PackageError."""
    package = parse_package(files)
    if package.slug != slug:
        raise PackageError("problem.yaml", _("must stay '%(slug)s' (the problem's address)") % {"slug": slug}, "slug")
    return package


# Words of the authoring pages' addresses (/courses/<code>/problems/<word>/): never a problem's slug.
RESERVED_SLUGS = frozenset({"new", "upload", "preview", "bank", "dashboard"})


def _check_new_slug(slug: str) -> None:
    if not SLUG_RE.match(slug) or slug in RESERVED_SLUGS:
        raise AuthoringError(_("Use lowercase letters, digits and '-' (2-63 characters) in the slug."))
    if Problem.objects.filter(slug=slug).exists():
        raise AuthoringError(_("The slug '%(slug)s' is taken; choose another.") % {"slug": slug})


@transaction.atomic
def create_problem(course, user, slug: str, title_en: str, title_ko: str = "") -> Problem:
    """A new, unpublished problem of `course` whose version 1 is a small working skeleton
    (authoring.core.edit.skeleton). Raises AuthoringError for a bad or taken slug."""
    slug = slug.strip()
    _check_new_slug(slug)
    if not title_en.strip():
        raise AuthoringError(_("An English title is required."))
    return _new_problem(course, user, skeleton(slug, title_en, title_ko), code=VersionMessage.SKELETON)


def _new_problem(course, user, files: dict[str, str], message: str = "", code: VersionMessage | None = None,
                 params: dict | None = None) -> Problem:
    """A new unpublished problem of `course` whose version 1 holds `files`, with the author's `message`,
    or WarpDrill's own (`code` and `params`, authoring.version_messages) when the author wrote none.
    Raises PackageError, or AuthoringError when the slug is taken."""
    message = (message or "").strip()[:300]
    package = parse_package(files)
    try:
        with transaction.atomic():
            problem = Problem.objects.create(
                slug=package.slug, title_en=package.title["en"], title_ko=package.title.get("ko", ""),
                topic=package.topic.value, kind=package.kind, difficulty=package.difficulty,
                course=course, is_published=False)
    except IntegrityError:
        raise AuthoringError(_("The slug '%(slug)s' is taken; choose another.") % {"slug": package.slug}) from None
    ProblemVersion.objects.create(problem=problem, number=1, content_hash=package.content_hash, files=package.files,
                                  author=user, message=message, message_code="" if message or code is None else code,
                                  message_params={} if message else params or {})
    return problem


@transaction.atomic
def copy_from_bank(course, user, source: Problem, slug: str = "") -> Problem:
    """An editable, unpublished copy of a bank problem (its current version) in `course`; its slug is
    `slug` or `<bank slug>-<course code>`. Raises AuthoringError for a course problem or a taken slug."""
    if source.course_id is not None or source.current_version is None:
        raise AuthoringError(_("Only problems of the shipped bank can be copied."))
    slug = (slug or f"{source.slug}-{course.code}".lower().replace("_", "-"))[:63].strip("-")
    _check_new_slug(slug)
    files = dict(source.current_version.files)
    files["problem.yaml"] = rename_slug(files["problem.yaml"], slug)
    return _new_problem(course, user, files, code=VersionMessage.BANK_COPY,
                        params={"slug": source.slug, "n": source.current_version.number})


def latest_version(problem: Problem) -> ProblemVersion | None:
    """The newest version (what the editor opens), published or not."""
    return problem.versions.order_by("-number").first()


@transaction.atomic
def save_version(problem: Problem, user, files: dict[str, str], message: str = "",
                 code: VersionMessage | None = None) -> tuple[ProblemVersion, bool]:
    """Save `files` as the problem's next version with the author's `message`, or with WarpDrill's own
    `code` when the author wrote none; (version, True) when one was made.

    Files identical to an existing version make nothing: (that version, False). Raises PackageError
    (file, field, what is expected) when the parser refuses them; nothing is saved then.
    """
    package = _parsed(files, problem.slug)
    Problem.objects.select_for_update().filter(pk=problem.pk).first()
    existing = problem.versions.filter(content_hash=package.content_hash).first()
    if existing:
        return existing, False
    number = (problem.versions.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    message = (message or "").strip()[:300]
    version = ProblemVersion.objects.create(problem=problem, number=number, content_hash=package.content_hash,
                                            files=package.files, author=user, message=message,
                                            message_code="" if message or code is None else code)
    return version, True


def import_archive(course, user, data: bytes, message: str = "") -> tuple[Problem, ProblemVersion, bool]:
    """An uploaded .zip/.tar.gz package as a new problem of `course`, or a new version of the course's
    problem with its slug. Returns (problem, version, created a version). Raises ArchiveError,
    PackageError, or AuthoringError when the slug belongs to the bank or another course."""
    files = unpack(data)
    package = parse_package(files)
    problem = Problem.objects.filter(slug=package.slug).first()
    if problem is None:
        _check_new_slug(package.slug)
        with transaction.atomic():
            problem = _new_problem(course, user, files, message, code=VersionMessage.UPLOADED)
        return problem, problem.versions.get(number=1), True
    if problem.course_id != course.pk:
        raise AuthoringError(_("The slug '%(slug)s' belongs to another problem; change `slug` in problem.yaml.")
                             % {"slug": package.slug})
    version, created = save_version(problem, user, files, message, code=VersionMessage.UPLOADED)
    return problem, version, created


def validation_queues() -> list[str]:
    """The queues a validation run grades each source on: `cpu` (the emulator) and `gpu` on a site with
    GPU workers (settings.WARPDRILL_GPU_WORKERS), else the one grading queue (grader.routing)."""
    return ["cpu", "gpu"] if grading_queue() == "gpu" else [grading_queue()]


def running_validation(problem: Problem) -> ValidationRun | None:
    """The problem's newest validation run (of any version) while any of its items is not graded, else None."""
    newest = ValidationRun.objects.filter(version__problem=problem).select_related("version") \
        .order_by("-created_at", "-pk").first()
    return newest if newest is not None and newest.outcome() == "running" else None


def check_validation_rate(user, now=None) -> None:
    """At most WARPDRILL_VALIDATIONS_PER_HOUR validation runs started by `user` in any hour (0: no limit).
    Raises grader.actions.RateLimitError (429, Retry-After) with the whole seconds until the oldest of
    the last `limit` leaves the window."""
    limit = settings.WARPDRILL_VALIDATIONS_PER_HOUR
    if not limit:
        return
    now = now or timezone.now()
    window = timedelta(hours=1)
    recent = list(ValidationRun.objects.filter(created_by=user, created_at__gte=now - window)
                  .order_by("-created_at").values_list("created_at", flat=True)[:limit])
    if len(recent) < limit:
        return
    retry_after = max(1, math.floor((recent[-1] + window - now).total_seconds()) + 1)
    minutes = max(1, math.ceil(retry_after / 60))
    per_hour = ngettext("You can start %(n)d validation an hour.", "You can start %(n)d validations an hour.",
                        limit) % {"n": limit}
    again = ngettext("Try again in %(minutes)d minute.", "Try again in %(minutes)d minutes.", minutes) % {
        "minutes": minutes}
    raise grader_actions.RateLimitError(f"{per_hour} {again}", retry_after)


def start_validation(version: ProblemVersion, user) -> ValidationRun:
    """Queue the version's solution (must be ACCEPTED) and every wrong solution (must get its declared
    verdict: `// gpu-verdict:`'s where the GPU backend grades it and one is given, else `// verdict:`'s)
    as validation submissions at low priority, once on each of validation_queues(); every one must pass.
    Returns the run; its items fill in as the workers grade them.

    A package with variant parameters is validated in each variant of its validation set (every
    variant, or the sample its `variants.validate` asks for, which holds every value of every
    parameter): each source once per variant, named "solution.cu · BLOCK=256, LAYOUT=row".

    One validation at a time per problem, a few an hour per user: a TA's five clicks queued 25 gradings
    ahead of students' practice (17 s instead of 1 s). Raises ValidationRunningError (its `run` is the one
    still grading) and grader.actions.RateLimitError (check_validation_rate); the problem's row is locked
    meanwhile, so two clicks at once start one run."""
    base = version.package()
    variants = base.variants.validation_set() if base.variants else [None]
    sources = []
    for variant in variants:
        package = base.with_variant(variant)
        label = (" · " + ", ".join(f"{k}={v}" for k, v in variant.items())) if variant else ""
        sources.append(("solution.cu" + label, Verdict.ACCEPTED.value, "", package.solution, variant))
        sources += [(f"wrong/{w.name}{label}", w.verdict.value, w.expected_on("gpu").value, w.source, variant)
                    for w in package.wrong]
    with transaction.atomic():
        Problem.objects.select_for_update().filter(pk=version.problem_id).first()
        running = running_validation(version.problem)
        if running is not None:
            raise ValidationRunningError(running)
        check_validation_rate(user)
        run = ValidationRun.objects.create(version=version, created_by=user)
        for name, expected, on_gpu, source, variant in sources:
            for queue in validation_queues():
                submission = grader_actions.create_validation_submission(user, version, source, variant, queue)
                ValidationItem.objects.create(run=run, name=name[:100], expected=expected,
                                              expected_gpu=on_gpu if on_gpu != expected else "", submission=submission)
    return run


def latest_validation(version: ProblemVersion) -> ValidationRun | None:
    return version.validations.order_by("-created_at", "-pk").first()


@transaction.atomic
def publish(version: ProblemVersion, user) -> Problem:
    """Make `version` the one students see (and publish the problem). Raises AuthoringError unless the
    version's latest validation run passed."""
    return _make_current(version, published=True)


@transaction.atomic
def use_in_exams_only(version: ProblemVersion, user) -> Problem:
    """Make `version` the problem's version in use, hidden from students: the course's exams draw it
    (an exam keeps it secret while it runs: exams.reservations), its students cannot open it, as a
    PrairieLearn exam-only question. Raises AuthoringError unless the version's latest validation
    run passed."""
    return _make_current(version, published=False)


def _make_current(version: ProblemVersion, published: bool) -> Problem:
    run = latest_validation(version)
    if run is None or run.outcome() != "passed":
        raise AuthoringError(_("Validate this version first: publishing needs a validation run that passed.")
                             if published else
                             _("Validate this version first: an exam can use a version whose validation run passed."))
    problem = Problem.objects.select_for_update().get(pk=version.problem_id)
    package = version.package()
    problem.current_version = version
    problem.is_published = published
    problem.title_en, problem.title_ko = package.title["en"], package.title.get("ko", "")
    problem.topic, problem.kind, problem.difficulty = package.topic.value, package.kind, package.difficulty
    problem.save()
    return problem


@transaction.atomic
def unpublish(problem: Problem, user) -> Problem:
    """Hide the problem from students (its versions and submissions are kept)."""
    problem.is_published = False
    problem.save(update_fields=["is_published", "updated_at"])
    return problem


def rejudge_targets(problem, scope: str, scope_version: int | None = None):
    """The graded STUDENT submissions of `problem` a rejudge of `scope` covers (authoring.models.RejudgeScope).
    Exam submissions are not among them: their verdicts decide scores, so they are re-judged from their
    exam's regrade page, which previews the scores too (exams.actions.regrades)."""
    from courses.models import Membership, Role
    from grader.access import practice_work_q
    from grader.models import Status, Submission

    from .models import RejudgeScope

    # Exam work, including a submission a reset detached from its item (`exam` kept), is the exam's.
    rows = Submission.objects.filter(practice_work_q(), problem_version__problem=problem, status=Status.GRADED)
    if scope == RejudgeScope.VERSION:
        rows = rows.filter(problem_version__number=scope_version)
    elif scope == RejudgeScope.COURSE:
        rows = rows.filter(user_id__in=Membership.objects.filter(course=problem.course, role=Role.STUDENT)
                           .values("user_id"))
    return rows.order_by("pk")


MAX_REJUDGE = 2000  # submissions in one rejudge preview


def start_rejudge(problem: Problem, user, version: ProblemVersion, scope: str, scope_version: int | None = None):
    """Preview a rejudge: each covered submission is copied (grader.rejudging.create_rejudge_copy) and the
    copy graded against `version` at low priority; the originals are untouched until apply_rejudge.
    Raises AuthoringError when nothing is covered or more than MAX_REJUDGE are."""
    from .models import RejudgeItem, RejudgeRun

    targets = list(rejudge_targets(problem, scope, scope_version)[:MAX_REJUDGE + 1])
    if not targets:
        raise AuthoringError(_("No graded submissions to rejudge in this scope."))
    if len(targets) > MAX_REJUDGE:
        raise AuthoringError(_("More than %(n)d submissions: narrow the scope.") % {"n": MAX_REJUDGE})
    with transaction.atomic():
        run = RejudgeRun.objects.create(problem=problem, version=version, scope=scope, scope_version=scope_version,
                                        created_by=user)
        for original in targets:
            copy = grader_rejudging.create_rejudge_copy(user, version, original)
            RejudgeItem.objects.create(run=run, original=original, copy=copy, **grader_rejudging.snapshot(original))
    return run


def apply_rejudge(run, user) -> int:
    """Apply a previewed rejudge whose copies are all graded: each original gets its copy's verdict,
    result and version (the old ones stay in the run's items), except where the copy ended
    INTERNAL_ERROR (a platform fault: the old verdict stays). Logged on the run. Returns how many
    verdicts changed. Raises AuthoringError when it is still running or was applied already."""
    from django.utils import timezone

    from grader.models import Status

    items = list(run.items.select_related("copy"))
    if run.applied_at is not None:
        raise AuthoringError(_("This rejudge was applied already."))
    if any(i.copy.status != Status.GRADED for i in items):
        raise AuthoringError(_("Wait until every submission is graded again."))
    with transaction.atomic():
        changed = sum(1 for item in grader_rejudging.apply_records(items) if item.changed)
        run.applied_at, run.applied_by = timezone.now(), user
        run.save(update_fields=["applied_at", "applied_by"])
    return changed
