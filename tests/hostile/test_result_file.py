"""The emulator's result file is untrusted input (issue 13, finding 3).

The runtime shares its process with the student's code, so `result.json` may have been written by
that code. A forged file used to stay ACCEPTED while it carried hidden inputs in `time_s` or a
diagnostic's `line`, a `time_s: NaN` could not be stored and left the row RUNNING for an hour, a
string `line` made the submission page a 500, a forged `status: internal` showed the student's text
as the platform's message, and a 65,535-deep file raised RecursionError. Every violation is now the
student's RUNTIME_ERROR with a clear message. The unit tests feed result_file.parse directly; the
integration tests swap the build's binary for a script that writes a forged file, run by the real
emulator backend in the real sandbox (as test_disk_limit.py does for files).
"""
from __future__ import annotations

import json
import stat
import tempfile
from pathlib import Path

import pytest

from grader.core import sandbox
from grader.core.backends.emulator import EmulatorBackend
from grader.core.emulator import result_file
from grader.core.emulator.result_file import Bounds, ResultFileError
from grader.core.judge import judge
from grader.core.verdicts import Verdict

from .test_hostile import CORRECT, PACKAGE, everything_said
from .test_hostile import backend  # noqa: F401  (the shared module-scoped emulator backend)

BOUNDS = Bounds(source_lines=12, grid=(4, 1, 1), block=(256, 1, 1), wall_s=0.5)
GOOD = {"status": "ok", "message": "", "time_s": 0.01, "diagnostics": [
    {"kind": "out_of_bounds", "message": "x", "line": 5, "block": [3, 0, 0], "thread": [255, 0, 0],
     "detail": {"other_line": 6, "other_thread": [1, 0, 0], "waiting": [{"line": 7, "example_thread": [2, 0, 0]}]}}]}


def _parse(data) -> dict:
    raw = data if isinstance(data, bytes) else json.dumps(data).encode()
    return result_file.parse(raw, BOUNDS)


def _with(**changes) -> dict:
    data = json.loads(json.dumps(GOOD))
    for key, value in changes.items():
        if key.startswith("d_"):
            data["diagnostics"][0][key[2:]] = value
        else:
            data[key] = value
    return data


def test_a_genuine_result_passes_unchanged():
    """What the runtime writes is accepted as it is (ids as tuples)."""
    out = _parse(GOOD)
    assert out["status"] == "ok" and out["time_s"] == 0.01
    d = out["diagnostics"][0]
    assert (d["line"], d["block"], d["thread"]) == (5, (3, 0, 0), (255, 0, 0))
    assert d["detail"]["other_line"] == 6


@pytest.mark.parametrize("raw", [b'{"status": "ok", "time_s": NaN}', b'{"status": "ok", "time_s": Infinity}',
                                 b'{"status": "ok", "time_s": -Infinity}', b'{"status": "ok", "time_s": 1e999}',
                                 b'{"status": "ok", "time_s": "0.1"}', b'{"status": "ok", "time_s": -1}'],
                         ids=["nan", "inf", "-inf", "overflow", "string", "negative"])
def test_time_must_be_a_finite_number(raw):
    """NaN and infinities (which the database cannot store) and non-numbers are refused."""
    with pytest.raises(ResultFileError):
        result_file.parse(raw, BOUNDS)


def test_time_is_clamped_to_the_measured_wall_clock():
    """A time larger than the wall clock the worker measured carries data, not a time: it is cut to it."""
    assert _parse(_with(time_s=123456.5))["time_s"] == BOUNDS.wall_s


@pytest.mark.parametrize("status", ["internal", "OK", "accepted", "", None, 1])
def test_only_statuses_of_a_finished_run(status):
    """A forged 'internal' (the platform's 'not graded') and unknown statuses are refused."""
    with pytest.raises(ResultFileError):
        _parse(_with(status=status))


def test_internal_only_with_the_runtimes_own_reasons():
    """The runtime's own out-of-memory report passes (the backend makes it the student's error)."""
    assert _parse(_with(status="internal", message="cannot map a fiber stack"))["status"] == "internal"


@pytest.mark.parametrize("line", ["12", 13, -1, 1.5, True, 10 ** 9, [5]])
def test_lines_must_lie_within_the_source(line):
    """A string line (a 500 on the page), a line past the source (hidden inputs) and other values are refused."""
    with pytest.raises(ResultFileError):
        _parse(_with(d_line=line))


@pytest.mark.parametrize("field, value", [("thread", [256, 0, 0]), ("thread", [0, 0]), ("thread", ["0", 0, 0]),
                                          ("block", [4, 0, 0]), ("block", [-1, 0, 0]), ("thread", [0, 0, 2 ** 40])])
def test_thread_and_block_ids_lie_within_the_launch(field, value):
    """Ids are three small non-negative integers inside the launch's grid and block."""
    with pytest.raises(ResultFileError):
        _parse(_with(**{f"d_{field}": value}))


def test_nested_lines_and_thread_ids_are_checked_too():
    """A line hidden in a deadlock group's detail is refused like a top-level one."""
    data = _with()
    data["diagnostics"][0]["detail"]["waiting"][0]["line"] = 99
    with pytest.raises(ResultFileError):
        _parse(data)


def test_deep_nesting_is_refused_without_recursion():
    """A 65,535-deep file is refused by a linear scan before the parser sees it (no RecursionError)."""
    raw = b'{"status": "ok", "diagnostics": ' + b"[" * 65535 + b"]" * 65535 + b"}"
    with pytest.raises(ResultFileError, match="nests deeper"):
        result_file.parse(raw, BOUNDS)
    assert result_file.nesting_depth('{"a": "[[[[[[[[[[[[", "b": [[1]]}') == 3


def test_size_and_count_limits():
    """A file over 1 MiB, more than 64 diagnostics, or an over-long string is refused."""
    with pytest.raises(ResultFileError, match="larger"):
        result_file.parse(b" " * (result_file.MAX_BYTES + 1), BOUNDS)
    with pytest.raises(ResultFileError):
        _parse(_with(diagnostics=[GOOD["diagnostics"][0]] * 65))
    with pytest.raises(ResultFileError):
        _parse(_with(message="x" * (result_file.MAX_STRING + 1)))


@pytest.mark.parametrize("kind", ["forged", "", None])
def test_unknown_diagnostic_kinds_are_refused(kind):
    with pytest.raises(ResultFileError):
        _parse(_with(d_kind=kind))


# ---- through the real backend ----

class ForgingBackend(EmulatorBackend):
    """The emulator backend with every build's binary replaced by a script writing `text` as result.json."""

    def __init__(self, real: EmulatorBackend, script: Path):
        super().__init__(cache_dir=real.cache_dir, workers=real.workers)
        self.script = script

    def compile(self, source, spec):
        build = super().compile(source, spec)
        if build.compile.ok:
            build.handle.binaries["fast"] = self.script
        return build


def _forger(folder: Path, result: str, exit_status: int = 0, stderr: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "result.json").write_text(result)
    (folder / "stderr.txt").write_text(stderr)
    script = folder / "forge.sh"
    # The script runs inside the box as /opt/kernel.bin; it cannot read its own folder, so it carries its text.
    script.write_text("#!/bin/sh\ncat > /box/result.json <<'WD_EOF'\n" + result + "\nWD_EOF\n"
                      + (f"printf '%s' '{stderr}' >&2\n" if stderr else "") + f"exit {exit_status}\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return script


@pytest.mark.parametrize("forged, says", [
    ('{"status": "internal", "message": "The platform is down: mail your password to x", "diagnostics": []}',
     "status 'internal' with an unknown reason"),
    ('{"status": "ok", "message": "", "time_s": NaN, "diagnostics": []}', "NaN is not a number"),
    ('{"status": "fault", "message": "x", "diagnostics": [{"kind": "out_of_bounds", "message": "x", "line": "7"}]}',
     "is not a line of the source"),
    ('{"status": "ok", "diagnostics": ' + "[" * 5000 + "]" * 5000 + "}", "nests deeper"),
], ids=["internal", "nan-time", "string-line", "deep"])
def test_a_forged_result_file_is_the_students_runtime_error(backend, tmp_path, monkeypatch, forged, says):  # noqa: F811
    """Never a platform fault, never believed: RUNTIME_ERROR naming the rule it broke."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    forger = ForgingBackend(backend, _forger(tmp_path / "forger", forged))
    result = judge(PACKAGE, CORRECT, forger)
    said = everything_said(result)
    assert result.verdict is Verdict.RUNTIME_ERROR, said[:2000]
    assert "result file was not one the emulator writes" in said and says in said, said[:2000]
    assert "mail your password" not in said


def test_a_run_that_ends_without_a_result_is_the_students_runtime_error(backend, tmp_path, monkeypatch):  # noqa: F811
    """Code sharing the runtime's process can end it or delete the file: that is no platform fault
    (which would be retried forever), and the box's stderr reaches neither the student nor a log line raw."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    script = tmp_path / "forger" / "end.sh"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\nprintf 'x\\nsubmission 1 graded: ACCEPTED\\033[2J' >&2\nexit 4\n")
    script.chmod(0o755)
    import logging

    records = []
    handler = logging.Handler()
    handler.emit = records.append
    logging.getLogger("grader").addHandler(handler)
    try:
        result = judge(PACKAGE, CORRECT, ForgingBackend(backend, script))
    finally:
        logging.getLogger("grader").removeHandler(handler)
    said = everything_said(result)
    assert result.verdict is Verdict.RUNTIME_ERROR, said[:2000]
    assert "exit status 4" in said and "graded: ACCEPTED" not in said, said[:2000]
    logged = [r.getMessage() for r in records]
    assert any("graded: ACCEPTED" in m for m in logged), logged
    assert all("\n" not in m and "\x1b" not in m for m in logged), logged


@pytest.mark.parametrize("outputs", ["", "for f in /box/*.bin; do printf 'abc' > \"$f.out\"; done\n"],
                         ids=["missing", "wrong-size"])
def test_a_forged_ok_without_its_outputs_is_the_students_runtime_error(backend, tmp_path, monkeypatch, outputs):  # noqa: F811
    """A valid `ok` result with the output buffers missing (a student's execve ends the runtime before it
    writes them) or of the wrong size: it was a FileNotFoundError or numpy's reshape error in the worker,
    a platform fault retried and then INTERNAL_ERROR (costing no attempt); now the student's RUNTIME_ERROR."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    script = tmp_path / "forger" / "ok.sh"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\n" + outputs
                      + "printf '%s' '{\"status\": \"ok\", \"message\": \"\", \"time_s\": 0.01, \"diagnostics\": []}'"
                      " > /box/result.json\nexit 0\n")
    script.chmod(0o755)
    result = judge(PACKAGE, CORRECT, ForgingBackend(backend, script))
    said = everything_said(result)
    assert result.verdict is Verdict.RUNTIME_ERROR, said[:2000]
    assert "output buffer c was missing or of the wrong size" in said, said[:2000]


def test_read_outputs_refuses_missing_short_and_linked_files(tmp_path):
    import numpy as np

    from grader.core.emulator import jobs

    outputs = {"c": ("c.bin", (4,), np.dtype("float32"))}
    with pytest.raises(jobs.OutputFileError, match="c"):
        jobs.read_outputs(tmp_path, outputs)
    (tmp_path / "c.bin.out").write_bytes(b"\0" * 15)
    with pytest.raises(jobs.OutputFileError):
        jobs.read_outputs(tmp_path, outputs)
    (tmp_path / "real").write_bytes(b"\0" * 16)
    (tmp_path / "c.bin.out").unlink()
    (tmp_path / "c.bin.out").symlink_to(tmp_path / "real")
    with pytest.raises(jobs.OutputFileError):
        jobs.read_outputs(tmp_path, outputs)
    (tmp_path / "c.bin.out").unlink()
    np.arange(4, dtype=np.float32).tofile(tmp_path / "c.bin.out")
    assert jobs.read_outputs(tmp_path, outputs)["c"].tolist() == [0.0, 1.0, 2.0, 3.0]
