"""Staff pages of exams: templates (edit, import/export, preview), scheduling, accommodations, results with
statistics and a histogram, an attempt's answers and timeline, resets, extensions and CSV exports
(regrades: regrade_views.py)."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Prefetch
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from courses.models import Course
from exams.core.draw import DrawError, draw_exam
from exams.core.export import moodle_match
from exams.core.stats import AttemptRow, ItemRow, histogram, histogram_svg, item_stats
from exams.core.template import TemplateError, dump_yaml

from . import template_picker, template_zones
from .access import is_staff, require_instructor, require_staff, role
from .actions.attempts import close_expired, end_attempt, extend_attempt, extend_refusal, refresh
from .actions.resets import reset_item, reset_refusal
from .actions.scheduling import (check_template, remove_accommodation, save_template, schedule_exam,
                                 set_accommodation, update_exam)
from .catalogue import DbCatalogue
from .errors import ExamError
from .exports import Layout, export_file, students
from .forms import AccommodationForm, ExamForm, ExtendForm, TemplateForm
from .kernel_rows import kernel_draft, submission_rows
from .models import CloseReason, Exam, ExamAttempt, ExamItem, ExamTemplate
from .release import held_for_staff
from .template_messages import localize
from .timeline import item_titles, timeline
from practice.rendering import lang
from .views import _item_row, not_in_course

PREVIEW_MAX = 10


@login_required
def course_exams(request, course_id: int):
    """A course's exams: students see the ones scheduled; staff also the templates and management links."""
    course = get_object_or_404(Course, pk=course_id)
    r = role(request.user, course)
    if r is None:
        return not_in_course(request)
    staff = is_staff(request.user, course)
    return render(request, "exams/course.html", {
        "course": course, "staff": staff, "instructor": staff and r == "instructor",
        "exams": course.exams.all(), "templates": course.exam_templates.all() if staff else [],
    })


@login_required
def template_edit(request, course_id: int, pk: int | None = None):
    course = get_object_or_404(Course, pk=course_id)
    require_instructor(request.user, course)
    template = get_object_or_404(ExamTemplate, pk=pk, course=course) if pk else None
    picked = None  # the picker's outcome: "Add to the template" posts here too (nothing is saved)
    if request.method == "POST" and "add" in request.POST:
        added, said = template_picker.add_from_post(request.POST, course)
        text = added.text if added else (request.POST.get("text") or "").replace("\r\n", "\n")
        if "application/json" in request.headers.get("Accept", ""):
            public = template_picker.public_kernels(text, course)
            return JsonResponse({"added": added is not None, "message": said, "text": text,
                                 "bank_warning": template_picker.bank_warning(public) if public else "",
                                 "line": added.line if added else None, "zone": added.zone if added else None,
                                 "zones": template_picker.zone_options(text), "used": template_picker.used_marks(text)},
                                status=200 if added else 400)
        form = TemplateForm(initial={"text": text})
        picked = {"added": added is not None, "message": said, "zone": added.zone if added else None}
    elif request.method == "POST":
        form = TemplateForm(request.POST, request.FILES, course=course)
        if form.is_valid():
            template = save_template(course, request.user, form.cleaned_data["spec"].to_dict(), template)
            messages.success(request, _("Template saved."))
            public = template_picker.public_kernels(template.data, course)
            if public:
                messages.warning(request, template_picker.bank_warning(public))
            return redirect("exams:course", course_id=course.pk)
    else:
        form = TemplateForm(initial={"text": TemplateForm.initial_text(template)})
    text = form["text"].value() or ""
    public = template_picker.public_kernels(text, course)
    return render(request, "exams/template_form.html", {
        "course": course, "template": template, "form": form, "picked": picked,
        "bank_warning": template_picker.bank_warning(public) if public else "",
        "zones": template_picker.zone_options(text), "zone_rows": template_zones.zone_rows(text),
        **pool_choices(course, template_picker.used_marks(text))},
        status=400 if form.errors or (picked and not picked["added"]) else 200)


def pool_choices(course, used: dict | None = None) -> dict:
    """What a template's pool items may name, for the editor's lists: `families` [(topic label,
    [{"id", "title", "used"}])] in the reader's language, `kernels` [{"slug", "title", "used", "bank"}] (the
    kernel problems the template check accepts: the course's own, and the bank's, which are public); "used" is
    where the template has it already (template_picker.used_marks: {"where", "label"}), None if not."""
    used = used or {"family": {}, "kernel": {}}
    from practice.core.questions import FAMILIES
    from problems.models import Problem
    from problems.templatetags.warpdrill import topic_label

    la = lang()
    groups: dict[str, list] = {}
    for f in FAMILIES.values():
        groups.setdefault(str(f.topic), []).append({"id": f.id, "title": f.title.get(la, f.title["en"]),
                                                    "used": used["family"].get(f.id)})
    usable = {i.slug for i in DbCatalogue(course).matching(None, None)}
    kernels = [{"slug": p.slug, "title": p.title, "used": used["kernel"].get(p.slug), "bank": p.course_id is None}
               for p in Problem.objects.filter(slug__in=usable).order_by("slug")]
    return {"families": [(topic_label(t), fams) for t, fams in groups.items()], "kernels": kernels,
            "families_url": reverse("authoring:family-preview", args=[course.code])}


@login_required
def template_export(request, course_id: int, pk: int):
    course = get_object_or_404(Course, pk=course_id)
    require_instructor(request.user, course)
    template = get_object_or_404(ExamTemplate, pk=pk, course=course)
    text = TemplateForm.initial_text(template)
    response = HttpResponse(text, content_type="application/yaml; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{slugify(template.title) or "template"}.yaml"'
    return response


@login_required
def template_preview(request, course_id: int, pk: int):
    """N sample variants (as N made-up students would draw them), with keys, before publishing."""
    course = get_object_or_404(Course, pk=course_id)
    require_staff(request.user, course)
    template = get_object_or_404(ExamTemplate, pk=pk, course=course)
    try:
        n = max(1, min(PREVIEW_MAX, int(request.GET.get("n", 3))))
    except ValueError:
        n = 3
    try:  # a template saved before a check it now fails (an item twice) goes back to its editor, saying why
        spec = check_template(template.data, course)
        draws = [draw_exam(spec, f"preview-{template.pk}", f"sample-{s}", DbCatalogue(course), course.target_cc)
                 for s in range(n)]
    except (TemplateError, DrawError) as exc:
        if isinstance(exc, TemplateError):
            for path, message in exc.problems:
                messages.error(request, localize(path, message))
        else:
            messages.error(request, _("The template cannot be drawn now: a kernel problem of it is not available, or "
                                      "too few are left to give a student different ones."))
        if role(request.user, course) == "instructor":
            return redirect("exams:template_edit", course_id=course.pk, pk=template.pk)
        return redirect("exams:course", course_id=course.pk)
    la = lang()
    samples = []
    for s, drawn in enumerate(draws):
        rows = [_item_row(None, _Preview(i), la, True) for i in drawn.items]
        for row in rows:
            if row["kind"] == "kernel":
                row["statement_html"] = _kernel_statement(row["kernel"], la)
        samples.append({"n": s + 1, "rows": rows})
    return render(request, "exams/preview.html", {"course": course, "template": template, "samples": samples,
                                                  "n": n, "yaml": dump_yaml(spec)})


def _kernel_statement(kernel: dict, la: str):
    """A drawn kernel item's statement, bound to its variant, in language `la` (empty when its version is gone)."""
    from problems.markdown import render_statement
    from problems.models import ProblemVersion

    version = ProblemVersion.objects.filter(pk=kernel.get("version_id")).first()
    return render_statement(version, la, kernel.get("variant") or {}) if version else ""


class _Preview:
    """An unsaved item shaped like ExamItem for the item rows."""

    def __init__(self, data):
        self.data, self.key, self.number, self.kind = data, data["key"], data["number"], data["kind"]
        self.max_points, self.answer = data["points"], {}

    @property
    def submissions(self):
        from grader.models import Submission

        return Submission.objects.none()


@login_required
def exam_edit(request, course_id: int, pk: int | None = None):
    course = get_object_or_404(Course, pk=course_id)
    require_instructor(request.user, course)
    exam = get_object_or_404(Exam, pk=pk, course=course) if pk else None
    form = ExamForm(request.POST or None, instance=exam, course=course)
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        try:
            if exam is None:
                template = data.pop("template")
                exam = schedule_exam(course, template, **data)
            else:
                update_exam(exam, **data)
        except ExamError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("Exam saved."))
            return redirect("exams:results", pk=exam.pk)
    return render(request, "exams/exam_form.html", {"course": course, "exam": exam, "form": form,
                                                    "held": held_for_staff(exam) if exam else None},
                  status=400 if form.errors else 200)


@login_required
def accommodations(request, pk: int):
    exam = get_object_or_404(Exam.objects.select_related("course"), pk=pk)
    require_instructor(request.user, exam.course)
    form = AccommodationForm(request.POST or None, course=exam.course)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        set_accommodation(exam, d["username"], d["extra_minutes"], d["opens_at"], d["closes_at"])
        messages.success(request, _("Accommodation saved."))
        return redirect("exams:accommodations", pk=exam.pk)
    return render(request, "exams/accommodations.html", {
        "exam": exam, "form": form, "rows": exam.accommodations.select_related("user")})


@login_required
@require_POST
def accommodation_delete(request, pk: int, acc_id: int):
    """Remove one student's accommodation (POST, instructors)."""
    exam = get_object_or_404(Exam.objects.select_related("course"), pk=pk)
    require_instructor(request.user, exam.course)
    acc = remove_accommodation(exam, acc_id)
    if acc is None:
        raise Http404
    started = ExamAttempt.objects.filter(exam=exam, user=acc.user).exists()
    messages.success(request, _("Accommodation of %(student)s removed.") % {"student": acc.user.get_username()})
    if started:
        messages.info(request, _("%(student)s has started: the attempt keeps the deadline it was started with.")
                      % {"student": acc.user.get_username()})
    return redirect("exams:accommodations", pk=exam.pk)


def _attempt_rows(exam: Exam):
    """(the exam's attempts by username, the statistics' rows of the ended ones). An attempt closed
    because its student was removed from the course is listed but not counted: it ended early, not as
    the exam's work. An item counts as answered with a field filled in (a question) or a submission (a
    kernel: `n_submissions`)."""
    items = ExamItem.objects.annotate(n_submissions=Count("submissions"))
    attempts = list(exam.attempts.select_related("user", "user__profile")
                    .prefetch_related(Prefetch("items", queryset=items)).order_by("user__username"))

    def row(i: ExamItem) -> ItemRow:
        kernel = i.kind == "kernel"
        answered = i.n_submissions > 0 if kernel else any(str(v).strip() for v in (i.answer or {}).values())
        return ItemRow(i.points or 0.0, i.max_points, i.status == "correct", answered,
                       i.n_submissions if kernel else 0, kernel)

    return attempts, [AttemptRow(a.pk, a.total or 0.0, {i.key: row(i) for i in a.items.all()})
                      for a in attempts if not a.is_open and a.close_reason != CloseReason.REMOVED]


@login_required
def results(request, pk: int):
    """Per-student scores, per-question statistics, a histogram; links to attempts, regrade and CSVs."""
    exam = get_object_or_404(Exam.objects.select_related("course"), pk=pk)
    require_staff(request.user, exam.course)
    close_expired()
    attempts, rows = _attempt_rows(exam)
    stats = item_stats(rows)
    max_total = max((a.max_total for a in attempts), default=0.0)
    hist = histogram([r.total for r in rows], max_total)
    titles = slot_titles(exam, attempts, lang())
    svg = histogram_svg(hist, label=_("Score histogram"), x_label=_("Total score (points)"), y_label=_("Students"))
    return render(request, "exams/results.html", {
        "exam": exam, "attempts": attempts, "stats": [(s, *titles.get(s.key, ("", s.key))) for s in stats],
        "histogram": mark_safe(svg), "max_total": max_total,
        # The statistics count the ended attempts, not those closed for a removal from the course.
        "ended": len(rows), "in_progress": sum(1 for a in attempts if a.is_open),
        "removed": sum(1 for a in attempts if a.close_reason == CloseReason.REMOVED),
        "instructor": (instructor := role(request.user, exam.course) == "instructor"),
        "moodle": moodle_match(students(exam)) if instructor else None,
        # A release time that running attempts outlast: students see results only once they end (a warning).
        "held": held_for_staff(exam),
    })


def slot_titles(exam: Exam, attempts, la: str) -> dict[str, tuple[str, str]]:
    """{slot key: (part title, item title)} as the results page names a slot: the zone's title and
    the drawn item's title in `la` (a question family's title; the kernel problem's title, every
    problem drawn for it, " / "-joined, for a topic or tag pool)."""
    from problems.models import Problem

    zones = exam.spec.get("zones", [])
    slugs = {i.data["kernel"]["slug"] for a in attempts for i in a.items.all() if i.kind == "kernel"}
    problem_titles = {p.slug: p.title for p in Problem.objects.filter(slug__in=slugs)}
    found: dict[str, list[str]] = {}
    parts: dict[str, str] = {}
    for a in attempts:
        for i in a.items.all():
            zi = i.data.get("zone", 0)
            ztitle = zones[zi].get("title") if zi < len(zones) else None
            if isinstance(ztitle, dict):
                ztitle = ztitle.get(la) or ztitle.get("en")
            parts.setdefault(i.key, ztitle or _("Part %(n)d") % {"n": zi + 1})
            if i.kind == "question":
                t = i.data["question"].get("title") or {}
                title = t.get(la) or t.get("en") or i.data["question"]["family"]
            else:
                slug = i.data["kernel"]["slug"]
                title = problem_titles.get(slug, slug)
            if title not in found.setdefault(i.key, []):
                found[i.key].append(title)
    return {key: (parts[key], " / ".join(titles)) for key, titles in found.items()}


@login_required
def attempt_detail(request, attempt_id: int):
    """One attempt as staff read it: every answer with the key, points, the kernel submissions, the timeline."""
    attempt = get_object_or_404(ExamAttempt.objects.select_related("exam__course", "user"), pk=attempt_id)
    require_staff(request.user, attempt.exam.course)
    attempt = refresh(attempt)
    la = lang()
    rows = [_item_row(attempt.exam, i, la, True) for i in attempt.items.all()]
    for r in rows:
        if r["kind"] == "kernel":
            r["submissions"] = submission_rows(r["item"])
            r["draft"] = kernel_draft(r["item"], r["submissions"])
    return render(request, "exams/result.html", {
        "exam": attempt.exam, "attempt": attempt, "rows": rows, "staff_view": True,
        "events": timeline(attempt, item_titles(rows)), "extend_form": ExtendForm(),
        "extend_refusal": extend_refusal(attempt), "can_reset": reset_refusal(attempt) is None})


@login_required
@require_POST
def extend(request, attempt_id: int):
    attempt = get_object_or_404(ExamAttempt.objects.select_related("exam__course"), pk=attempt_id)
    require_staff(request.user, attempt.exam.course)
    form = ExtendForm(request.POST)
    if form.is_valid():
        try:
            extend_attempt(attempt.pk, form.cleaned_data["minutes"], request.user)
            messages.success(request, _("Time extended."))
        except ExamError as exc:
            messages.error(request, str(exc))
    else:
        messages.error(request, _("Extend by 1 to 1440 minutes."))
    return redirect("exams:attempt_detail", attempt_id=attempt.pk)


@login_required
@require_POST
def end_now(request, attempt_id: int):
    """Staff end one student's attempt now (exams.actions.attempts.end_attempt), once the form's box confirms it."""
    attempt = get_object_or_404(ExamAttempt.objects.select_related("exam__course", "user"), pk=attempt_id)
    require_staff(request.user, attempt.exam.course)
    if request.POST.get("confirm") != "1":
        messages.error(request, _("Tick the box to confirm that the attempt ends now."))
        return redirect("exams:attempt_detail", attempt_id=attempt.pk)
    try:
        end_attempt(attempt.pk, request.user)
        messages.success(request, _("%(student)s's attempt was ended; it is graded with the answers saved so far.")
                         % {"student": attempt.user.get_username()})
    except ExamError as exc:
        messages.error(request, str(exc))
    return redirect("exams:attempt_detail", attempt_id=attempt.pk)


@login_required
@require_POST
def reset(request, item_id: int):
    item = get_object_or_404(ExamItem.objects.select_related("attempt__exam__course"), pk=item_id)
    require_staff(request.user, item.attempt.exam.course)
    try:
        reset_item(item.pk, request.user)
        messages.success(request, _("Question %(n)d was reset with a new variant.") % {"n": item.number})
    except ExamError as exc:
        messages.error(request, str(exc))
    return redirect("exams:attempt_detail", attempt_id=item.attempt_id)


@login_required
def export(request, pk: int, layout: str):
    """CSV downloads: canvas, moodle (one row per student) and long (one row per student and question),
    in the course's language (exams.exports)."""
    exam = get_object_or_404(Exam.objects.select_related("course"), pk=pk)
    require_instructor(request.user, exam.course)
    try:
        layout = Layout(layout)
    except ValueError:
        raise Http404 from None
    close_expired()
    text, filename = export_file(exam, layout)
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
