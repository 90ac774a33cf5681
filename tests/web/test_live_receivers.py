"""The live cache's token is renewed by every save of a submission, in production settings too.

grader.apps connects a post_save/post_delete receiver; Django's signals hold receivers weakly, and a
function defined inside AppConfig.ready() was collected once ready() returned whenever nothing else
held it. With DEBUG off (production) that happened: graded rows kept a pre-verdict token, and every
poll with an ETag got 304 (the page and the CLI showed "running") until the entry's 10 minutes ran out.
"""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import gc
import django
django.setup()
gc.collect()
from django.db.models.signals import post_delete, post_save
from grader.models import Submission
for signal in (post_save, post_delete):
    print(sorted(f"{r.__module__}.{r.__qualname__}" for r in signal._live_receivers(Submission)[0]))
"""


def test_the_receivers_survive_garbage_collection_with_production_settings():
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "DJANGO_", "WARPDRILL_TEST"))}
    env.update({"DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "false", "SECRET_KEY": "x" * 60,
                "ALLOWED_HOSTS": "127.0.0.1", "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/unused",
                "WARPDRILL_DB_PASSWORDLESS": "true", "CELERY_BROKER_URL": "redis://127.0.0.1:6379/15"})
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    saved, deleted = out.stdout.strip().splitlines()[-2:]
    assert "grader.live.renew_on_save" in saved
    assert "grader.live.renew_on_save" in deleted
