from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ProblemsConfig(AppConfig):
    """Problems: problem packages, their versions and the bank."""

    name = "problems"
    verbose_name = _("Problems")
