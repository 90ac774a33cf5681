"""The course's problems: the list, a new problem, a copy from the bank, an upload and a download."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from grader.core.errors import WarpDrillError
from problems.core.package import PackageError
from problems.models import Problem

from .. import actions
from ..core.archive import ArchiveError, pack_zip
from .common import staff_course
from .forms import NewProblemForm, UploadForm

MAX_UPLOAD_BYTES = 8 * 1024 * 1024  # the largest package archive an upload accepts


@login_required
def index(request, code):
    """The course's problems, the bank to copy from, a new problem and an upload."""
    course, role = staff_course(request, code)
    problems = Problem.objects.filter(course=course).select_related("current_version").order_by("slug")
    bank = Problem.objects.filter(course__isnull=True, current_version__isnull=False).order_by("topic", "slug")
    return render(request, "authoring/index.html", {
        "course": course, "role": role, "problems": problems, "bank": bank,
        "new_form": NewProblemForm(), "upload_form": UploadForm()})


@login_required
@require_POST
def new(request, code):
    course, _role = staff_course(request, code)
    form = NewProblemForm(request.POST)
    if form.is_valid():
        try:
            problem = actions.create_problem(course, request.user, **form.cleaned_data)
        except WarpDrillError as exc:
            messages.error(request, str(exc))
        else:
            return redirect("authoring:edit", course.code, problem.slug)
    else:
        messages.error(request, _("Give a slug and an English title."))
    return redirect("authoring:index", course.code)


@login_required
@require_POST
def copy(request, code, slug):
    """Copy a bank problem into the course (the bank itself is read-only here)."""
    course, _role = staff_course(request, code)
    source = get_object_or_404(Problem.objects.select_related("current_version"), course__isnull=True, slug=slug)
    try:
        problem = actions.copy_from_bank(course, request.user, source, request.POST.get("slug", "").strip())
    except WarpDrillError as exc:
        messages.error(request, str(exc))
        return redirect("authoring:index", course.code)
    messages.success(request, _("Copied: this is your course's own editable copy."))
    return redirect("authoring:edit", course.code, problem.slug)


@login_required
@require_POST
def upload(request, code):
    course, _role = staff_course(request, code)
    form = UploadForm(request.POST, request.FILES)
    if not form.is_valid():
        messages.error(request, _("Choose a .zip or .tar.gz file."))
        return redirect("authoring:index", course.code)
    archive = form.cleaned_data["archive"]
    if archive.size > MAX_UPLOAD_BYTES:
        messages.error(request, _("The archive is larger than %(mib)d MiB.") % {"mib": MAX_UPLOAD_BYTES // 2**20})
        return redirect("authoring:index", course.code)
    try:
        problem, version, created = actions.import_archive(course, request.user, archive.read(),
                                                           form.cleaned_data["message"])
    except ArchiveError as exc:
        messages.error(request, _("Not uploaded: %(error)s") % {"error": exc.render(_)})
        return redirect("authoring:index", course.code)
    except (PackageError, WarpDrillError) as exc:
        messages.error(request, _("Not uploaded: %(error)s") % {"error": exc})
        return redirect("authoring:index", course.code)
    if created:
        messages.success(request, _("Uploaded as version %(n)d.") % {"n": version.number})
    else:
        messages.info(request, _("Same files as version %(n)d: nothing new was saved.") % {"n": version.number})
    return redirect("authoring:edit", course.code, problem.slug)


@login_required
def download(request, code, slug, number=None):
    """The package (newest version, or `number`) as <slug>.zip; the bank's too (course staff may copy it)."""
    course, _role = staff_course(request, code)
    problem = get_object_or_404(Problem.objects.filter(course=course) | Problem.objects.filter(course__isnull=True),
                                slug=slug)
    if number is None:
        version = problem.current_version if problem.course_id is None else actions.latest_version(problem)
    else:
        version = get_object_or_404(problem.versions, number=number)
    if version is None:
        raise Http404("No version.")
    response = HttpResponse(pack_zip(version.files, problem.slug), content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{problem.slug}-v{version.number}.zip"'
    return response
