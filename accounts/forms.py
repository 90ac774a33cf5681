"""The sign-up form: Django's, refusing usernames that could pass for another user's, and asking for
an invite code where the site requires one (WARPDRILL_SIGNUP_REQUIRES_INVITE)."""
from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from .core.usernames import UsernameProblem, username_problem

USERNAME_MESSAGES = {
    UsernameProblem.MIXED_SCRIPTS: _("Use letters of one alphabet only: this name mixes alphabets, so it could "
                                     "pass for someone else's."),
    UsernameProblem.INVISIBLE: _("This name contains an invisible or control character."),
    UsernameProblem.LOOKS_LIKE_EXISTING: _("This name looks the same as an existing user's: choose another."),
}


class SignupForm(UserCreationForm):
    """UserCreationForm with confusable usernames refused and, where required, an invite code."""

    invite_code = forms.CharField(label=_("Invite or course code"), max_length=32, required=False,
                                  help_text=_("The code your instructor gave you."))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if settings.WARPDRILL_SIGNUP_REQUIRES_INVITE:
            self.fields["invite_code"].required = True
        else:
            del self.fields["invite_code"]

    def clean_username(self):
        username = super().clean_username()
        if not username:
            return username
        # A server-side cursor on PostgreSQL, read only as far as the first look-alike: closed here. The
        # refusal below keeps this frame in a reference cycle (the form -> its errors -> the refusal ->
        # its traceback -> this frame), so left to the garbage collector the cursor was closed in the
        # middle of a later query on the same connection, which waited for its own lock (the suite hung).
        existing = get_user_model().objects.values_list("username", flat=True).iterator()
        try:
            problem = username_problem(username, existing)
        finally:
            existing.close()
        if problem is not None:
            raise forms.ValidationError(USERNAME_MESSAGES[problem], code=problem.value)
        return username

    def clean_invite_code(self):
        from courses.actions import invite_problem, normalize_invite_code
        from courses.models import Invite

        code = normalize_invite_code(self.cleaned_data.get("invite_code", ""))
        if invite_problem(Invite.objects.filter(code=code).first() if code else None) is not None:
            raise forms.ValidationError(_("This invite code is not valid (unknown, expired, revoked or used up)."),
                                        code="invite")
        return code
