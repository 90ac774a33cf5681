from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GraderConfig(AppConfig):
    """Submissions, the grading tasks, and the judge with its backends."""

    name = "grader"
    verbose_name = _("Grader")

    def ready(self):
        from . import checks  # noqa: F401  (registers system checks)
