"""Printed exams: the print page and the PDF downloads, for the TAs and instructors of the exam's course.

Students (and everyone else) get 404 for both, keys or sheets, before or after the release: a student
never downloads forms, and never a key. A PDF is typeset by a worker (exams.print_tasks): the link
answers 202 with a page that reloads itself until the file is there, then the file.
"""
from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import FileResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext_lazy as _

from exams.core.printing import Part

from . import print_tasks
from .access import require_staff
from .models import Exam
from .printing import MAX_LETTERED_FORMS, PrintSet, exam_filename


class PrintRequestForm(forms.Form):
    """What to print (GET parameters of the PDF link)."""

    set = forms.ChoiceField(label=_("Forms"), choices=[(PrintSet.FORMS.value, _("Lettered forms (A, B, C, …)")),
                                                       (PrintSet.STUDENTS.value, _("One form per student"))])
    count = forms.IntegerField(label=_("Number of forms"), min_value=1, max_value=MAX_LETTERED_FORMS, initial=4,
                               required=False)
    lang = forms.ChoiceField(label=_("Language"), choices=[("en", "English"), ("ko", "한국어")])
    part = forms.ChoiceField(label=_("Print"), choices=[(Part.QUESTIONS.value, _("Question sheets")),
                                                        (Part.KEY.value, _("Answer keys with worked solutions"))])


def _exam(request, pk: int) -> Exam:
    exam = get_object_or_404(Exam.objects.select_related("course"), pk=pk)
    require_staff(request.user, exam.course)
    return exam


@login_required
def print_page(request, pk: int):
    """The print form: which forms, how many, which language (the course's default first), sheets or keys."""
    from courses.language import course_language

    exam = _exam(request, pk)
    # The sheets are for the course's students, not for whoever prints them: the course's default
    # language is offered first, whatever the page's.
    form = PrintRequestForm(initial={"count": 4, "lang": course_language(exam.course)})
    return render(request, "exams/print.html", {"exam": exam, "form": form})


@login_required
def print_pdf(request, pk: int):
    """The chosen PDF as an attachment once typeset; until then a 202 page that reloads itself; a failed
    run's reason with a link to try again. 400 with the form's errors for bad parameters."""
    exam = _exam(request, pk)
    form = PrintRequestForm(request.GET)
    if not form.is_valid():
        return render(request, "exams/print.html", {"exam": exam, "form": form}, status=400)
    data = form.cleaned_data
    which, part, count = PrintSet(data["set"]), Part(data["part"]), data["count"] or 4
    run = print_tasks.print_run(exam, which, data["lang"], part, count)
    failure = run.failed()
    if not run.ready() and (not failure or request.GET.get("retry")):
        print_tasks.start(run)
        failure = run.failed()  # an eager queue (tests, a one-process site) has run it already
    if run.ready():
        response = FileResponse(run.path.open("rb"), content_type="application/pdf", as_attachment=True,
                                filename=exam_filename(exam, which, part, data["lang"], count))
        response["Cache-Control"] = "private, no-store"  # a key must not stay in a shared cache
        return response
    context = {"exam": exam, "form": form, "failure": failure, "preparing": not failure,
               "retry_url": request.get_full_path() + "&retry=1"}
    return render(request, "exams/print.html", context, status=500 if failure else 202)
