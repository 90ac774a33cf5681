"""What other apps may ask the authoring app: which validation run or rejudge preview a submission was
made for (grader.runs, for the submission's page). Read-only."""
from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from grader.runs import RunKind, RunOrigin

from .models import RejudgeItem, ValidationItem


def _problem_crumbs(problem) -> list[tuple[str, str]]:
    """The authoring pages' breadcrumbs down to a course problem's editor (authoring/_crumbs.html's)."""
    course = problem.course
    return [(_("My courses"), reverse("courses:home")), (course.name, reverse("courses:course", args=[course.code])),
            (_("Problems"), reverse("authoring:index", args=[course.code])),
            (problem.slug, reverse("authoring:edit", args=[course.code, problem.slug]))]


def validation_origin(submission) -> RunOrigin | None:
    """The validation run `submission` (Purpose.VALIDATION) was made for: its version, the file, the verdict
    declared for it. None when its run is gone or its problem belongs to no course."""
    item = (ValidationItem.objects.select_related("run__version__problem__course", "submission")
            .filter(submission=submission).first())
    if item is None or item.run.version.problem.course is None:
        return None
    version = item.run.version
    problem = version.problem
    run_url = reverse("authoring:run", args=[problem.course.code, problem.slug, item.run.pk])
    crumbs = _problem_crumbs(problem) + [
        (_("Validation of %(slug)s v%(n)s") % {"slug": problem.slug, "n": version.number}, run_url)]
    wrong = item.name.removeprefix("wrong/").split(" · ")[0].removesuffix(".cu") if item.name.startswith("wrong/") else ""
    return RunOrigin(RunKind.VALIDATION, version.number, run_url, crumbs, file=item.name, wrong_name=wrong,
                     declared=item.declared)


def rejudge_origin(submission) -> RunOrigin | None:
    """The problem rejudge whose preview graded `submission` (a copy, Purpose.REJUDGE) again; None when it is
    not such a copy (an exam regrade's) or its problem belongs to no course."""
    item = (RejudgeItem.objects.select_related("run__problem__course", "run__version", "original__user")
            .filter(copy=submission).first())
    if item is None or item.run.problem.course is None:
        return None
    run, problem = item.run, item.run.problem
    run_url = reverse("authoring:rejudge-run", args=[problem.course.code, problem.slug, run.pk])
    crumbs = _problem_crumbs(problem) + [
        (_("Rejudge %(slug)s against v%(n)s") % {"slug": problem.slug, "n": run.version.number}, run_url)]
    return RunOrigin(RunKind.REJUDGE, run.version.number, run_url, crumbs, original_id=item.original_id,
                     original_url=item.original.get_absolute_url(), original_user=item.original.user.get_username())
