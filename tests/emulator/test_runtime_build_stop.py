"""A worker told to stop (Ctrl+C in `make dev`) stops its emulator runtime build at once: the build's
compilers end, the build raises BuildStoppedError (not "does not compile"), no build starts after it,
and the worker's preparation thread logs it at INFO, never as an ERROR."""
from __future__ import annotations

import logging
import shutil
import threading
import time

import pytest

from grader.core.emulator import toolchain

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")


@pytest.fixture
def fresh_stop_state(monkeypatch):
    """stop_builds is for good in a worker; a test gets a stop flag of its own."""
    monkeypatch.setattr(toolchain, "_stopping", threading.Event())


def test_stop_builds_ends_the_compilers_and_no_build_starts_after_it(tmp_path, fresh_stop_state):
    outcome = {}

    def build():
        try:
            toolchain.build_runtime(tmp_path, "fast")
        except Exception as exc:  # noqa: BLE001 - the test reads which
            outcome["error"] = exc

    thread = threading.Thread(target=build)
    thread.start()
    deadline = time.monotonic() + 30
    while not toolchain._builds and time.monotonic() < deadline:
        time.sleep(0.05)
    compilers = list(toolchain._builds)
    assert compilers, "the build started no compiler"
    toolchain.stop_builds()
    thread.join(timeout=30)
    assert not thread.is_alive()
    assert isinstance(outcome.get("error"), toolchain.BuildStoppedError)
    assert all(p.poll() is not None for p in compilers) and not toolchain._builds
    assert not list(tmp_path.glob("runtime-*/.done-*"))  # nothing half-built is taken for a runtime
    with pytest.raises(toolchain.BuildStoppedError):
        toolchain.build_runtime(tmp_path, "fast")


def test_a_stopped_preparation_is_no_error(monkeypatch, caplog):
    from grader import tasks

    class Stopped:
        def prepare(self):
            raise toolchain.BuildStoppedError("the runtime build was stopped: the worker is stopping")

    monkeypatch.setattr(tasks, "get_backend", lambda: Stopped())
    with caplog.at_level(logging.INFO, logger=tasks.log.name):
        tasks._prepare_logged()
    assert [r.levelname for r in caplog.records] == ["INFO"]
