"""WarpDrill's Django project: settings, URLs and the Celery app (wiring only)."""
from .celery import app as celery_app

__all__ = ("celery_app",)
