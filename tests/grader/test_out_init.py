"""`init: zeros` for out buffers a kernel accumulates into, and validate_problem's warning when a
solution reads a poisoned out buffer before writing it (issue 11)."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from grader.core import messages as M
from grader.core.backends.base import ArgInit, ArgRole, ArgSpec, KernelSpec, LaunchConfig
from grader.core.emulator import jobs
from grader.core.validate import validate_package
from grader.core.verdicts import Verdict
from problems.core.package import load_package

BANK = Path(__file__).resolve().parents[2] / "problems" / "bank"


def test_the_emulator_job_writes_zeros_for_an_init_zeros_buffer_and_poison_otherwise(tmp_path):
    """An `init: zeros` out buffer's input file is zero bytes; a plain out buffer's is 0xCD (integers)."""
    spec = KernelSpec("k", (ArgSpec("hist", ArgRole.OUT, "uint32", ArgInit.ZEROS),
                            ArgSpec("other", ArgRole.OUT, "uint32")))
    inputs = {"hist": np.empty(8, np.uint32), "other": np.empty(8, np.uint32)}
    jobs.write_job(tmp_path, spec, LaunchConfig((1, 1, 1), (8, 1, 1)), inputs, fibers=False, workers=1,
                   start_aligned=False, time_limit_s=1.0)
    assert (tmp_path / "a0.bin").read_bytes() == bytes(32)
    assert (tmp_path / "a1.bin").read_bytes() == bytes([jobs.INT_POISON]) * 32


@pytest.fixture(scope="module")
def emulator():
    from grader.core.backends.registry import get_backend

    return get_backend("emulator")


def _histogram(init: ArgInit):
    package = load_package(BANK / "histogram-atomics")
    args = tuple(replace(a, init=init) if a.name == "hist" else a for a in package.kernel.args)
    package = replace(package, kernel=replace(package.kernel, args=args), wrong=(), checks=())
    return package


@pytest.mark.slow
def test_a_histogram_into_a_zeroed_out_buffer_is_accepted_and_no_warning_is_given(emulator):
    """histogram-atomics declares `hist` as `out` with `init: zeros`: its solution is ACCEPTED."""
    package = _histogram(ArgInit.ZEROS)
    assert next(a for a in package.kernel.args if a.name == "hist").role is ArgRole.OUT
    [row] = validate_package(package, emulator)
    assert row.ok and row.warnings == []


@pytest.mark.slow
def test_validate_warns_when_the_solution_reads_a_poisoned_out_buffer_before_writing_it(emulator):
    """With `hist` poisoned, the accumulating solution fails, and its row names the buffer and the fix."""
    [row] = validate_package(_histogram(ArgInit.POISON), emulator)
    assert row.result.verdict is Verdict.WRONG_ANSWER
    assert [w.to_dict() for w in row.warnings] == [
        {"code": "VALIDATE_OUT_READ_BEFORE_WRITE", "params": {"file": "solution.cu", "name": "hist"}}]
    assert "declare it `init: zeros`" in row.warnings[0]


def test_validate_problem_prints_a_rows_warnings(monkeypatch):
    """`manage.py validate_problem` writes each warning of a row, rendered from its code and parameters."""
    from io import StringIO
    from types import SimpleNamespace

    from django.core.management import CommandError, call_command

    from grader.core.results import JudgeResult
    from grader.core.validate import ValidationRow
    from grader.management.commands import validate_problem as command

    warning = M.VALIDATE_OUT_READ_BEFORE_WRITE(file="solution.cu", name="hist")
    row = ValidationRow("solution.cu", Verdict.ACCEPTED, JudgeResult(verdict=Verdict.WRONG_ANSWER), warnings=[warning])
    monkeypatch.setattr(command, "resolve_package", lambda ref: SimpleNamespace(slug=ref))
    monkeypatch.setattr(command, "get_backend", lambda name: SimpleNamespace(name="dummy"))
    monkeypatch.setattr(command, "hang_explainer", lambda backend: None)
    monkeypatch.setattr(command, "validate_package", lambda package, backend, explainer=None: [row])
    out = StringIO()
    with pytest.raises(CommandError, match="1 solution"):  # the row failed
        call_command("validate_problem", "histogram", stdout=out)
    assert "warning: solution.cu reads the out buffer 'hist' before writing it" in out.getvalue()
