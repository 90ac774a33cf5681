"""Smaller holes of issue 13, finding 5: deeply nested JSON, and hidden seeds from a public key."""
from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.web.conftest import alice, alice_api, problem  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("url", ["/api/v1/token", "/api/v1/problems/tiny-add/submissions"])
def test_deeply_nested_json_is_a_400_not_a_500(url, problem, alice_api):  # noqa: F811
    """A body nested 100,000 levels deep gets 400 with a clear message (DRF let RecursionError through)."""
    body = '{"source": ' + "[" * 100_000 + "]" * 100_000 + "}"
    response = alice_api.post(url, body, content_type="application/json")
    assert response.status_code == 400, response.content[:300]
    assert "nests deeper" in response.json()["error"]
    shallow = alice_api.post(url, '{"source": [[["x"]]]}', content_type="application/json")
    assert shallow.status_code == 400 and "nests deeper" not in shallow.json()["error"]


def _seed_secret(var_dir: Path, **env) -> str:
    run_env = {k: v for k, v in os.environ.items() if not k.startswith(("WARPDRILL_", "PYTEST"))}
    run_env.update(WARPDRILL_VAR_DIR=str(var_dir), DJANGO_SETTINGS_MODULE="config.settings", **env)
    code = "import django; django.setup(); from django.conf import settings; print(settings.WARPDRILL_SEED_SECRET)"
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=run_env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout.strip().splitlines()[-1]


def test_hidden_seeds_come_from_a_secret_of_the_installation(tmp_path):
    """Without WARPDRILL_SEED_SECRET the secret is generated once under var/ (mode 0600), kept across
    starts, and is not the public development SECRET_KEY; the environment still wins."""
    first = _seed_secret(tmp_path)
    path = tmp_path / "seed_secret"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert len(first) == 64 and "dev-only-insecure-key" not in first
    assert _seed_secret(tmp_path) == first
    other = tmp_path / "other"
    other.mkdir()
    assert _seed_secret(other) != first
    assert _seed_secret(tmp_path, WARPDRILL_SEED_SECRET="from-the-environment") == "from-the-environment"
