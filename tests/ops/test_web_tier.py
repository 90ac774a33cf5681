"""The web tier as production runs it: gunicorn with platform/gunicorn.conf.py (several worker processes),
prometheus-client's multiprocess mode (PROMETHEUS_MULTIPROC_DIR), JSON access lines with the request id."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.conftest import ROOT, worker_env

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def get(url: str, headers: dict | None = None) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=20) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


@pytest.mark.parametrize("workers, threads", [("3", "1"), ("2", "3")], ids=["sync", "gthread"])
def test_gunicorn_workers_share_their_metrics_and_log_json_access_lines(transactional_db, tmp_path, workers, threads):
    """With sync workers (WEB_THREADS=1) and gthread workers (WEB_THREADS>1) alike, /metrics counts every
    worker's requests and each request is one JSON access line carrying its request id."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    (tmp_path / "metrics").mkdir()
    env = worker_env(WEB_BIND=f"127.0.0.1:{port}", WEB_WORKERS=workers, WEB_THREADS=threads, PROMETHEUS_MULTIPROC_DIR=str(tmp_path / "metrics"))
    proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "config.wsgi:application", "-c", "platform/gunicorn.conf.py"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                if get(f"{base}/healthz")[0] == 200:
                    break
            except OSError:
                time.sleep(0.5)
        else:
            raise AssertionError("gunicorn did not answer")
        for k in range(30):  # spread over the workers by the kernel's accept()
            assert get(f"{base}/no-such-page-{k}/", {"X-Request-ID": f"probe-request-{k:04d}"})[0] == 404
        status, body = get(f"{base}/metrics")  # loopback, no token configured
        assert status == 200
        samples = [s for f in text_string_to_metric_families(body.decode()) for s in f.samples]
        not_found = sum(s.value for s in samples if s.name == "django_http_responses_total_by_status_total"
                        and s.labels == {"status": "404"})
        assert not_found == 30, not_found
    finally:
        os.killpg(proc.pid, 15)
        out = proc.communicate(timeout=30)[0]
    assert ("Using worker: gthread" in out) == (threads != "1"), out[-3000:]
    access = [json.loads(line) for line in out.splitlines() if line.startswith('{"ts"') and "gunicorn.access" in line]
    ids = {a["request_id"] for a in access if a["status"] == 404}
    assert {f"probe-request-{k:04d}" for k in range(30)} <= ids, out[-3000:]
