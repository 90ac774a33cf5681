"""The judge's stages, on the dummy backend (no compiler, no database)."""
import numpy as np
import pytest

from grader.core.backends.base import RunOutcome, RunStatus
from grader.core.backends.dummy import DummyBackend
from grader.core.errors import PlatformError
from grader.core.cases import case_seed
from grader.core.judge import LaunchChoice, judge, launch_expressions
from grader.core.results import Diagnostic, JudgeResult
from grader.core.verdicts import NOT_RUN, DiagnosticKind, Verdict
from problems.core.package import parse_package
from tests.packages import PROBLEM_YAML, tiny_package_files

PACKAGE = parse_package(tiny_package_files())


def adds(source, spec, request):
    """A backend run that computes the right answer."""
    i = request.inputs
    return RunOutcome(status=RunStatus.OK, outputs={"c": i["a"] + i["b"]})


def test_correct_outputs_are_accepted_and_progress_is_reported():
    """Right outputs on every test give ACCEPTED; progress goes compiling -> running k of n."""
    seen = []
    result = judge(PACKAGE, "ok", DummyBackend(adds), progress=lambda *a: seen.append(a))
    assert result.verdict is Verdict.ACCEPTED
    assert [t.verdict for t in result.tests] == [Verdict.ACCEPTED] * 2
    assert seen[0] == ("compiling", 0, 2) and ("running", 1, 2) in seen and seen[-1] == ("running", 2, 2)


def test_wrong_output_gives_wrong_answer_with_first_mismatch():
    """The default dummy copies the poisoned output back: WRONG_ANSWER with index and values."""
    def off_by_one(source, spec, request):
        c = request.inputs["a"] + request.inputs["b"]
        c[-1] += 1
        return RunOutcome(status=RunStatus.OK, outputs={"c": c})

    result = judge(PACKAGE, "x", DummyBackend(off_by_one))
    assert result.verdict is Verdict.WRONG_ANSWER
    small = result.tests[0]
    assert small.mismatch.output == "c" and small.mismatch.index == [4]


def test_compile_error_stops_before_running():
    """A compile error gives COMPILE_ERROR with the line, and no test runs."""
    result = judge(PACKAGE, "int x;\n#error nope\n", DummyBackend(adds))
    assert result.verdict is Verdict.COMPILE_ERROR
    assert result.tests == [] and "line 2" in result.message


def test_empty_source_is_a_compile_error():
    """An empty source is refused with a message."""
    assert judge(PACKAGE, "  \n", DummyBackend(adds)).verdict is Verdict.COMPILE_ERROR


def test_sync_diagnostic_outranks_a_right_answer():
    """A divergent barrier is SYNC_ERROR even when the output happened to be right."""
    def racy(source, spec, request):
        out = adds(source, spec, request)
        out.diagnostics = [Diagnostic(DiagnosticKind.DIVERGENT_BARRIER, "threads at different barriers", line=3)]
        return out

    result = judge(PACKAGE, "x", DummyBackend(racy))
    assert result.verdict is Verdict.SYNC_ERROR
    assert result.diagnostics[0].line == 3 and result.diagnostics[0].test == "small"
    assert len(result.diagnostics) == 1  # the same finding on two tests is reported once


@pytest.mark.parametrize(
    ("status", "kind", "verdict"),
    [
        (RunStatus.FAULT, DiagnosticKind.OUT_OF_BOUNDS, Verdict.MEMORY_ERROR),
        (RunStatus.FAULT, DiagnosticKind.CUDA_ERROR, Verdict.RUNTIME_ERROR),
        (RunStatus.DEADLOCK, DiagnosticKind.DEADLOCK, Verdict.DEADLOCK),
        (RunStatus.TIMEOUT, DiagnosticKind.TIMEOUT, Verdict.TIME_LIMIT),
    ],
)
def test_run_statuses_map_to_verdicts(status, kind, verdict):
    """Faults, deadlocks and timeouts become their verdicts; a hang stops the remaining tests."""
    def fails(source, spec, request):
        return RunOutcome(status=status, diagnostics=[Diagnostic(kind, "boom", line=2)], message="boom")

    runs = []
    result = judge(PACKAGE, "x", DummyBackend(lambda *args: runs.append(args) or fails(*args)))
    assert result.verdict is verdict
    assert result.message == "Test small: boom (line 2)"  # no count: the page states it once
    if verdict in (Verdict.DEADLOCK, Verdict.TIME_LIMIT):
        # The cases after the hang are not run, but listed: every case of the package has a row.
        assert len(runs) == 1 and len(PACKAGE.tests) > 1
        assert [t.verdict for t in result.tests] == [verdict, NOT_RUN]
        assert result.tests[1].name == "tail" and "test small" in result.tests[1].message


def test_platform_fault_raises_instead_of_charging_the_student():
    """An INTERNAL run status raises PlatformError (the task retries; no verdict is stored)."""
    def broken(source, spec, request):
        return RunOutcome(status=RunStatus.INTERNAL, message="sandbox missing")

    with pytest.raises(PlatformError, match="sandbox missing"):
        judge(PACKAGE, "x", DummyBackend(broken))


def test_invalid_launch_is_a_runtime_error_with_cuda_name():
    """A launch CUDA refuses gives RUNTIME_ERROR and a launch_error diagnostic, without running."""
    yaml_text = PROBLEM_YAML.replace('block: "256"', 'block: "2048"')
    pkg = parse_package(tiny_package_files(**{"problem.yaml": yaml_text}))
    result = judge(pkg, "x", DummyBackend(adds))
    assert result.verdict is Verdict.RUNTIME_ERROR
    assert "cudaErrorInvalidConfiguration" in result.diagnostics[0].message


def test_student_launch_choice_overrides_only_when_allowed():
    """The student's launch replaces the problem's only when student_chooses is set."""
    assert launch_expressions(PACKAGE, "", LaunchChoice("64", "1")) == ("256", "ceil_div(n, 256)", "0")
    yaml_text = PROBLEM_YAML.replace('grid: "ceil_div(n, 256)"', 'grid: "ceil_div(n, 256)"\n  student_chooses: true')
    files = tiny_package_files(**{"problem.yaml": yaml_text})
    files["solution.cu"] = "// launch: block=128 grid=ceil_div(n, 128)\n" + files["solution.cu"]
    files["wrong/subtracts.cu"] = files["wrong/subtracts.cu"] + "// launch: block=32 grid=n\n"
    pkg = parse_package(files)
    assert launch_expressions(pkg, pkg.solution, None) == ("128", "ceil_div(n, 128)", "0")
    assert launch_expressions(pkg, pkg.solution, LaunchChoice("64", "ceil_div(n, 64)")) == ("64", "ceil_div(n, 64)", "0")
    bad = judge(pkg, "x", DummyBackend(adds), launch_choice=LaunchChoice("64", "ceil_div(n, zz)"))
    assert bad.verdict is Verdict.COMPILE_ERROR and "zz" in bad.message


def test_hidden_seeds_mix_in_the_secret():
    """Sample cases keep their seed; hidden ones depend on the server secret."""
    small, tail = PACKAGE.tests
    assert case_seed(small, "tiny-add", "s1") == small.seed
    assert case_seed(tail, "tiny-add", "s1") != case_seed(tail, "tiny-add", "s2")


def test_result_round_trips_through_json_dict():
    """A JudgeResult survives to_dict/from_dict (it is stored as JSON)."""
    result = judge(PACKAGE, "x", DummyBackend())
    again = JudgeResult.from_dict(result.to_dict())
    assert again.to_dict() == result.to_dict()


def test_hidden_test_public_dict_hides_details():
    """A hidden test's public view has its verdict and nothing about inputs or outputs."""
    result = judge(PACKAGE, "x", DummyBackend())
    hidden = result.tests[1].public_dict()
    assert set(hidden) == {"name", "sample", "verdict", "time_s"}
    assert "mismatch" in result.tests[0].public_dict()


def test_poisoned_outputs_are_not_mistaken_for_answers():
    """Sanity: an untouched NaN-poisoned output never passes a float comparison."""
    def untouched(source, spec, request):
        return RunOutcome(status=RunStatus.OK, outputs={"c": np.full(request.inputs["n"], np.nan, np.float32)})

    assert judge(PACKAGE, "x", DummyBackend(untouched)).verdict is Verdict.WRONG_ANSWER
