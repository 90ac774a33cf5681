"""WARPDRILL_VAR_DIR moves the site's state (SQLite database, embedded broker, caches) out of var/."""
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = ("import json, django; from django.conf import settings; django.setup(); "
         "print(json.dumps({'var': str(settings.VAR_DIR), 'db': str(settings.DATABASES['default']['NAME']), "
         "'broker': str(settings.CELERY_BROKER_TRANSPORT_OPTIONS.get('data_folder_in', '')), "
         "'cache': str(settings.WARPDRILL_CACHE_DIR)}))")


def settings_with(env_extra: dict) -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in ("WARPDRILL_TESTING", "WARPDRILL_TEST_RUN_ID", "DATABASE_URL", "CELERY_BROKER_URL",
                        "REDIS_URL", "WARPDRILL_CACHE_DIR")}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", **env_extra)
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_state_goes_where_warpdrill_var_dir_says(tmp_path):
    where = tmp_path / "site-b"
    got = settings_with({"WARPDRILL_VAR_DIR": str(where)})
    assert got["var"] == str(where.resolve()) and where.is_dir()
    assert got["db"] == str(where.resolve() / "db.sqlite3")
    assert got["cache"].startswith(str(where.resolve()))
    if got["broker"]:  # the embedded filesystem broker's folders
        assert got["broker"].startswith(str(where.resolve()))


def test_default_is_var_in_the_checkout():
    assert settings_with({})["var"] == str((ROOT / "var").resolve())
