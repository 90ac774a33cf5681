"""Ctrl+C stops `make dev` cleanly: honcho's SIGINT ends every process of Procfile.dev by itself, the
Celery workers with their warm shutdown (platform/dev-run.sh passes SIGTERM to the worker's main
process alone, and the dev broker waits for messages in short slices), so honcho never has to SIGKILL
them and no ERROR is logged. Before, honcho's SIGTERM to each whole process group reached the pool
processes too ("Process 'ForkPoolWorker-2' exited with 'signal 15 (SIGTERM)'" ERRORs), and the
workers' shutdown outlasted honcho's 5 s, so it SIGKILLed both."""
from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = [pytest.mark.integration, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
HONCHO = ROOT / ".venv" / "bin" / "honcho"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.skipif(not HONCHO.exists() or not shutil.which("setsid"), reason="needs honcho and setsid")
def test_ctrl_c_stops_every_process_of_make_dev_without_sigkill_or_errors(tmp_path):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DATABASE_URL", "CELERY_", "REDIS_URL", "DJANGO_SETTINGS", "PYTEST"))}
    # The dev defaults (SQLite, the filesystem broker) in a folder of the test's own; the checkout's
    # built emulator runtimes, so that the workers do not spend the test compiling.
    env.update(WARPDRILL_VAR_DIR=str(tmp_path), WARPDRILL_PORT=str(_free_port()),
               WARPDRILL_CACHE_DIR=str(ROOT / "var" / "cache"), PYTHONUNBUFFERED="1")
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True, timeout=300)
    log = tmp_path / "honcho.log"
    with open(log, "wb") as out:
        honcho = subprocess.Popen([str(HONCHO), "-d", str(ROOT), "start", "-f", str(ROOT / "Procfile.dev")],
                                  cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while "WarpDrill is ready" not in log.read_text(errors="replace"):
            assert honcho.poll() is None and time.monotonic() < deadline, log.read_text(errors="replace")
            time.sleep(0.5)
        time.sleep(8)  # the workers finish starting (their pools, the broker's folders)
        honcho.send_signal(signal.SIGINT)  # what Ctrl+C sends to honcho (its processes have sessions of their own)
        honcho.wait(timeout=60)
    finally:
        if honcho.poll() is None:
            os.killpg(honcho.pid, signal.SIGKILL)
    text = log.read_text(errors="replace")
    after = text[text.index("SIGINT received"):]
    assert "SIGKILL" not in after, after
    assert not re.search(r"ERROR|Traceback|exited with 'signal", text), text
    stopped = dict(re.findall(r"(\S+)\.1 stopped \(rc=(-?\d+)\)", after))
    assert stopped == {name: "0" for name in ("web", "worker", "worker-exam", "beat", "ready")}, after
    # Nothing of this run is left: no worker, pool process or compiler of its folder.
    left = subprocess.run(["pgrep", "-f", str(tmp_path)], capture_output=True, text=True).stdout.split()
    assert not left, left
