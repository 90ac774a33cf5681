"""The template editor's zone list (exams/template_zones.py): its buttons and its refresh as the text is
typed post the editor's form here. An htmx request gets the list back (with the picker's Zone options
and, after an edit, the new text, out of band); a plain POST gets the whole editor with the new text.
Nothing is saved."""
from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_POST

from courses.models import Course

from . import template_picker, template_zones
from .access import require_instructor
from .forms import TemplateForm
from .models import ExamTemplate


@login_required
@require_POST
def template_zones_edit(request, course_id: int, pk: int | None = None):
    course = get_object_or_404(Course, pk=course_id)
    require_instructor(request.user, course)
    template = get_object_or_404(ExamTemplate, pk=pk, course=course) if pk else None
    edit, said = template_zones.edit_from_post(request.POST)
    text = edit.text if edit else (request.POST.get("text") or "").replace("\r\n", "\n")
    raw_zone = request.POST.get("zone", "")
    # The picker's Zone stays as chosen; after "Add a zone" it is the new zone, ready for its questions.
    chosen = edit.zone if edit and edit.op == "add" else int(raw_zone) if raw_zone.isdigit() else None
    zone_list = {"zone_rows": template_zones.zone_rows(text), "zone_message": said, "zone_changed": edit is not None,
                 "zone_refused": bool(said) and edit is None, "zones": template_picker.zone_options(text),
                 "chosen_zone": chosen}
    if request.headers.get("HX-Request"):
        return render(request, "exams/_zones.html", {**zone_list, "course": course, "template": template,
                                                     "new_text": text if edit else None, "oob": True})
    from .staff_views import pool_choices

    return render(request, "exams/template_form.html", {
        "course": course, "template": template, "form": TemplateForm(initial={"text": text}), "picked": None,
        **zone_list, **pool_choices(course, template_picker.used_marks(text))},
        status=400 if zone_list["zone_refused"] else 200)
