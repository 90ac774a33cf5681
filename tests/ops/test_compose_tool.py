"""docker-compose.yml through a real Compose tool: Debian's docker-compose (1.29, platform/system-packages.txt,
installed by bootstrap.sh) parses, interpolates and validates the file with `config`, which needs no
Docker daemon. tests/ops/test_stack.py checks the file against the Compose specification's schema;
this checks what the tool an operator runs makes of it (interpolation of the secrets, profiles,
depends_on conditions, env_file paths).
"""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
SECRETS = ("SECRET_KEY", "POSTGRES_PASSWORD", "WARPDRILL_SEED_SECRET", "WARPDRILL_METRICS_TOKEN")


def compose_tool() -> str:
    tool = shutil.which("docker-compose")
    assert tool, "docker-compose is not installed (platform/bootstrap.sh installs it: platform/system-packages.txt)"
    return tool


def run_config(tmp_path: Path, *args: str, env_values: dict[str, str] | None = None, compose_file: Path | None = None):
    """`docker-compose --env-file <filled env.example> -f <file> --project-directory ROOT config ARGS`."""
    values = {name: f"test-{name.lower()}" for name in SECRETS} | (env_values or {})
    lines = []
    for line in (ROOT / "platform" / "env.example").read_text().splitlines():
        name = line.split("=", 1)[0]
        lines.append(f"{name}={values[name]}" if not line.startswith("#") and name in values else line)
    env_file = tmp_path / "compose.env"
    env_file.write_text("\n".join(lines) + "\n")
    env = {k: v for k, v in os.environ.items() if k not in SECRETS and not k.startswith(("COMPOSE_", "DOCKER_"))}
    cmd = [compose_tool(), "--env-file", str(env_file), "-f", str(compose_file or ROOT / "docker-compose.yml"),
           "--project-directory", str(ROOT), *args]
    return subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)


def test_docker_compose_accepts_the_file_and_resolves_it(tmp_path):
    out = run_config(tmp_path, "config")
    assert out.returncode == 0, out.stderr
    resolved = yaml.safe_load(out.stdout)
    services = resolved["services"]
    assert services["worker-gpu"]["profiles"] == ["gpu"]  # started only with --profile gpu
    assert not any(service.get("profiles") for name, service in services.items() if name != "worker-gpu")
    assert services["web"]["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    assert services["web"]["environment"]["SECRET_KEY"] == "test-secret_key"  # interpolated from the env file
    assert all(service.get("healthcheck", {}).get("test") for service in services.values())
    for name in ("worker-cpu", "worker-exam", "worker-gpu"):  # bubblewrap inside the container (compose's note)
        assert {"seccomp=unconfined", "apparmor=unconfined", "systempaths=unconfined"} <= set(services[name]["security_opt"])
        assert "SYS_ADMIN" in services[name]["cap_add"]
    assert set(services) == {"postgres", "redis", "migrate", "web", "nginx", "worker-cpu", "worker-exam", "worker-gpu", "beat"}


@pytest.mark.parametrize("secret", SECRETS)
def test_docker_compose_refuses_a_missing_secret(tmp_path, secret):
    out = run_config(tmp_path, "config", "-q", env_values={secret: ""})
    assert out.returncode != 0 and f"set {secret}" in out.stderr, out.stderr


def test_docker_compose_refuses_a_wrong_file(tmp_path):
    """The tool's own validation means something: a misspelt key and a health check of the wrong type."""
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    for mutate in (lambda c: None,  # the same file rewritten: accepted (the test's own control)
                   lambda c: c["services"]["web"].update(helthcheck={"test": "true"}),
                   lambda c: c["services"]["web"]["healthcheck"].update(interval=["15s"])):
        broken = yaml.safe_load(yaml.safe_dump(compose))
        mutate(broken)
        path = tmp_path / "broken-compose.yml"
        path.write_text(yaml.safe_dump(broken))
        out = run_config(tmp_path, "config", "-q", compose_file=path)
        if broken == compose:
            assert out.returncode == 0, out.stderr
        else:
            assert out.returncode != 0 and "is invalid" in out.stderr, f"docker-compose accepted {broken['services']['web']}"
