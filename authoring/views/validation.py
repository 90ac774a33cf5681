"""Validating a version (its solution and wrong solutions through the real queue), the run's page,
and publishing or hiding a problem."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from grader.core.errors import WarpDrillError

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
    except WarpDrillError as exc:
        messages.error(request, str(exc))
        return redirect("authoring:edit", course.code, slug)
    return redirect("authoring:run", course.code, slug, run.pk)


def _run_context(course, problem, run: ValidationRun) -> dict:
    items = list(run.items.select_related("submission"))
    return {"course": course, "problem": problem, "run": run, "items": items, "outcome": run.outcome(),
            "published_now": problem.is_published and problem.current_version_id == run.version_id}


@login_required
def run(request, code, slug, run_id):
    """A validation run: declared vs got verdicts, live (the table polls while anything is grading)."""
    course, role = staff_course(request, code)
    problem = course_problem(course, slug)
    run = get_object_or_404(ValidationRun.objects.select_related("version"), pk=run_id, version__problem=problem)
    context = {**_run_context(course, problem, run), "role": role}
    template = "authoring/_run_table.html" if request.htmx else "authoring/run.html"
    return render(request, template, context)


@login_required
@require_POST
def publish(request, code, slug, number):
    course, _role = staff_course(request, code)
    version = get_object_or_404(course_problem(course, slug).versions, number=number)
    try:
        actions.publish(version, request.user)
    except WarpDrillError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Version %(n)d is published: students see it now.") % {"n": version.number})
    return redirect("authoring:edit", course.code, slug)


@login_required
@require_POST
def unpublish(request, code, slug):
    course, _role = staff_course(request, code)
    actions.unpublish(course_problem(course, slug), request.user)
    messages.success(request, _("Hidden from students."))
    return redirect("authoring:edit", course.code, slug)
