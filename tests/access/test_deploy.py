"""`manage.py check --deploy` is clean for production settings (DEBUG off, a long random SECRET_KEY,
ALLOWED_HOSTS set), and it does complain when they are missing (so the clean run means something).

Each check runs in a subprocess: settings are read from the environment once, at start-up.
"""
from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION_DB = "postgres://warpdrill:a-password@127.0.0.1:5432/warpdrill"


def check_deploy(**env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("DJANGO_", "WARPDRILL_TEST", "PYTEST"))
             and k not in ("DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "WARPDRILL_DB_PASSWORDLESS")}
    clean["DATABASE_URL"] = PRODUCTION_DB  # `check` does not connect; production settings need a password
    clean.update(env)
    clean = {k: v for k, v in clean.items() if v is not None}
    return subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
                          cwd=ROOT, env=clean, capture_output=True, text=True, timeout=120)


def test_check_deploy_is_clean_for_production_settings():
    result = check_deploy(DEBUG="false", SECRET_KEY=secrets.token_urlsafe(64), ALLOWED_HOSTS="warpdrill.example.edu",
                          CSRF_TRUSTED_ORIGINS="https://warpdrill.example.edu")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


@pytest.mark.parametrize("env, warning", [
    ({"DEBUG": "false", "SECRET_KEY": "change-me-to-50-random-characters"}, "security.W009"),  # env.example's
    ({"DEBUG": "true", "SECRET_KEY": secrets.token_urlsafe(64)}, "security.W018"),
])
def test_check_deploy_complains_about_a_weak_key_or_debug(env, warning):
    result = check_deploy(ALLOWED_HOSTS="warpdrill.example.edu", **env)
    assert result.returncode != 0 and warning in result.stdout + result.stderr


def test_production_refuses_to_start_without_a_secret_key():
    """The development key is public and passes check --deploy: with DEBUG off it is refused outright."""
    result = check_deploy(DEBUG="false", ALLOWED_HOSTS="warpdrill.example.edu")
    assert result.returncode != 0
    assert "SECRET_KEY must be set in the environment when DEBUG is off" in result.stderr


def test_production_refuses_an_empty_secret_key():
    """An empty SECRET_KEY (an env file's `SECRET_KEY=` left blank) is no key either."""
    result = check_deploy(DEBUG="false", SECRET_KEY="  ", ALLOWED_HOSTS="warpdrill.example.edu")
    assert result.returncode != 0
    assert "SECRET_KEY must be set in the environment when DEBUG is off" in result.stderr


def test_production_refuses_to_start_without_a_database_url():
    """No DATABASE_URL with DEBUG off is refused: production never falls back to the SQLite default."""
    result = check_deploy(DEBUG="false", SECRET_KEY=secrets.token_urlsafe(64), ALLOWED_HOSTS="warpdrill.example.edu",
                          DATABASE_URL=None)
    assert result.returncode != 0
    assert "DATABASE_URL must be set in the environment when DEBUG is off" in result.stderr


def test_production_refuses_a_postgres_url_without_a_password_unless_told():
    env = dict(DEBUG="false", SECRET_KEY=secrets.token_urlsafe(64), ALLOWED_HOSTS="warpdrill.example.edu",
               CSRF_TRUSTED_ORIGINS="https://warpdrill.example.edu",
               DATABASE_URL="postgres://warpdrill@127.0.0.1:5432/warpdrill")
    result = check_deploy(**env)
    assert result.returncode != 0
    assert "DATABASE_URL must carry the database password when DEBUG is off" in result.stderr
    result = check_deploy(WARPDRILL_DB_PASSWORDLESS="true", **env)  # peer/trust authentication, chosen explicitly
    assert result.returncode == 0, result.stdout + result.stderr
