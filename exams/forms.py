"""Forms of the exams pages: the template editor (JSON/YAML text or an uploaded file), scheduling, staff tools."""
from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from exams.core.catalogue import AnyCatalogue
from exams.core.template import TemplateError, dump_yaml, parse_template

from .actions.scheduling import check_template
from .template_messages import localize
from .models import Exam, ExamTemplate

EXAMPLE = """title: {en: Midterm 1, ko: 중간고사 1}
zones:
  - title: {en: Occupancy and indexing, ko: 점유율과 인덱스 계산}
    choose: 2
    points: 5
    pool:
      - {family: occupancy.blocks_per_sm, difficulty: [1, 2]}
      - {family: indexing.global_index, difficulty: 2}
      - {family: indexing.warp_lane}
  - title: {en: Kernel, ko: 커널}
    pool:
      - {kernel: vector-add-tail, attempt_points: [10, 7, 5], partial_credit: true}
"""


class TemplateForm(forms.Form):
    text = forms.CharField(label=_("Template (YAML or JSON)"), required=False,
                           widget=forms.Textarea(attrs={"rows": 22, "spellcheck": "false", "class": "mono"}))
    upload = forms.FileField(label=_("…or import a file"), required=False,
                             help_text=_("A template exported from WarpDrill (.yaml or .json)."))

    def __init__(self, *args, course=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.course = course  # kernel problems are checked against this course's and the bank's

    def clean(self):
        data = super().clean()
        text = data.get("text") or ""
        upload = data.get("upload")
        if upload:
            if upload.size > 256 * 1024:
                raise forms.ValidationError(_("The file is larger than 256 KiB."))
            try:
                text = upload.read().decode("utf-8")
            except UnicodeDecodeError:
                raise forms.ValidationError(_("The file is not UTF-8 text.")) from None
        if not text.strip():
            raise forms.ValidationError(_("Write a template or choose a file."))
        try:
            data["spec"] = check_template(text, self.course)
        except TemplateError as exc:
            self.problems = [localize(p, m) for p, m in exc.problems]
            raise forms.ValidationError([forms.ValidationError(m) for m in self.problems]) from None
        data["text"] = text
        return data

    @staticmethod
    def initial_text(template: ExamTemplate | None) -> str:
        if template is None:
            return EXAMPLE
        return dump_yaml(parse_template(template.data, AnyCatalogue()))


DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


class ExamForm(forms.ModelForm):
    class Meta:
        model = Exam
        fields = ["template", "title", "opens_at", "closes_at", "duration_minutes", "password", "honour_code",
                  "feedback", "results_release_at", "lockdown"]
        widgets = {"opens_at": DATETIME, "closes_at": DATETIME, "results_release_at": DATETIME,
                   "honour_code": forms.Textarea(attrs={"rows": 3})}

    def __init__(self, *args, course=None, **kwargs):
        super().__init__(*args, **kwargs)
        from practice.rendering import lang

        language = lang()
        self.fields["template"].queryset = ExamTemplate.objects.filter(course=course)
        self.fields["template"].label_from_instance = lambda t: t.title_in(language)
        self.fields["template"].empty_label = _("Choose a template")
        self.fields["template"].help_text = _(
            "Each kernel item allows the attempts its template gives it (attempts, 1 if not given).")
        self.fields["title"].required = False
        for name in ("opens_at", "closes_at", "results_release_at"):
            self.fields[name].input_formats = ["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"]

    def clean(self):
        data = super().clean()
        if data.get("opens_at") and data.get("closes_at") and data["closes_at"] <= data["opens_at"]:
            self.add_error("closes_at", _("The exam must close after it opens."))
        return data


class AccommodationForm(forms.Form):
    username = forms.CharField(label=_("Student (username)"))
    extra_minutes = forms.IntegerField(label=_("Extra minutes"), min_value=0, max_value=24 * 60, initial=0)
    opens_at = forms.DateTimeField(label=_("Own window opens"), required=False, widget=DATETIME,
                                   input_formats=["%Y-%m-%dT%H:%M"],
                                   help_text=_("This student's own window: when the exam opens for them instead of "
                                               "the exam's opening. Empty: the exam's."))
    closes_at = forms.DateTimeField(label=_("Own window closes"), required=False, widget=DATETIME,
                                    input_formats=["%Y-%m-%dT%H:%M"],
                                    help_text=_("This student's own window: when the exam closes for them instead of "
                                                "the exam's closing. Empty: the exam's."))

    def __init__(self, *args, course=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.course = course

    def clean_username(self):
        from .access import role

        user = get_user_model().objects.filter(username=self.cleaned_data["username"]).first()
        if user is None or role(user, self.course) is None:
            raise forms.ValidationError(_("No member of this course has this username."))
        return user


class ExtendForm(forms.Form):
    minutes = forms.IntegerField(label=_("Extra minutes"), min_value=1, max_value=24 * 60, initial=10)
