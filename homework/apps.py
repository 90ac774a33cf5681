from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HomeworkConfig(AppConfig):
    """Problem sets: a course assigns kernel problems and question families with an opening time,
    a due date and a late policy."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "homework"
    verbose_name = _("Problem sets")
