from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PracticeConfig(AppConfig):
    """Generated questions (families, a stored variant per student, attempts) and the occupancy calculator."""

    name = "practice"
    verbose_name = _("Practice")

    def ready(self):
        from . import topic_stats  # noqa: F401  (its receivers keep TopicStats equal to a recount)
