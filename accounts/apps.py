from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    """Sign-up, log-in (with its brute-force limits) and the site-wide roles (Student, Instructor)."""

    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self):
        from django.contrib.auth import get_user_model
        from django.db.models.signals import pre_save

        from .tokens import rotate_on_password_change

        # A changed password deletes the user's API key (accounts.tokens).
        pre_save.connect(rotate_on_password_change, sender=get_user_model(), dispatch_uid="accounts-rotate-token")
