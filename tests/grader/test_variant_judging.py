"""The judge hands a student's variant to the launch and the harness (grader/core/judge.judge's
`variant`), and validate_package judges every variant of the validation set."""
from pathlib import Path

import pytest

from grader.core.backends.base import RunOutcome, RunStatus
from grader.core.backends.dummy import DummyBackend
from grader.core.validate import validate_package
from grader.core.judge import judge
from grader.core.verdicts import Verdict
from problems.core.package import PackageError, load_package, parse_package
from tests.problems.test_variants import variant_files

PACKAGE = parse_package(variant_files())
BANK = Path(__file__).resolve().parents[2] / "problems" / "bank"


def computes_for(variant, seen):
    """A backend run that computes the right answer for `variant` and records each launch."""
    def run(source, spec, request):
        seen.append(request.launch)
        i = request.inputs
        sign = 1 if variant["LAYOUT"] == "row" else -1
        return RunOutcome(status=RunStatus.OK, outputs={"c": sign * (i["a"] + i["b"]) * variant["BLOCK"]})
    return run


def test_the_variant_reaches_the_launch_and_the_reference():
    """Judged as BLOCK 512, STRIDE 2: the launch is 512 threads and ceil(1025 / 1024) = 2 blocks, and a
    kernel right for that variant is ACCEPTED; the same outputs judged as another variant are wrong."""
    mine = {"BLOCK": 512, "STRIDE": 2, "LAYOUT": "col"}
    seen = []
    result = judge(PACKAGE, "src", DummyBackend(computes_for(mine, seen)), variant=mine)
    assert result.verdict is Verdict.ACCEPTED, result.message
    assert [(launch.block[0], launch.grid[0]) for launch in seen] == [(512, 1), (512, 2)]
    assert result.tests[1].params == {"n": 1025, "BLOCK": 512, "STRIDE": 2}
    theirs = {"BLOCK": 512, "STRIDE": 2, "LAYOUT": "row"}
    assert judge(PACKAGE, "src", DummyBackend(computes_for(mine, [])), variant=theirs).verdict is Verdict.WRONG_ANSWER


def test_no_variant_judges_the_default():
    """Without a stored variant the judge uses each parameter's first value (BLOCK 128)."""
    seen = []
    default = PACKAGE.variants.default()
    assert judge(PACKAGE, "src", DummyBackend(computes_for(default, seen))).verdict is Verdict.ACCEPTED
    assert {launch.block[0] for launch in seen} == {128}


def test_an_undeclared_variant_is_a_package_error():
    """A stored variant the package does not declare is the platform's error, not a verdict."""
    with pytest.raises(PackageError):
        judge(PACKAGE, "src", DummyBackend(), variant={"BLOCK": 64, "STRIDE": 1, "LAYOUT": "row"})


def test_validation_walks_the_validation_set():
    """validate_package judges solution and wrong solutions once per variant, each row naming it."""
    files = variant_files(**{"problem.yaml": variant_files()["problem.yaml"] + "  validate: all\n",
                             "solution.cu": "// {{BLOCK}} {{LAYOUT}}\n" + variant_files()["solution.cu"]})
    package = parse_package(files)
    judged = []

    def run(source, spec, request):
        judged.append(source.splitlines()[0])
        return RunOutcome(status=RunStatus.OK, outputs={"c": request.inputs["c"]})

    rows = validate_package(package, DummyBackend(run))
    assert len(rows) == 12 * 2  # 12 variants x (solution + one wrong solution)
    assert {tuple(r.variant.values()) for r in rows} == {tuple(v.values()) for v in package.variants.combinations()}
    assert "// 512 col" in judged  # the solution was rendered for its variant


@pytest.mark.slow
def test_segment_sum_kernel_of_another_layout_is_wrong_on_the_emulator():
    """Two students, BLOCK 256 each, layouts row and col: the row student's correct kernel handed in by
    the col student gets WRONG_ANSWER; under its own variant it is ACCEPTED (real g++ emulator)."""
    from grader.core.backends.registry import get_backend

    package = load_package(BANK / "segment-sum")
    row = {"BLOCK": 256, "LAYOUT": "row"}
    kernel = package.with_variant(row).solution
    emulator = get_backend("emulator")
    assert judge(package, kernel, emulator, variant=row, run_checks=False).verdict is Verdict.ACCEPTED
    copied = judge(package, kernel, emulator, variant={"BLOCK": 256, "LAYOUT": "col"}, run_checks=False)
    assert copied.verdict is Verdict.WRONG_ANSWER
    assert copied.tests[0].verdict is Verdict.ACCEPTED  # one segment: both layouts coincide
