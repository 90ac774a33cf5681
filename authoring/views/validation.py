"""Validating a version (its solution and wrong solutions through the real queue), the run's page,
and publishing or hiding a problem."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from grader.core.errors import WarpDrillError
from grader.core.results import stored_message
from grader.core.verdicts import Verdict
from grader.models import Status

from .. import actions
from ..models import ValidationRun
from .common import course_problem, staff_course


@login_required
@require_POST
def validate(request, code, slug, number):
    course, _role = staff_course(request, code)
    version = get_object_or_404(course_problem(course, slug).versions, number=number)
    try:
        run = actions.start_validation(version, request.user)
    except actions.ValidationRunningError as exc:  # a second click: the run already grading
        messages.info(request, str(exc))
        return redirect("authoring:run", course.code, slug, exc.run.pk)
    except WarpDrillError as exc:
        messages.error(request, str(exc))
        return redirect("authoring:edit", course.code, slug)
    return redirect("authoring:run", course.code, slug, run.pk)


# The heading of a backend's column in a run graded on more than one queue.
QUEUE_LABELS = {"cpu": gettext_lazy("CPU (emulator)"), "gpu": gettext_lazy("GPU")}


def run_table(items) -> tuple[list[dict], list[dict]]:
    """A run's items as the live table shows them: (columns, rows). One column per queue the run
    graded on ({"queue", "label"}; one column, labelled "Got", on a site without GPU workers); one row
    per source ({"name", "expected", "expected_gpu", "cells", "graded", "ok", "errors"}), its cells
    in the columns' order, each {"item", "other_backend"} (the backend that graded it when that is not
    the one its column is for: a misrouted worker) or None; `errors` are the distinct messages of its
    INTERNAL_ERROR cells (a failing harness.py's traceback), in the reader's language."""
    queues = list(dict.fromkeys(i.submission.queue for i in items))
    rows: dict[str, dict] = {}
    for item in items:
        row = rows.setdefault(item.name, {"name": item.name, "expected": item.expected,
                                          "expected_gpu": item.expected_gpu, "by_queue": {}})
        row["by_queue"][item.submission.queue] = item
    for row in rows.values():
        cells = []
        for queue in queues:
            item = row["by_queue"].get(queue)
            backend = item.submission.backend if item else ""
            misrouted = bool(backend) and len(queues) > 1 and (backend == "gpu") != (queue == "gpu")
            cells.append({"item": item, "other_backend": backend if misrouted else ""} if item else None)
        present = [c["item"] for c in cells if c]
        row.update(cells=cells, graded=all(i.submission.status == Status.GRADED for i in present),
                   ok=all(i.ok for i in present),
                   errors=list(dict.fromkeys(stored_message(i.submission.result).render(_) for i in present
                                             if i.submission.verdict == Verdict.INTERNAL_ERROR
                                             and i.submission.result and i.submission.result.get("message"))))
        del row["by_queue"]
    label = len(queues) > 1
    columns = [{"queue": q, "label": QUEUE_LABELS.get(q, q) if label else gettext_lazy("Got")} for q in queues]
    return columns, list(rows.values())


def _run_context(course, problem, run: ValidationRun) -> dict:
    items = list(run.items.select_related("submission"))
    columns, rows = run_table(items)
    return {"course": course, "problem": problem, "run": run, "columns": columns, "rows": rows,
            "outcome": run.outcome(),
            "published_now": problem.is_published and problem.current_version_id == run.version_id,
            "exams_only_now": not problem.is_published and problem.current_version_id == run.version_id}


@login_required
def run(request, code, slug, run_id):
    """A validation run: declared vs got verdicts, live (the table polls while anything is grading)."""
    course, role = staff_course(request, code)
    problem = course_problem(course, slug)
    run = get_object_or_404(ValidationRun.objects.select_related("version"), pk=run_id, version__problem=problem)
    context = {**_run_context(course, problem, run), "role": role}
    template = "authoring/_run_table.html" if request.htmx else "authoring/run.html"
    return render(request, template, context)


def _make_version_current(request, code, slug, number, action, success) -> HttpResponse:
    """Call `action(version, user)` on version `number` of the course's problem `slug` (staff only; the
    action does its own checks and writes), flash `success` (a lazy text with a %(n)d for the version's
    number) or the action's user-safe error, and go back to the problem's edit page."""
    course, _role = staff_course(request, code)
    version = get_object_or_404(course_problem(course, slug).versions, number=number)
    try:
        action(version, request.user)
    except WarpDrillError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, success % {"n": version.number})
    return redirect("authoring:edit", course.code, slug)


@login_required
@require_POST
def publish(request, code, slug, number):
    """Publish a validated version: students see it now."""
    return _make_version_current(request, code, slug, number, actions.publish,
                                 gettext_lazy("Version %(n)d is published: students see it now."))


@login_required
@require_POST
def exams_only(request, code, slug, number):
    """Make a validated version the one in use without publishing it: the course's exams may draw it."""
    return _make_version_current(
        request, code, slug, number, actions.use_in_exams_only,
        gettext_lazy("Version %(n)d is in use for exams only: the course's exam templates can draw it, "
                     "and students cannot open it."))


@login_required
@require_POST
def unpublish(request, code, slug):
    course, _role = staff_course(request, code)
    actions.unpublish(course_problem(course, slug), request.user)
    messages.success(request, _("Hidden from students."))
    return redirect("authoring:edit", course.code, slug)
