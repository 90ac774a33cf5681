"""The box's work folder is on the host's disk: what a box adds to it is capped in all.

RLIMIT_FSIZE caps each file; these programs stay under it and write many files instead, or many
empty ones, or folders nested without end. The sandbox's watchdog measures the work folder from
outside and kills the box past `disk_bytes` or `disk_entries` (or past DISK_MAX_DEPTH levels).
"""
from __future__ import annotations

import pytest

from grader.core import sandbox
from tests.sandbox.run import run_box

pytestmark = pytest.mark.skipif(not sandbox.box.DEFAULT.works(), reason=f"no sandbox here: {sandbox.box.DEFAULT.probe()}")

MIB = 1 << 20
# Writes 1 MiB files, each well under the file-size limit: 256 MiB in all unless something stops it
# first (bounded, so that a broken watchdog fails the test instead of filling the disk).
MANY_FILES = "i=0; while [ $i -lt 256 ]; do head -c 1048576 /dev/zero > f$i || exit 3; i=$((i+1)); done"


@pytest.fixture
def box(tmp_path):
    """run(shell command, **limits) in a box over a fresh work folder; .work is that folder."""
    work = tmp_path / "work"
    work.mkdir()

    def run(command: str, time_limit_s: float = 30.0, **kwargs):
        return run_box(["/bin/sh", "-c", command], work, time_limit_s, **kwargs)

    run.work = work
    return run


def test_many_files_under_the_file_size_limit_are_stopped_at_the_disk_limit(box, tmp_path):
    """1 MiB files under a 2 MiB file-size limit: killed by the disk watchdog, long before the wall
    clock, without ever reaching the file-size limit; a fresh box then runs normally."""
    res = box(MANY_FILES, file_bytes=2 * MIB, disk_bytes=16 * MIB)
    assert res.disk_exceeded and not res.timed_out and not res.memory_exceeded, res
    assert res.returncode != 0
    used, entries, _ = sandbox.directory_usage(box.work)
    assert used > 16 * MIB and entries > 16  # it really wrote past the cap before it was stopped

    fresh = tmp_path / "next"
    fresh.mkdir()
    after = run_box(["/bin/sh", "-c", "head -c 1048576 /dev/zero > f; echo ok"], fresh, 30.0,
                                  disk_bytes=16 * MIB)
    assert after.returncode == 0 and after.stdout == "ok\n" and not after.disk_exceeded


def test_many_empty_files_are_stopped_at_the_entry_limit(box):
    """Empty files use no bytes but use inodes: the entry cap stops them."""
    res = box("i=0; while [ $i -lt 20000 ]; do : > e$i || exit 3; i=$((i+1)); done", disk_entries=200)
    assert res.disk_exceeded and not res.timed_out, res
    assert sandbox.directory_usage(box.work)[1] > 200


def test_folders_nested_without_end_are_stopped(box):
    """mkdir + cd forever would outgrow any path the watchdog could read: deeper than DISK_MAX_DEPTH stops it."""
    res = box("i=0; while [ $i -lt 2000 ]; do mkdir d && cd d || exit 3; i=$((i+1)); done", disk_entries=None)
    assert res.disk_exceeded and not res.timed_out, res


def test_what_the_worker_put_there_and_writes_under_the_cap_are_allowed(box):
    """The cap counts what the box adds: 32 MiB of inputs already there and a 5 MiB output pass a 16 MiB cap."""
    (box.work / "input.bin").write_bytes(b"\1" * (32 * MIB))
    res = box("head -c 5000000 /dev/zero > out.bin && cat input.bin > /dev/null && echo ok", disk_bytes=16 * MIB)
    assert res.returncode == 0 and res.stdout == "ok\n" and not res.disk_exceeded, res
    assert (box.work / "out.bin").stat().st_size == 5000000


def test_unsafe_mode_keeps_the_disk_limit(box, monkeypatch):
    """Without bubblewrap (development only) the same watchdog still stops the writer."""
    monkeypatch.setattr(sandbox.box, "DEFAULT", sandbox.Sandbox(bwrap="/nonexistent/bwrap", allow_unsafe=True))
    res = box(MANY_FILES, file_bytes=2 * MIB, disk_bytes=8 * MIB)
    assert not res.sandboxed and res.disk_exceeded and not res.timed_out, res
