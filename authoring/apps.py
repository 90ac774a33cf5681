from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AuthoringConfig(AppConfig):
    """Course staff write, validate, version and publish kernel problems in the browser."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "authoring"
    verbose_name = _("Authoring")

    def ready(self):
        from . import progress  # noqa: F401  (its receivers keep ProblemStats equal to a recount)
