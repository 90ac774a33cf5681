"""The sign-up form: Django's, refusing usernames that could pass for another user's, asking for the
user's name, email and (signing up into a course) student ID, all optional, and for an invite code
where the site requires one (WARPDRILL_SIGNUP_REQUIRES_INVITE); and My account's form of the same
name, email and student ID."""
from __future__ import annotations

from django import forms
from django.core.validators import RegexValidator
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from .core.usernames import UsernameProblem, username_problem
from .models import STUDENT_ID_MAX
from .profiles import email_taken, student_id_of

USERNAME_MESSAGES = {
    UsernameProblem.MIXED_SCRIPTS: _("Use letters of one alphabet only: this name mixes alphabets, so it could "
                                     "pass for someone else's."),
    UsernameProblem.INVISIBLE: _("This name contains an invisible or control character."),
    UsernameProblem.LOOKS_LIKE_EXISTING: _("This name looks the same as an existing user's: choose another."),
}


# Letters, digits and . _ - (a 학번 is digits; some universities add letters or a hyphen): no spaces,
# nothing a spreadsheet or an LMS would read as something else.
STUDENT_ID_RE = r"^[A-Za-z0-9][A-Za-z0-9._-]*\Z"


class IdentityFields(forms.Form):
    """Full name, email and student ID: optional, the email's form checked and no other account's."""

    full_name = forms.CharField(label=_("Full name"), max_length=150, required=False,
                                help_text=_("As your instructor knows you, e.g. 김민수 or Kim Minsu."))
    email = forms.EmailField(label=_("Email"), max_length=254, required=False,
                             help_text=_("Your instructor uses it to match you in the LMS gradebook."))
    student_id = forms.CharField(
        label=_("Student ID"), max_length=STUDENT_ID_MAX, required=False,
        validators=[RegexValidator(STUDENT_ID_RE, _("Use letters, digits, dots, hyphens and underscores only."))],
        help_text=_("The number your university gave you (학번), if you have one."))

    #: The account being edited (None while signing up).
    account = None

    def clean_email(self):
        email = get_user_model().objects.normalize_email(self.cleaned_data.get("email", "").strip())
        if email and email_taken(email, self.account):
            raise forms.ValidationError(_("Another account uses this email address. If your instructor made an "
                                          "account for you, use the set-password link they gave you."), code="taken")
        return email

    def identity(self) -> dict:
        """The cleaned full_name, email and student_id (accounts.profiles.set_identity's arguments)."""
        return {name: self.cleaned_data.get(name, "") for name in ("full_name", "email", "student_id")}


class AccountForm(IdentityFields):
    """My account: the user's name, email and student ID."""

    def __init__(self, *args, account, **kwargs):
        self.account = account
        kwargs.setdefault("initial", {"full_name": account.get_full_name(), "email": account.email,
                                      "student_id": student_id_of(account)})
        super().__init__(*args, **kwargs)


class SignupForm(IdentityFields, UserCreationForm):
    """UserCreationForm with confusable usernames refused, the user's name, email and (with a course
    invite: `with_student_id`) student ID, and, where required, an invite code."""

    field_order = ["username", "full_name", "email", "student_id", "password1", "password2", "invite_code"]

    invite_code = forms.CharField(label=_("Invite or course code"), max_length=32, required=False,
                                  help_text=_("The code your instructor gave you."))

    def __init__(self, *args, with_student_id: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        if settings.WARPDRILL_SIGNUP_REQUIRES_INVITE:
            self.fields["invite_code"].required = True
        else:
            del self.fields["invite_code"]
        # A student ID means something to a course: asked where the sign-up joins one.
        if not (with_student_id or settings.WARPDRILL_SIGNUP_REQUIRES_INVITE):
            del self.fields["student_id"]

    def _post_clean(self):
        # The password validators compare the password with the name and email given (Django's
        # UserAttributeSimilarityValidator reads them from the instance): put them there first.
        self.instance.first_name = self.cleaned_data.get("full_name", "")
        self.instance.email = self.cleaned_data.get("email", "")
        super()._post_clean()

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
