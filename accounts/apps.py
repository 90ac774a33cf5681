from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    """Sign-up, log-in (with its brute-force limits) and the site-wide roles (Student, Instructor)."""

    name = "accounts"
    verbose_name = _("Accounts")
