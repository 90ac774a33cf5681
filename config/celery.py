"""The one Celery app of WarpDrill.

Broker: Redis when CELERY_BROKER_URL or REDIS_URL is set, else an embedded filesystem
broker under var/ (no external service), so the development set-up needs nothing running.
"""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("warpdrill")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
