"""Authoring pages of a course (mounted at /courses/<code>/problems/): TAs and instructors only.

Every view asks courses.access for a TA or instructor role first (Http404 for anyone else, students
included, exactly as for a course that does not exist), then finds the problem among that course's
own problems only, so staff of course A never reach course B's problems, files or runs.
"""
from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from courses import access
from grader.core.errors import WarpDrillError
from problems.core.package import PackageError
from problems.markdown import render_markdown
from problems.models import Problem, ProblemVersion

from . import actions
from .core.archive import ArchiveError, pack_zip
from .core.diff import diff_files
from .core.edit import WRONG_NAME, WRONG_VERDICTS, WrongField, field_of, files_from_fields, wrong_fields
from .models import ValidationRun

MAX_UPLOAD_BYTES = 8 * 1024 * 1024


def _staff(request, code: str):
    """(course, role) for a TA or instructor of the course; Http404 for everyone else."""
    return access.course_for(request.user, code, *access.MANAGERS)


def _problem(course, slug: str) -> Problem:
    return get_object_or_404(Problem.objects.select_related("current_version"), course=course, slug=slug)


class NewProblemForm(forms.Form):
    slug = forms.SlugField(label=gettext_lazy("Slug (the problem's address)"), max_length=63)
    title_en = forms.CharField(label=gettext_lazy("Title (English)"), max_length=200)
    title_ko = forms.CharField(label=gettext_lazy("Title (Korean)"), max_length=200, required=False)


class EditForm(forms.Form):
    title_en = forms.CharField(label=gettext_lazy("Title (English)"), max_length=200)
    title_ko = forms.CharField(label=gettext_lazy("Title (Korean)"), max_length=200, required=False)
    statement_en = forms.CharField(label=gettext_lazy("Statement (English, Markdown with $math$)"), widget=forms.Textarea,
                                   strip=False)
    statement_ko = forms.CharField(label=gettext_lazy("Statement (Korean)"), widget=forms.Textarea, strip=False,
                                   required=False)
    starter = forms.CharField(label=gettext_lazy("starter.cu (what the student's editor opens with)"), widget=forms.Textarea,
                              strip=False)
    solution = forms.CharField(label=gettext_lazy("solution.cu (must be ACCEPTED)"), widget=forms.Textarea, strip=False)
    harness = forms.CharField(label=gettext_lazy("harness.py (generate(case, rng) and reference(inputs))"),
                              widget=forms.Textarea, strip=False)
    problem_yaml = forms.CharField(label=gettext_lazy("problem.yaml"), widget=forms.Textarea, strip=False)
    message = forms.CharField(label=gettext_lazy("What changed (saved with the version)"), max_length=300, required=False)


class UploadForm(forms.Form):
    archive = forms.FileField(label=gettext_lazy("Package (.zip or .tar.gz)"))
    message = forms.CharField(label=gettext_lazy("Message"), max_length=300, required=False)


@login_required
def index(request, code):
    """The course's problems, the bank to copy from, a new problem and an upload."""
    course, role = _staff(request, code)
    problems = Problem.objects.filter(course=course).select_related("current_version").order_by("slug")
    bank = Problem.objects.filter(course__isnull=True, current_version__isnull=False).order_by("topic", "slug")
    return render(request, "authoring/index.html", {
        "course": course, "role": role, "problems": problems, "bank": bank,
        "new_form": NewProblemForm(), "upload_form": UploadForm()})


@login_required
@require_POST
def new(request, code):
    course, _role = _staff(request, code)
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
    course, _role = _staff(request, code)
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
    course, _role = _staff(request, code)
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
    except (ArchiveError, PackageError, WarpDrillError) as exc:
        messages.error(request, _("Not uploaded: %(error)s") % {"error": exc})
        return redirect("authoring:index", course.code)
    if created:
        messages.success(request, _("Uploaded as version %(n)d.") % {"n": version.number})
    else:
        messages.info(request, _("Same files as version %(n)d: nothing new was saved.") % {"n": version.number})
    return redirect("authoring:edit", course.code, problem.slug)


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
            "starter": files.get("starter.cu", ""), "solution": files.get("solution.cu", ""),
            "harness": files.get("harness.py", ""), "problem_yaml": files.get("problem.yaml", ""), "message": ""}


@login_required
def edit(request, code, slug):
    """The problem editor: GET shows the newest version; POST saves a new version when the files changed."""
    course, role = _staff(request, code)
    problem = _problem(course, slug)
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
                if created:
                    messages.success(request, _("Saved as version %(n)d.") % {"n": version.number})
                else:
                    messages.info(request, _("No changes: the files are those of version %(n)d.") % {"n": version.number})
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
        "published_here": problem.is_published and problem.current_version_id == latest.pk})


@login_required
@require_POST
def preview(request, code):
    """htmx: a statement's Markdown rendered by the renderer students' pages use (problems.markdown)."""
    _staff(request, code)
    field = "statement_ko" if request.GET.get("field") == "statement_ko" else "statement_en"
    return render(request, "authoring/_preview.html", {"field": field, "html": render_markdown(request.POST.get(field, ""))})


@login_required
def history(request, code, slug):
    """Every version with author, time and message; ?a=&b= shows the diff between two of them."""
    course, role = _staff(request, code)
    problem = _problem(course, slug)
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


@login_required
def download(request, code, slug, number=None):
    """The package (newest version, or `number`) as <slug>.zip; the bank's too (course staff may copy it)."""
    course, _role = _staff(request, code)
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


@login_required
@require_POST
def validate(request, code, slug, number):
    course, _role = _staff(request, code)
    version = get_object_or_404(_problem(course, slug).versions, number=number)
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
    course, role = _staff(request, code)
    problem = _problem(course, slug)
    run = get_object_or_404(ValidationRun.objects.select_related("version"), pk=run_id, version__problem=problem)
    context = {**_run_context(course, problem, run), "role": role}
    template = "authoring/_run_table.html" if request.htmx else "authoring/run.html"
    return render(request, template, context)


@login_required
@require_POST
def publish(request, code, slug, number):
    course, _role = _staff(request, code)
    version = get_object_or_404(_problem(course, slug).versions, number=number)
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
    course, _role = _staff(request, code)
    actions.unpublish(_problem(course, slug), request.user)
    messages.success(request, _("Hidden from students."))
    return redirect("authoring:edit", course.code, slug)




FORM_EXTRA_ROWS = 3  # blank argument and test rows the problem.yaml form offers below the filled ones


def _fields_from_post(post) -> "yamlform.Fields":
    """The problem.yaml form's POST as Fields; rows whose name is blank are left out."""
    from .core import yamlform

    def number(key, kind=float):
        raw = post.get(key, "").strip()
        if not raw:
            return None
        try:
            return kind(raw)
        except ValueError:
            raise yamlform.FormError(_("%(field)s: '%(value)s' is not a number") % {"field": key, "value": raw[:30]})

    f = yamlform.Fields(topic=post.get("topic", ""), difficulty=number("difficulty", int) or 1,
                        kernel_name=post.get("kernel_name", ""), block=post.get("block", ""), grid=post.get("grid", ""),
                        shared_bytes=post.get("shared_bytes", ""), student_chooses=bool(post.get("student_chooses")),
                        cooperative=bool(post.get("cooperative")), time_s=number("time_s"), atol=number("atol"),
                        rtol=number("rtol"), checks=[c for c in post.getlist("checks") if c])
    for i in range(int(post.get("arg_rows", "0") or 0) if post.get("arg_rows", "0").isdigit() else 0):
        name = post.get(f"arg-{i}-name", "").strip()
        if name:
            f.args.append(yamlform.ArgRow(name, post.get(f"arg-{i}-role", ""), post.get(f"arg-{i}-dtype", ""),
                                          post.get(f"arg-{i}-init", "")))
    for i in range(int(post.get("test_rows", "0")) if post.get("test_rows", "0").isdigit() else 0):
        name = post.get(f"test-{i}-name", "").strip()
        if name:
            f.tests.append(yamlform.TestRow(name, post.get(f"test-{i}-params", ""), number(f"test-{i}-seed", int),
                                            bool(post.get(f"test-{i}-sample"))))
    return f


@login_required
def yaml_form(request, code, slug):
    """problem.yaml of the newest version as a form (kernel arguments, launch, limits, tolerance, checks,
    test cases); saving writes the values into problem.yaml (keys the form does not show are kept, its
    comments are not) and saves a new version through the same parser as every other save."""
    from problems.core.package import Topic

    from .core import yamlform

    course, role = _staff(request, code)
    problem = _problem(course, slug)
    latest = actions.latest_version(problem)
    original = latest.files.get("problem.yaml", "")
    error = None
    if request.method == "POST":
        try:
            fields = _fields_from_post(request.POST)
            text = yamlform.yaml_from_fields(fields, original)
            files = dict(latest.files, **{"problem.yaml": text})
            version, created = actions.save_version(problem, request.user, files, request.POST.get("message", ""))
        except (yamlform.FormError, PackageError) as exc:
            error = str(exc)
        else:
            if created:
                messages.success(request, _("Saved as version %(n)d.") % {"n": version.number})
            else:
                messages.info(request, _("No changes: the files are those of version %(n)d.") % {"n": version.number})
            return redirect("authoring:yaml-form", course.code, problem.slug)
    else:
        try:
            fields = yamlform.fields_from_yaml(original)
        except yamlform.FormError as exc:
            error, fields = str(exc), yamlform.Fields()
    blank_arg, blank_test = yamlform.ArgRow("", "in", "float32"), yamlform.TestRow("", "")
    args = fields.args + [blank_arg] * FORM_EXTRA_ROWS
    tests = fields.tests + [blank_test] * FORM_EXTRA_ROWS
    return render(request, "authoring/yaml_form.html", {
        "course": course, "role": role, "problem": problem, "version": latest, "f": fields, "error": error,
        "args": args, "tests": tests, "topics": [t.value for t in Topic], "roles": yamlform.ROLES,
        "dtypes": yamlform.DTYPES, "inits": yamlform.INITS, "checks": yamlform.CHECKS}, status=400 if error else 200)


FAMILY_PREVIEW_MAX = 12  # questions one family preview shows at most


@login_required
def family_preview(request, code):
    """Generated question families as a course's students would get them (the course's target GPU):
    ?family=<id>&difficulty=<1..3>&seed=<int>&n=<count> shows n questions generated from seeds
    seed, seed+1, ... with their answers and worked solutions, for staff choosing families for an
    exam or a problem set."""
    from practice.core.questions import DIFFICULTIES, FAMILIES, family
    from practice.rendering import blocks_html, lang

    course, role = _staff(request, code)

    def number(key, default, low, high):
        raw = request.GET.get(key, "")
        value = int(raw) if raw.lstrip("-").isdigit() and len(raw) < 10 else default
        return max(low, min(high, value))

    chosen = request.GET.get("family", "")
    difficulty = number("difficulty", 1, min(DIFFICULTIES), max(DIFFICULTIES))
    seed, n = number("seed", 1, 0, 10**8), number("n", 3, 1, FAMILY_PREVIEW_MAX)
    la = lang()
    questions = []
    if chosen in FAMILIES:
        for k in range(n):
            q = family(chosen).generate(seed + k, difficulty, course.target_cc or None)
            shown = q.render(la)
            key = dict(q.answer)
            questions.append({
                "seed": seed + k, "title": shown["title"], "prompt": blocks_html(shown["prompt"]),
                "fields": [{"label": f.label.get(la, f.label["en"]), "expected": f.format_value(key[f.name], la)}
                           for f in q.fields],
                "solution": blocks_html(q.render_solution(la)), "params": q.params,
            })
    groups: dict[str, list] = {}
    for f in FAMILIES.values():
        groups.setdefault(str(f.topic), []).append({"id": f.id, "title": f.title.get(la, f.title["en"])})
    return render(request, "authoring/family_preview.html", {
        "course": course, "role": role, "groups": groups, "chosen": chosen, "difficulty": difficulty,
        "difficulties": DIFFICULTIES, "seed": seed, "n": n, "questions": questions,
        "unknown": bool(chosen) and chosen not in FAMILIES})


MAX_PREVIEW_VARIANTS = 64  # the variant picker of "preview as a student" lists at most this many


@login_required
def as_student(request, code, slug, number):
    """Version `number` of a course problem exactly as a student's problem page shows it (statement,
    signature, sample tests, launch, starter in the editor), for any variant (?variant=k of the
    package's variants in a stable order), published or not. Nothing can be submitted from it: the
    form is shown disabled and a POST is refused."""
    from problems.pages import problem_page_context
    from problems.services import version_package

    course, role = _staff(request, code)
    problem = _problem(course, slug)
    version = get_object_or_404(problem.versions, number=number)
    if request.method != "GET":
        return HttpResponse(_("A preview cannot be submitted."), status=405, headers={"Allow": "GET"})
    base = version_package(version)
    variants = base.variants.combinations()[:MAX_PREVIEW_VARIANTS] if base.variants else [None]
    raw = request.GET.get("variant", "0")
    index = int(raw) if raw.isascii() and raw.isdigit() and int(raw) < len(variants) else 0
    variant = variants[index]
    page = problem_page_context(problem, version, variant)
    context = {
        **page,
        "form": {"source": page["package"].starter, "block": "", "grid": "", "shared_bytes": "", "from_submission": None,
                 "last_launch": None},
        "error": None,
        "recent": [],
        "preview": {
            "course": course, "version": version, "index": index,
            "variants": [", ".join(f"{k}={v}" for k, v in (var or {}).items()) for var in variants],
            "back": reverse("authoring:edit", args=[course.code, problem.slug]),
        },
    }
    return render(request, "problems/detail.html", context)


@login_required
def dashboard(request, code, slug=None):
    """The course's (or one problem's) dashboard; ?csv=<table> exports that table (dashboard.CSV_TABLES)."""
    import csv

    from . import dashboard as reads

    course, role = _staff(request, code)
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
        writer = csv.writer(response)
        writer.writerow(header)
        writer.writerows(rows(data))
        return response
    return render(request, "authoring/dashboard.html", {"course": course, "role": role, "problem": problem,
                                                        "d": data})


@login_required
def rejudge(request, code, slug):
    """Start a rejudge preview (POST: scope, version to grade against) or list the problem's rejudges."""
    from .models import RejudgeRun, RejudgeScope

    course, role = _staff(request, code)
    problem = _problem(course, slug)
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
    from .models import RejudgeRun

    course, role = _staff(request, code)
    problem = _problem(course, slug)
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
               "changes": changes}
    return render(request, "authoring/_rejudge_table.html" if request.htmx else "authoring/rejudge_run.html", context)
