"""Problem-set pages of a course (mounted at /courses/<code>/sets/): members see the opened sets and
their status per item; TAs and instructors create sets and choose their items."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from courses import access
from courses.core.spreadsheet import write_rows
from practice.labels import family_groups

from . import actions, services
from . import dashboard as reads
from .forms import ProblemSetForm


@login_required
def sets(request, code):
    """The course's problem sets (staff: all, with a form for a new one; students: the opened ones)."""
    course, role = access.course_for(request.user, code)
    manage = access.can_manage(role)
    form = ProblemSetForm(request.POST or None) if manage else None
    if request.method == "POST":
        if not manage:
            return redirect("homework:sets", course.code)
        if form.is_valid():
            try:
                problem_set = actions.create_set(course, request.user, **form.cleaned_data)
            except actions.ProblemSetError as exc:
                form.add_error(None, str(exc))
            else:
                return redirect("homework:set", course.code, problem_set.pk)
    return render(request, "homework/sets.html", {
        "course": course, "role": role, "can_manage": manage, "form": form,
        "sets": services.visible_sets(course, request.user)})


@login_required
def problem_set(request, code, set_id):
    """One set: its items with the reader's status; staff also add and remove items."""
    course, role = access.course_for(request.user, code)
    problem_set = get_object_or_404(services.visible_sets(course, request.user), pk=set_id)
    manage = access.can_manage(role)
    context = {"course": course, "role": role, "set": problem_set, "can_manage": manage,
               "rows": services.item_rows(problem_set, request.user)}
    if manage:  # the items the set has already are not offered again (actions.add_item refuses them)
        context["problems"], context["family_groups"] = actions.addable(
            problem_set, actions.assignable_problems(course), family_groups())
    return render(request, "homework/set.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def edit_set(request, code, set_id):
    """Edit a set's titles, window, late policy and difficulty (the course's TAs and instructors; anyone
    else 404), with the rule that created it; times read in the reader's zone, as the new-set form's."""
    course, role = access.course_for(request.user, code, *access.MANAGERS)
    problem_set = get_object_or_404(course.problem_sets, pk=set_id)
    form = ProblemSetForm(request.POST or None, initial=ProblemSetForm.initial_of(problem_set))
    if request.method == "POST" and form.is_valid():
        try:
            actions.update_set(problem_set, **form.cleaned_data)
        except actions.ProblemSetError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("Problem set saved."))
            return redirect("homework:set", course.code, problem_set.pk)
    return render(request, "homework/set_form.html", {"course": course, "role": role, "set": problem_set,
                                                      "form": form}, status=400 if form.errors else 200)


@login_required
@require_http_methods(["GET", "POST"])
def delete_set(request, code, set_id):
    """GET: what deleting the set loses (the set, its items, the LMS links that open it; the students'
    work stays as practice); POST: delete it. The course's TAs and instructors only (anyone else 404)."""
    course, role = access.course_for(request.user, code, *access.MANAGERS)
    problem_set = get_object_or_404(course.problem_sets, pk=set_id)
    if request.method == "POST":
        title = problem_set.title
        actions.delete_set(problem_set)
        messages.success(request, _("Problem set “%(title)s” deleted.") % {"title": title})
        return redirect("homework:sets", course.code)
    return render(request, "homework/set_delete.html", {
        "course": course, "role": role, "set": problem_set,
        "items": services.item_titles(problem_set), "lms_links": problem_set.lti_links.count()})


@login_required
@require_http_methods(["GET", "POST"])
def item_question(request, code, set_id, item_id):
    """A family item's question for the reader: GET opens their current one (a new one the first time),
    POST ("Another question") a new one; both show it on the practice question page, which links back
    to the set. Members of the course only, for a set they can see."""
    course, _role = access.course_for(request.user, code)
    problem_set = get_object_or_404(services.visible_sets(course, request.user), pk=set_id)
    item = get_object_or_404(problem_set.items.exclude(family=""), pk=item_id)
    variant = actions.item_question(item, request.user, another=request.method == "POST")
    return redirect("practice:question", pk=variant.pk)


@login_required
@require_POST
def add_item(request, code, set_id):
    course, _role = access.course_for(request.user, code, *access.MANAGERS)
    problem_set = get_object_or_404(course.problem_sets, pk=set_id)
    try:
        actions.add_item(problem_set, problem_slug=request.POST.get("problem", ""), family=request.POST.get("family", ""))
    except actions.ProblemSetError as exc:
        messages.error(request, str(exc))
    return redirect("homework:set", course.code, problem_set.pk)


@login_required
@require_POST
def remove_item(request, code, set_id, item_id):
    course, _role = access.course_for(request.user, code, *access.MANAGERS)
    problem_set = get_object_or_404(course.problem_sets, pk=set_id)
    actions.remove_item(problem_set, item_id)
    return redirect("homework:set", course.code, problem_set.pk)


@login_required
def dashboard(request, code, set_id):
    """The set's dashboard, for the course's TAs and instructors only (everyone else: 404);
    ?csv=<table> exports one table (homework.dashboard.CSV_TABLES), ?fresh=1 counts again."""
    course, role = access.course_for(request.user, code, *access.MANAGERS)
    problem_set = get_object_or_404(course.problem_sets, pk=set_id)
    data = reads.cached(problem_set, fresh=request.GET.get("fresh") == "1")
    table = request.GET.get("csv")
    if table:
        if table not in reads.CSV_TABLES:
            raise Http404("No such table.")
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{course.code}-set{problem_set.pk}-{table}.csv"'
        write_rows(response, reads.CSV_TABLES[table](data), bom=True)  # Excel reads Korean names as UTF-8
        return response
    columns = services.item_columns(problem_set, data.items)
    return render(request, "homework/dashboard.html", {
        "course": course, "role": role, "set": problem_set, "d": data, "columns": columns,
        "per_item": list(zip(columns, data.counts)), "late": data.late[:reads.SHOWN_ROWS],
        "stuck": data.stuck[:reads.SHOWN_ROWS], "shown_rows": reads.SHOWN_ROWS})
