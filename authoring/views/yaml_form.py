"""problem.yaml of a problem as a form."""
from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from problems.core.package import PackageError, Topic

from .. import actions
from ..core import yamlform
from .common import course_problem, report_save, staff_course

FORM_EXTRA_ROWS = 3  # blank argument and test rows the problem.yaml form offers below the filled ones


def _fields_from_post(post) -> yamlform.Fields:
    """The problem.yaml form's POST as Fields; rows whose name is blank are left out."""
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
    course, role = staff_course(request, code)
    problem = course_problem(course, slug)
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
            report_save(request, version, created)
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
