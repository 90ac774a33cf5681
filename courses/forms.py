"""Forms of the courses pages: parsing only; the writes are courses/actions.py's."""
from __future__ import annotations

from datetime import timedelta

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .models import Course, Role

MAX_ROSTER_BYTES = 2 * 1024 * 1024  # 5000 rows of username,email,name fit in well under this


class CourseForm(forms.ModelForm):
    class Meta:
        model = Course
        fields = ["name", "code", "term", "language", "target_cc"]


class InviteForm(forms.Form):
    """A new invite: its role, how many days it lasts (empty: no expiry), how many uses (empty: no limit)."""

    role = forms.ChoiceField(label=_("Joins as"), choices=Role.choices, initial=Role.STUDENT)
    days = forms.IntegerField(label=_("Expires after (days)"), min_value=1, max_value=365, required=False, initial=14,
                              help_text=_("14 days unless you change it; clear the field for an invite that does not expire."))
    max_uses = forms.IntegerField(label=_("Maximum uses"), min_value=1, max_value=10000, required=False,
                                  help_text=_("Leave empty for no limit."))

    def expires_at(self, now=None):
        days = self.cleaned_data.get("days")
        return (now or timezone.now()) + timedelta(days=days) if days else None


class JoinForm(forms.Form):
    code = forms.CharField(label=_("Invite code"), max_length=40,
                           widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters",
                                                         "spellcheck": "false"}))


class RosterForm(forms.Form):
    file = forms.FileField(label=_("Roster (CSV)"),
                           help_text=_("UTF-8 CSV with a header row: username, email and optionally name."))

    def clean_file(self):
        f = self.cleaned_data["file"]
        if f.size > MAX_ROSTER_BYTES:
            raise forms.ValidationError(_("The file is larger than 2 MiB."))
        return f


class RoleForm(forms.Form):
    role = forms.ChoiceField(choices=Role.choices)
