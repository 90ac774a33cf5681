"""The problem-set form: one for a new set and for editing one (homework.actions checks the window)."""
from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

from practice.labels import DIFFICULTY_CHOICES

from .models import LatePolicy

# The browser's datetime-local input reads and writes "2026-12-05T20:08"; a set's stored times are shown
# in it in the reader's zone (Django's DateTimeField converts them; ReaderTimeZoneMiddleware picks it).
DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


class ProblemSetForm(forms.Form):
    title_en = forms.CharField(label=gettext_lazy("Title (English)"), max_length=200)
    title_ko = forms.CharField(label=gettext_lazy("Title (Korean)"), max_length=200, required=False)
    opens_at = forms.DateTimeField(label=gettext_lazy("Opens at"), widget=DATETIME)
    due_at = forms.DateTimeField(label=gettext_lazy("Due at"), widget=DATETIME)
    late_policy = forms.ChoiceField(label=gettext_lazy("Late policy"), choices=LatePolicy.choices)
    late_until = forms.DateTimeField(label=gettext_lazy("Late work until"), required=False, widget=DATETIME)
    difficulty = forms.TypedChoiceField(
        label=gettext_lazy("Difficulty of its generated questions"), required=False, coerce=int, empty_value=None,
        choices=[("", gettext_lazy("Exam level (default)")), *DIFFICULTY_CHOICES],
        help_text=gettext_lazy("Each question-family item gives every student questions of its family at this level."))

    @classmethod
    def initial_of(cls, problem_set) -> dict:
        """The form's initial values for editing `problem_set` (its times as stored, aware)."""
        return {name: getattr(problem_set, name) for name in cls.base_fields}
