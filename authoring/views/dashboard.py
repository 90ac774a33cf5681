"""The course's and a problem's dashboard, and its tables as CSV."""
from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render

from courses.core.spreadsheet import write_rows
from problems.models import Problem

from .. import dashboard as reads
from .common import staff_course


@login_required
def dashboard(request, code, slug=None):
    """The course's (or one problem's) dashboard; ?csv=<table> exports that table (dashboard.CSV_TABLES)."""
    course, role = staff_course(request, code)
    problem = None
    if slug is not None:
        problem = get_object_or_404(Problem.objects.filter(course=course) | Problem.objects.filter(
            course__isnull=True, pk__in=course.problem_sets.values("items__problem")), slug=slug)
    data = reads.cached(course, problem, fresh=request.GET.get("fresh") == "1")
    table = request.GET.get("csv")
    if table:
        if table not in reads.CSV_TABLES:
            raise Http404("No such table.")
        header, rows = reads.CSV_TABLES[table]
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{course.code}-{slug or "course"}-{table}.csv"'
        write_rows(response, [header, *rows(data)], bom=True)  # Excel reads Korean names as UTF-8
        return response
    return render(request, "authoring/dashboard.html", {"course": course, "role": role, "problem": problem,
                                                        "d": data, "sets": course.problem_sets.all() if problem is None else ()})
