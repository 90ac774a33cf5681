"""Accounts' own tables: when each API token was last used (DRF's Token has only `created`), and the
student ID a user gives (their Profile)."""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from rest_framework.authtoken.models import Token

from .timezones import when

STUDENT_ID_MAX = 32


class TokenUse(models.Model):
    """The last request authenticated by one API token (accounts.tokens.record_use).

    Deleted with its token, so a revoked and re-created token starts at "never used".
    """

    token = models.OneToOneField(Token, primary_key=True, on_delete=models.CASCADE, related_name="use",
                                 verbose_name=_("token"))
    last_used_at = models.DateTimeField(_("last used"))

    class Meta:
        verbose_name = _("API token use")
        verbose_name_plural = _("API token uses")

    def __str__(self):
        return f"{self.token.user_id}: {when(self.last_used_at)}"


class Profile(models.Model):
    """What a user says of themselves beyond Django's User: the student ID (학번) their university
    gave them. Their name is User.first_name, one full name as a roster's `name` is (a Korean name is
    not a first and a last name), and their email User.email (accounts.profiles writes all three)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.CASCADE,
                                related_name="profile", verbose_name=_("user"))
    student_id = models.CharField(_("student ID"), max_length=STUDENT_ID_MAX, blank=True,
                                  help_text=_("The number your university gave you (학번), if you have one."))

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self):
        return f"{self.user_id}: {self.student_id}"
