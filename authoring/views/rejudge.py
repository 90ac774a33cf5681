"""Rejudging a problem's submissions: start a preview, see which verdicts would change, apply it."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from grader.core.errors import WarpDrillError

from .. import actions
from ..models import RejudgeRun, RejudgeScope
from .common import course_problem, staff_course


@login_required
def rejudge(request, code, slug):
    """Start a rejudge preview (POST: scope, version to grade against) or list the problem's rejudges."""
    course, role = staff_course(request, code)
    problem = course_problem(course, slug)
    if request.method == "POST":
        number = request.POST.get("against", "")
        version = problem.versions.filter(number=int(number)).first() if number.isdigit() else None
        scope = request.POST.get("scope", RejudgeScope.ALL)
        scope_version = request.POST.get("scope_version", "")
        if version is None or scope not in RejudgeScope.values:
            messages.error(request, _("Choose what to rejudge and the version to grade against."))
        else:
            try:
                run = actions.start_rejudge(problem, request.user, version, scope,
                                            int(scope_version) if scope_version.isdigit() else None)
            except WarpDrillError as exc:
                messages.error(request, str(exc))
            else:
                return redirect("authoring:rejudge-run", course.code, slug, run.pk)
    return render(request, "authoring/rejudge.html", {
        "course": course, "role": role, "problem": problem, "scopes": RejudgeScope.choices,
        "versions": problem.versions.order_by("-number"), "runs": RejudgeRun.objects.filter(problem=problem)})


@login_required
def rejudge_run(request, code, slug, run_id):
    """A rejudge's preview: which verdicts would change, from what to what; POST applies it."""
    course, role = staff_course(request, code)
    problem = course_problem(course, slug)
    run = get_object_or_404(RejudgeRun.objects.select_related("version"), pk=run_id, problem=problem)
    if request.method == "POST":
        try:
            changed = actions.apply_rejudge(run, request.user)
        except WarpDrillError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _("Applied: %(n)d verdicts changed; the old results are kept here.") % {"n": changed})
        return redirect("authoring:rejudge-run", course.code, slug, run.pk)
    items = list(run.items.select_related("copy", "original__user", "old_version"))
    running = any(i.copy.status != "GRADED" for i in items)
    changes = [i for i in items if i.changed]
    context = {"course": course, "role": role, "problem": problem, "run": run, "items": items, "running": running,
               "changes": changes, "not_rejudged": sum(1 for i in items if i.not_rejudged)}
    return render(request, "authoring/_rejudge_table.html" if request.htmx else "authoring/rejudge_run.html", context)
