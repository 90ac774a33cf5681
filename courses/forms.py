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


class CourseSettingsForm(forms.ModelForm):
    """What a course's instructors change after creating it (courses.actions.update_course_settings). The
    code stays: it is the course's address, in its invite links and in LMS links to it."""

    class Meta:
        model = Course
        fields = ["name", "term", "language", "target_cc"]
        help_texts = {
            "name": _("Students see it in their course list and on the course's page."),
            "language": _("The language the course's generated content and printed exams default to."),
            "target_cc": _("The GPU the course's occupancy questions are drawn for and its kernels are graded for "
                           "(resource report and occupancy)."),
        }
        error_messages = {
            "name": {"required": _("Give the course a name."),
                     "max_length": _("A course name has at most %(limit_value)d characters "
                                     "(this one has %(show_value)d).")},
            "term": {"max_length": _("A term has at most %(limit_value)d characters (this one has %(show_value)d).")},
            "language": {"invalid_choice": _("Choose English or Korean."), "required": _("Choose a language.")},
            "target_cc": {"invalid_choice": _("Choose a GPU from the list."), "required": _("Choose a target GPU.")},
        }


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
                           help_text=_("UTF-8 CSV with a header row naming its columns: username (아이디) and email (이메일), "
                                       "and optionally name (이름) and student_id (학번). Other columns are ignored."))

    def clean_file(self):
        f = self.cleaned_data["file"]
        if f.size > MAX_ROSTER_BYTES:
            raise forms.ValidationError(_("The file is larger than 2 MiB."))
        return f


class RoleForm(forms.Form):
    role = forms.ChoiceField(choices=Role.choices)
