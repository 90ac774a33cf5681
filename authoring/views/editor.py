"""The files editor of a problem, its statement preview and its history of versions."""
from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from exams.services import reservations_of
from problems.core.package import PackageError
from problems.markdown import render_markdown
from problems.models import ProblemVersion

from .. import actions
from ..core.diff import diff_files
from ..core.edit import WRONG_NAME, WRONG_VERDICTS, WrongField, field_of, files_from_fields, wrong_fields
from .common import course_problem, report_save, staff_course
from .forms import EditForm


def _wrong_from_post(post) -> tuple[list[WrongField], dict[str, str]]:
    """The wrong solutions of the editor's form (wrong-<i>-name/-verdict/-source/-delete) and errors by field."""
    out, errors, seen = [], {}, set()
    indices = sorted({k.split("-")[1] for k in post if k.startswith("wrong-") and k.count("-") >= 2},
                     key=lambda s: int(s) if s.isdigit() else 0)
    for i in indices:
        name = post.get(f"wrong-{i}-name", "").strip().removesuffix(".cu")
        source = post.get(f"wrong-{i}-source", "")
        verdict = post.get(f"wrong-{i}-verdict", "")
        if post.get(f"wrong-{i}-delete") or (not name and not source.strip()):
            continue
        if not WRONG_NAME.match(name) or name in seen:
            errors[f"wrong:{name or i}"] = _("Name each wrong solution by what it shows, in lowercase letters, "
                                             "digits, '-' and '_' (e.g. missing_syncthreads), once.")
            name = name or f"unnamed-{i}"
        if verdict not in WRONG_VERDICTS:
            errors[f"wrong:{name}"] = _("Choose the verdict this wrong solution must get.")
            verdict = WRONG_VERDICTS[0]
        seen.add(name)
        out.append(WrongField(name, verdict, source))
    return out, errors


def _initial(version: ProblemVersion) -> dict:
    files = version.files
    package = version.package()
    return {"title_en": package.title["en"], "title_ko": package.title.get("ko", ""),
            "statement_en": files.get("statement.md", ""), "statement_ko": files.get("statement.ko.md", ""),
            "starter": files.get("starter.cu", ""), "starter_ko": files.get("starter.ko.cu", ""),
            "solution": files.get("solution.cu", ""),
            "harness": files.get("harness.py", ""), "problem_yaml": files.get("problem.yaml", ""), "message": ""}


@login_required
def edit(request, code, slug):
    """The problem editor: GET shows the newest version; POST saves a new version when the files changed."""
    course, role = staff_course(request, code)
    problem = course_problem(course, slug)
    latest = actions.latest_version(problem)
    errors: dict[str, str] = {}
    if request.method == "POST":
        form = EditForm(request.POST)
        wrong, errors = _wrong_from_post(request.POST)
        if form.is_valid() and not errors:
            files = files_from_fields(latest.files, form.cleaned_data, wrong)
            try:
                version, created = actions.save_version(problem, request.user, files, form.cleaned_data["message"])
            except PackageError as exc:
                errors[field_of(exc.file)] = str(exc)
            else:
                report_save(request, version, created)
                return redirect("authoring:edit", course.code, problem.slug)
    else:
        form = EditForm(initial=_initial(latest))
        wrong = wrong_fields(latest.files)
    for key, message in errors.items():
        if key in form.fields:
            form.add_error(key, message)
    wrong_rows = [{"index": i, "name": w.name, "verdict": w.verdict, "source": w.source,
                   "error": errors.get(f"wrong:{w.name}")} for i, w in enumerate(wrong)]
    run = actions.latest_validation(latest)
    return render(request, "authoring/edit.html", {
        "course": course, "role": role, "problem": problem, "version": latest, "form": form,
        "wrong": wrong_rows, "verdicts": WRONG_VERDICTS, "has_errors": bool(errors),
        "other_errors": [m for k, m in errors.items() if k not in form.fields and not k.startswith("wrong:")],
        "run": run, "run_outcome": run.outcome() if run else None, "next_wrong": len(wrong),
        "published_here": problem.is_published and problem.current_version_id == latest.pk,
        "exams_only_here": not problem.is_published and problem.current_version_id == latest.pk,
        # The exams of the course that keep it from students now (exams.reservations), and until when.
        "reservations": reservations_of(problem)})


@login_required
@require_POST
def preview(request, code):
    """htmx: a statement's Markdown rendered by the renderer students' pages use (problems.markdown)."""
    staff_course(request, code)
    field = "statement_ko" if request.GET.get("field") == "statement_ko" else "statement_en"
    return render(request, "authoring/_preview.html", {"field": field, "html": render_markdown(request.POST.get(field, ""))})


@login_required
def history(request, code, slug):
    """Every version with author, time and message; ?a=&b= shows the diff between two of them."""
    course, role = staff_course(request, code)
    problem = course_problem(course, slug)
    versions = list(problem.versions.select_related("author").order_by("-number"))
    diffs, a, b = None, request.GET.get("a"), request.GET.get("b")
    if a and b:
        old = get_object_or_404(problem.versions, number=a) if a.isdigit() else None
        new = get_object_or_404(problem.versions, number=b) if b.isdigit() else None
        if old is None or new is None:
            raise Http404("No such version.")
        diffs = [d for d in diff_files(old.files, new.files) if d.change != "same"]
        a, b = old.number, new.number
    elif len(versions) >= 2:
        a, b = versions[1].number, versions[0].number
    return render(request, "authoring/history.html", {
        "course": course, "role": role, "problem": problem, "versions": versions, "diffs": diffs,
        "a": a, "b": b})
