"""The forms of the authoring pages: a new problem, the files editor and an upload."""
from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

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
    starter_ko = forms.CharField(
        label=gettext_lazy("starter.ko.cu (optional: the same code with Korean comments, for Korean readers)"),
        widget=forms.Textarea, strip=False, required=False)
    solution = forms.CharField(label=gettext_lazy("solution.cu (must be ACCEPTED)"), widget=forms.Textarea, strip=False)
    harness = forms.CharField(label=gettext_lazy("harness.py (generate(case, rng) and reference(inputs))"),
                              widget=forms.Textarea, strip=False)
    problem_yaml = forms.CharField(label=gettext_lazy("problem.yaml"), widget=forms.Textarea, strip=False)
    message = forms.CharField(label=gettext_lazy("What changed (saved with the version)"), max_length=300, required=False)


class UploadForm(forms.Form):
    archive = forms.FileField(label=gettext_lazy("Package (.zip or .tar.gz)"))
    message = forms.CharField(label=gettext_lazy("Message"), max_length=300, required=False)
