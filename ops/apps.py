from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OpsConfig(AppConfig):
    """Operations: health and readiness probes, Prometheus metrics, structured logs, backups."""

    name = "ops"
    verbose_name = _("Operations")

    def ready(self):
        from . import signals  # noqa: F401  (worker-side metrics and log context on Celery signals)
