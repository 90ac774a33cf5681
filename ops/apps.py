from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OpsConfig(AppConfig):
    """Operations: health and readiness probes, Prometheus metrics, structured logs, backups."""

    name = "ops"
    verbose_name = _("Operations")

    def ready(self):
        from grader.core.gpu import pool

        from grader.core import observe

        from . import metrics, signals  # noqa: F401  (signals: worker-side metrics and log context on Celery signals)

        observe.listen(metrics.on_core_event)  # the core's sandbox kills and GPU child restarts
        from .metrics import child_restarted

        # The GPU pool (core, no Django) reports replaced children to whoever listens: /metrics counts them.
        if child_restarted not in pool.RESTART_LISTENERS:
            pool.RESTART_LISTENERS.append(child_restarted)
