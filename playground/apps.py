from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlaygroundConfig(AppConfig):
    """Run any kernel with a chosen launch and arguments, never graded: see what the threads did."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "playground"
    verbose_name = _("Playground")

    def ready(self):
        from grader.actions import count_toward_rate_limit

        from .models import PlaygroundRun

        # One queue, one limit: a playground run costs a worker as much as a submission.
        count_toward_rate_limit(PlaygroundRun)
