"""A kernel that fills the disk with files, each under the file-size limit, is stopped with a clear
"disk limit" result, and the same backend then grades a correct submission ACCEPTED.

Writing files needs code that defeats the static checks (every file function is refused), so the
test stands in for such code: the build's binary is swapped for a native program that writes 1 MiB
files into its work folder forever, run by the real emulator backend in the real sandbox.
"""
from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

import pytest

from grader.core import sandbox
from grader.core.backends.emulator import EmulatorBackend
from grader.core.emulator import jobs
from grader.core.judge import judge
from grader.core.verdicts import Verdict

from .test_hostile import CORRECT, PACKAGE, everything_said
from .test_hostile import backend  # noqa: F401  (the shared module-scoped emulator backend)
from .watch import Watch

pytestmark = pytest.mark.skipif(not sandbox.box.DEFAULT.works(), reason=f"no sandbox here: {sandbox.box.DEFAULT.probe()}")

REPO = Path(__file__).resolve().parents[2]
# 1 MiB files until the box is stopped; at most 4 GiB, so a missing cap fails instead of filling the disk.
DISK_FILLER = r"""
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(void) {
    static char block[1 << 20];
    memset(block, 7, sizeof block);
    for (int i = 0; i < 4096; i++) {
        char name[32];
        snprintf(name, sizeof name, "fill%d", i);
        int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd < 0 || write(fd, block, sizeof block) != (ssize_t)sizeof block) return 3;
        close(fd);
    }
    return 0;
}
"""


@pytest.fixture(scope="module")
def filler(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("filler")
    (folder / "filler.c").write_text(DISK_FILLER)
    subprocess.run(["gcc", "-O1", "-o", str(folder / "filler"), str(folder / "filler.c")], check=True)
    return folder / "filler"


class DiskFillingBackend(EmulatorBackend):
    """The emulator backend, with every successful build's binary replaced by `filler`."""

    def __init__(self, real: EmulatorBackend, filler: Path):
        super().__init__(cache_dir=real.cache_dir, workers=real.workers)
        self.filler = filler

    def compile(self, source, spec):
        build = super().compile(source, spec)
        if build.compile.ok:
            build.handle.binaries["fast"] = self.filler
        return build


def test_kernel_writing_many_files_is_stopped_at_the_disk_limit(backend, filler, monkeypatch, tmp_path):  # noqa: F811
    """RUNTIME_ERROR naming the disk limit, not a platform fault or a time limit; nothing outside the
    box changed, no work folder is left, and the next submission is graded ACCEPTED."""
    runs = tmp_path / "runs"
    runs.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(runs))  # the backend's work folders go here
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "canary.txt").write_text("CANARY-disk secret\n")
    watch = Watch(REPO, outside)

    result = judge(PACKAGE, CORRECT, DiskFillingBackend(backend, filler))
    said = everything_said(result)
    assert result.verdict is Verdict.RUNTIME_ERROR, said[:2000]
    assert "disk limit" in said and "was stopped" in said, said[:2000]
    # The limit is the first test case's: its output buffer (a few KiB) plus the slack.
    assert f"more than {jobs.RUN_DISK_SLACK_BYTES >> 20} MiB of files" in said, said[:2000]
    assert [p.name for p in runs.iterdir() if p.name != "warpdrill-cache"] == [], "work folders left behind"
    watch.assert_unchanged()

    after = judge(PACKAGE, CORRECT, backend)
    assert after.verdict is Verdict.ACCEPTED, everything_said(after)[:2000]


def test_the_disk_allowance_covers_every_output_buffer():
    """One .out copy of each OUT/INOUT buffer (a 2-D one counted whole), its write-map side file, plus
    the slack for logs."""
    import numpy as np

    from grader.core.emulator import writemap as wm

    outputs = {"c": ("a2.bin", (1025,), np.dtype(np.float32)), "m": ("a3.bin", (64, 32), np.dtype(np.int64))}
    assert jobs.disk_allowance(outputs) == (jobs.RUN_DISK_SLACK_BYTES + 1025 * 4 + 64 * 32 * 8
                                            + wm.side_file_bytes(1025) + wm.side_file_bytes(64 * 32))
    assert wm.side_file_bytes(1025) >= 1025 * 5  # a last writer (int32) and a count (uint8) per element
