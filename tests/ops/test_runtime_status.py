"""The last line of bootstrap.sh (make dev) says where the emulator runtime really is: ready when the log
says so (a copy from the cache takes 0.0 s), "still building" only while a build runs."""
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "platform" / "runtime-status.sh"
COPIED = ("emulator runtime 3f2a: ready (from /home/u/.cache/warpdrill/emulator or this checkout's cache)\n"
          "emulator runtime 3f2a: plain (1/3) in 0.0 s\nemulator runtime 3f2a: checked (2/3) in 0.0 s\n"
          "emulator runtime 3f2a: writemap (3/3) in 0.0 s\nemulator backend ready (0.1 s)\n")
BUILDING = "emulator runtime 3f2a: building plain (1/3) ...\n"


def status(pid: int, log: Path) -> str:
    return subprocess.run(["bash", str(SCRIPT), str(pid), str(log)], capture_output=True, text=True,
                          check=True).stdout.strip()


@pytest.fixture
def running():
    proc = subprocess.Popen(["sleep", "30"])
    yield proc.pid
    proc.kill()
    proc.wait()


@pytest.fixture
def ended():
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def test_a_runtime_copied_from_the_cache_is_ready(tmp_path, ended):
    log = tmp_path / "runtime.log"
    log.write_text(COPIED)
    line = status(ended, log)
    assert line.startswith("the emulator runtime is ready (emulator backend ready (0.1 s)") and "building" not in line


def test_a_build_that_runs_is_still_building(tmp_path, running):
    log = tmp_path / "runtime.log"
    log.write_text(BUILDING)
    assert "still building" in status(running, log)


def test_before_a_build_starts_it_is_being_prepared_not_building(tmp_path, running):
    log = tmp_path / "runtime.log"
    log.write_text("")
    line = status(running, log)
    assert "being prepared" in line and "building" not in line


def test_an_ended_step_without_ready_is_a_failure(tmp_path, ended):
    log = tmp_path / "runtime.log"
    log.write_text(BUILDING + "g++: fatal error: Killed signal terminated program cc1plus\n")
    assert "FAILED" in status(ended, log)


def test_bootstrap_says_the_status_instead_of_assuming_a_build():
    text = (ROOT / "platform" / "bootstrap.sh").read_text()
    assert "platform/runtime-status.sh" in text
    assert 'say "set up; the emulator runtime is still building' not in text
