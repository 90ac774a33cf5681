"""Accounts' own table: when each API token was last used (DRF's Token has only `created`)."""
from django.db import models
from django.utils.translation import gettext_lazy as _
from rest_framework.authtoken.models import Token

from .timezones import when


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
