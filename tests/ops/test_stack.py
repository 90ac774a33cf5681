"""The production stack's files: docker-compose.yml against the Compose specification, its health
checks and one-shot migrations, secrets without defaults, and one list of system packages for the
Dockerfiles and bootstrap.sh.

tests/fixtures/compose-spec.json is the Compose specification's schema (compose-spec/compose-spec,
schema/compose-spec.json), vendored; tests/ops/test_compose_tool.py runs the real tool (Debian's docker-compose).
"""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import jsonschema
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker-compose.yml"


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load(COMPOSE.read_text())


def test_compose_file_is_valid_against_the_compose_specification(compose):
    schema = json.loads((ROOT / "tests" / "fixtures" / "compose-spec.json").read_text())
    jsonschema.validate(compose, schema, cls=jsonschema.Draft7Validator)


def test_the_schema_check_catches_a_wrong_compose_file(compose):
    """The validation means something: a misspelt key and a health check of the wrong type are refused."""
    schema = json.loads((ROOT / "tests" / "fixtures" / "compose-spec.json").read_text())
    broken = json.loads(json.dumps(compose))
    broken["services"]["web"]["helthcheck"] = {"test": "true"}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schema, cls=jsonschema.Draft7Validator)
    broken = json.loads(json.dumps(compose))
    broken["services"]["web"]["healthcheck"]["interval"] = ["15s"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schema, cls=jsonschema.Draft7Validator)


def test_every_service_has_a_health_check(compose):
    for name, service in compose["services"].items():
        check = service.get("healthcheck")
        assert check and check.get("test") and not check.get("disable"), f"service {name} has no health check"


def test_the_health_checks_use_the_probes(compose):
    """The web is healthy when /readyz answers 200; nginx when /healthz answers through it; each worker
    answers a ping addressed to its own node name, the one its start script gives it."""
    services = compose["services"]
    assert "http://127.0.0.1:8000/readyz" in services["web"]["healthcheck"]["test"]
    assert "http://127.0.0.1/healthz" in services["nginx"]["healthcheck"]["test"]
    for service, node, named in (("worker-cpu", "cpu@", '-n "cpu@%h"'), ("worker-exam", "exam@", '-n "exam@%h"'),
                                 ("worker-gpu", "gpu0@", '-n "gpu${gpu}@%h"')):  # the first GPU's worker
        test = " ".join(services[service]["healthcheck"]["test"])
        assert f"healthcheck worker {node}$$HOSTNAME" in test
        assert named in (ROOT / services[service]["command"][-1]).read_text()


def test_migrations_run_once_in_a_one_shot_service(compose):
    services = compose["services"]
    migrate = services["migrate"]
    assert migrate["restart"] == "no"
    assert "migrate --no-input" in (ROOT / migrate["command"][-1]).read_text()
    for name in ("web", "worker-cpu", "worker-exam", "worker-gpu", "beat"):
        assert services[name]["depends_on"]["migrate"] == {"condition": "service_completed_successfully"}, name
        script = (ROOT / services[name]["command"][-1]).read_text()
        assert "manage.py migrate" not in script, f"{name} migrates on start"


def test_the_web_tier_is_gunicorn_behind_nginx(compose):
    services = compose["services"]
    assert "gunicorn config.wsgi:application" in (ROOT / "platform" / "start-web.sh").read_text()
    assert "ports" not in services["web"], "the web is reached through nginx only"
    assert services["nginx"]["ports"] == ["80:80"]
    assert "./platform/nginx.conf:/etc/nginx/conf.d/default.conf:ro" in services["nginx"]["volumes"]
    conf = (ROOT / "platform" / "nginx.conf").read_text()
    assert "server web:8000" in conf and "X-Request-ID $request_id" in conf
    assert re.search(r"location = /metrics \{ return 404; \}", conf), "metrics are not served through nginx"


def test_nginx_holds_thousands_of_open_pages_per_worker_process(compose):
    """platform/nginx-main.conf replaces the image's main file (1024 connections per worker process,
    about 950 open pages: docs/scaling.md) and keeps its file limit at twice the connections."""
    assert "./platform/nginx-main.conf:/etc/nginx/nginx.conf:ro" in compose["services"]["nginx"]["volumes"]
    main = (ROOT / "platform" / "nginx-main.conf").read_text()
    connections = int(re.search(r"worker_connections\s+(\d+);", main)[1])
    assert connections >= 4096
    assert int(re.search(r"worker_rlimit_nofile\s+(\d+);", main)[1]) >= 2 * connections
    assert "include /etc/nginx/conf.d/*.conf;" in main and "keepalive_timeout  65;" in main


def test_secrets_come_from_the_environment_with_no_default(compose):
    """Every secret is `${NAME:?message}` (compose stops when it is unset or empty); no literal password."""
    text = COMPOSE.read_text()
    for name in ("SECRET_KEY", "POSTGRES_PASSWORD", "WARPDRILL_SEED_SECRET", "WARPDRILL_METRICS_TOKEN"):
        assert re.search(r"\$\{" + name + r":\?[^}]+\}", text), name
        assert not re.search(r"\$\{" + name + r":-", text), f"{name} has a default"
    assert "warpdrill:warpdrill@" not in text and "POSTGRES_PASSWORD: warpdrill" not in text
    env_files = [ROOT / "platform" / "app.env"]
    for path in env_files:
        keys = {line.split("=", 1)[0] for line in path.read_text().splitlines() if "=" in line and not line.startswith("#")}
        assert not keys & {"SECRET_KEY", "POSTGRES_PASSWORD", "DATABASE_URL", "WARPDRILL_SEED_SECRET"}, path
    assert ".env" in (ROOT / ".dockerignore").read_text().split(), "the secrets file must never enter an image"


def _packages(tag: str) -> list[str]:
    out = subprocess.run(["bash", "platform/system-packages.sh", tag], cwd=ROOT, capture_output=True, text=True,
                         check=True)
    return out.stdout.split()


def _listed() -> list[tuple[str, set[str]]]:
    rows = []
    for line in (ROOT / "platform" / "system-packages.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            pkg, tags, _check = line.split(None, 2)
            rows.append((pkg, set(tags.split(","))))
    return rows


@pytest.mark.parametrize("dockerfile, tag", [("platform/Dockerfile", "web"), ("platform/Dockerfile.gpu-worker", "gpu")])
def test_the_dockerfiles_install_the_list_that_bootstrap_installs(dockerfile, tag):
    """One list: each Dockerfile's apt-get line takes its names from platform/system-packages.txt, and
    bootstrap.sh installs every tagged line of it (web, gpu, dev, browser)."""
    text = (ROOT / dockerfile).read_text()
    assert "COPY platform/system-packages.txt platform/system-packages.sh" in text
    assert f"$(bash /tmp/platform/system-packages.sh {tag})" in text
    installs = [m.group(0) for m in re.finditer(r"apt-get install[^&]*", text)]
    named = {w for cmd in installs for w in cmd.split() if re.fullmatch(r"[a-z0-9][a-z0-9.+-]+", w)}
    own = {"apt-get", "install", "python3.12", "python3.12-venv", "python3.12-dev", "build-essential", "cuda-sanitizer-13-0"}
    stray = named - own - set(_packages(tag))
    assert not stray, f"{dockerfile} installs {stray} outside platform/system-packages.txt"
    assert _packages(tag) == [pkg for pkg, tags in _listed() if tag in tags]
    bootstrap = (ROOT / "platform" / "bootstrap.sh").read_text()
    assert "platform/system-packages.sh --missing" in bootstrap and "tags=(web gpu dev)" in bootstrap
    assert not re.search(r"need_pkgs\+=\(", bootstrap), "bootstrap.sh names packages of its own"


def test_the_dockerfiles_and_bootstrap_install_the_same_python_packages():
    """requirements.txt, then requirements-nodeps.txt without dependencies (django-prometheus, whose
    declared Django range lags ours), in both images and in bootstrap.sh."""
    for path in ("platform/Dockerfile", "platform/Dockerfile.gpu-worker", "platform/bootstrap.sh"):
        text = (ROOT / path).read_text()
        assert re.search(r"pip install (-q |--no-cache-dir )*-r requirements\.txt", text), path
        assert re.search(r"pip install (-q |--no-cache-dir )*--no-deps -r requirements-nodeps\.txt", text), path
        assert text.index("-r requirements-nodeps.txt") > text.index("-r requirements.txt"), path
    listed = [line.split("==")[0] for line in (ROOT / "requirements-nodeps.txt").read_text().splitlines()
              if line.strip() and not line.startswith("#")]
    assert listed == ["django-prometheus"]


def test_bootstrap_installs_only_what_is_missing(tmp_path):
    """--missing prints the packages whose check fails: a command that is absent is listed, one present is not."""
    listing = tmp_path / "platform"
    listing.mkdir()
    (listing / "system-packages.sh").write_text((ROOT / "platform" / "system-packages.sh").read_text())
    (listing / "system-packages.txt").write_text("bash-pkg  web  cmd:bash\nnope-pkg  web  cmd:no-such-command-xyz\n"
                                                 "file-pkg  dev  file:/no/such/file\n")
    out = subprocess.run(["bash", str(listing / "system-packages.sh"), "--missing", "web", "dev"], capture_output=True,
                         text=True, check=True)
    assert out.stdout.split() == ["nope-pkg", "file-pkg"]


def test_the_web_pools_its_postgres_connections_and_the_workers_do_not(compose):
    """DB_POOL=true gives each process psycopg's pool (Django's OPTIONS["pool"], CONN_MAX_AGE 0); compose
    turns it on for the web only (a prefork worker must not inherit a pool across fork)."""
    import os
    import sys

    code = ("import django; django.setup(); from django.conf import settings; d = settings.DATABASES['default']; "
            "print(repr((d.get('OPTIONS', {}).get('pool'), d['CONN_MAX_AGE'])))")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "DB_"))}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", DATABASE_URL="postgres://u:p@127.0.0.1:5432/x",
               DB_POOL="true", DB_POOL_MAX_SIZE="2")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == "({'min_size': 1, 'max_size': 2, 'timeout': 10.0}, 0)"
    services = compose["services"]
    assert services["web"]["environment"]["DB_POOL"] == "true"
    assert services["web"]["environment"]["SECRET_KEY"].startswith("${SECRET_KEY:?")
    for name in ("worker-cpu", "worker-exam", "worker-gpu", "beat"):
        assert "DB_POOL" not in (services[name].get("environment") or {}), name
    app_env = (ROOT / "platform" / "app.env").read_text().splitlines()
    assert not [line for line in app_env if line.startswith("DB_POOL")], "app.env is every service's"
