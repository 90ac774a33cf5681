"""Every hostile submission in cases/ gets its verdict, changes nothing outside its sandbox, and the
same backend then grades a correct submission ACCEPTED.

A case is a .cu file whose first lines say what it must get:

    // verdict: TIME_LIMIT DEADLOCK     one of these verdicts
    // says: not allowed                (optional) words the result must contain
    // known-gap: why                   (optional) a platform fault it still causes, to be fixed
    // checks: racecheck                (optional) the package asks for these checks (check mode)

and which may name places on this machine as {{REPO}}, {{DB}}, {{CANARY}} and {{CANARY_DIR}}
(the project, its database file, and a secret file outside the project that no box may see), and
write {{BY_NAME}} for by_name.inc: `by_name("fopen64")`, any libc function found by its name in
libc's symbols in memory, so that a case reaches what the static checks refuse by name and shows
that the box contains it.
Each case runs through the real pipeline (grader.core.judge.judge) on the real emulator
backend, with a one-second time limit and a four-second compile limit so the folder stays fast.
"""
from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from grader.core import sandbox
from grader.core.backends import emulator
from grader.core.backends.emulator import EmulatorBackend
from grader.core.emulator import toolchain
from grader.core.errors import PlatformError
from grader.core.judge import judge
from grader.core.verdicts import Verdict
from problems.core.package import parse_package
from tests.packages import PROBLEM_YAML, SOLUTION, WRONG_SUB, tiny_package_files

from .watch import Watch

pytestmark = pytest.mark.skipif(not sandbox.box.DEFAULT.works(), reason=f"no sandbox here: {sandbox.box.DEFAULT.probe()}")

CASES_DIR = Path(__file__).resolve().parent / "cases"
BY_NAME = (Path(__file__).resolve().parent / "by_name.inc").read_text()
REPO = Path(__file__).resolve().parents[2]
CORRECT = "// launch: block=256 grid=ceil_div(n, 256)\n" + SOLUTION
COMPILE_LIMIT_S = 8.0  # the production limit is 30 s; a bomb must fail the same way, sooner (a busy 2-core
# machine needs up to about 4 s for an ordinary case's three steps: compile, localise, link)
# No case may hold the worker longer than this: its limits plus generous grace, so that a busy
# 2-core CI machine does not fail it, while a worker held indefinitely still does.
CASE_WALL_S = 90.0


def _package(checks: str = ""):
    """tiny-add with a one-second time limit, letting the student choose the launch."""
    yaml_text = (PROBLEM_YAML.replace("limits: {time_s: 5}", "limits: {time_s: 1}")
                 .replace('grid: "ceil_div(n, 256)"', 'grid: "ceil_div(n, 256)"\n  student_chooses: true'))
    if checks:
        yaml_text += f"checks: [{checks}]\n"
    files = tiny_package_files(**{"problem.yaml": yaml_text, "solution.cu": CORRECT,
                                  "wrong/subtracts.cu": "// launch: block=256 grid=ceil_div(n, 256)\n" + WRONG_SUB})
    return parse_package(files)


PACKAGE = _package()


@dataclass
class Case:
    name: str
    text: str
    verdicts: frozenset[Verdict]  # the verdicts it may get
    says: str  # words the result must contain ("" when any wording will do)
    known_gap: str  # why it still ends as a platform fault ("" for none): containment is checked anyway
    checks: str  # the checks its package asks for ("" for none)


def load_cases() -> list[Case]:
    cases = []
    for path in sorted(CASES_DIR.glob("*.cu")):
        text = path.read_text()
        verdicts = re.search(r"^// verdict: (.+)$", text, re.M)
        says = re.search(r"^// says: (.+)$", text, re.M)
        gap = re.search(r"^// known-gap: (.+)$", text, re.M)
        checks = re.search(r"^// checks: (.+)$", text, re.M)
        if not verdicts:
            raise ValueError(f"{path.name}: no '// verdict:' line")
        cases.append(Case(path.stem, text, frozenset(Verdict[v] for v in verdicts.group(1).split()),
                          says.group(1).strip() if says else "", gap.group(1).strip() if gap else "",
                          checks.group(1).strip() if checks else ""))
    return cases


CASES = load_cases()


@pytest.fixture(scope="module")
def backend(tmp_path_factory):
    """One emulator backend for the whole corpus, its cache outside the project's var/.

    The runtime library is copied from the default cache when it was already built there
    (building it takes about 25 s on two cores).
    """
    cache = tmp_path_factory.mktemp("hostile-cache")
    built = toolchain.default_cache_dir() / f"runtime-{toolchain.runtime_hash()}"
    if (built / ".done-fast").exists():
        shutil.copytree(built, cache / built.name)
    backend = EmulatorBackend(cache_dir=cache, workers=2)
    # Every variant's runtime now, not in the first case that needs it: building the race check's
    # takes minutes on a busy machine, which would count against that case's wall-clock bound.
    backend.prepare()
    return backend


@pytest.fixture(scope="module")
def outside(tmp_path_factory):
    """A folder outside the project holding a secret canary file."""
    folder = tmp_path_factory.mktemp("outside")
    canary = folder / "canary.txt"
    canary.write_text("CANARY-7d1f3c secret that no sandbox may read or change\n")
    return folder


def render(case: Case, outside: Path) -> str:
    return (case.text.replace("{{BY_NAME}}", BY_NAME).replace("{{REPO}}", str(REPO)).replace("{{DB}}", str(REPO / "var" / "db.sqlite3"))
            .replace("{{CANARY_DIR}}", str(outside)).replace("{{CANARY}}", str(outside / "canary.txt")))


def everything_said(result) -> str:
    parts = [result.message]
    if result.compile:
        parts += [result.compile.log] + [m.message for m in result.compile.messages]
    parts += [d.message for d in result.diagnostics] + [t.message for t in result.tests]
    return "\n".join(p for p in parts if p)


def test_corpus_is_large_and_covers_every_verdict_kind():
    """At least 70 cases (issue #13); static refusals and cases that really run (time, memory, faults,
    libc reached by name from /proc/self/maps) are both there."""
    assert len(CASES) >= 70
    verdicts = set().union(*(c.verdicts for c in CASES))
    assert {Verdict.COMPILE_ERROR, Verdict.TIME_LIMIT, Verdict.RUNTIME_ERROR, Verdict.MEMORY_ERROR,
            Verdict.WRONG_ANSWER} <= verdicts
    assert sum(Verdict.COMPILE_ERROR not in c.verdicts for c in CASES) >= 8


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_hostile_submission_is_contained(case, backend, outside, monkeypatch, tmp_path):
    """The case gets its verdict within the limits, nothing outside the box changes, no process survives,
    and the same backend grades the next (correct) submission ACCEPTED."""
    runs = tmp_path / "runs"
    runs.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(runs))  # the backend's work folders go here
    monkeypatch.setattr(emulator, "COMPILE_TIME_LIMIT_S", COMPILE_LIMIT_S)
    watch = Watch(REPO, outside, extra_markers=[Path("/tmp/wd_hostile_marker")])

    package = _package(case.checks) if case.checks else PACKAGE
    started = time.monotonic()
    try:
        result = judge(package, render(case, outside), backend)
    except PlatformError as exc:
        if not case.known_gap:
            raise
        watch.assert_unchanged()  # a platform fault must still leave everything as it was
        assert judge(PACKAGE, CORRECT, backend).verdict is Verdict.ACCEPTED
        pytest.xfail(f"known gap: {case.known_gap} ({exc})")
    elapsed = time.monotonic() - started
    assert not case.known_gap, f"{case.name} no longer faults the platform: remove its known-gap line"

    said = everything_said(result)
    assert result.verdict in case.verdicts, f"{case.name}: got {result.verdict}: {said[:2000]}"
    if case.says:
        assert case.says.replace("{{CANARY}}", str(outside / "canary.txt")) in said, said[:2000]
    assert "CANARY-7d1f3c" not in said
    assert elapsed < CASE_WALL_S, f"{case.name} held the worker for {elapsed:.1f} s"
    watch.assert_unchanged()
    # (warpdrill-cache is nvcc's compile cache for the resource report, which lives in the temp folder.)
    assert [p.name for p in runs.iterdir() if p.name != "warpdrill-cache"] == [], "the backend left work folders behind"

    after = judge(PACKAGE, CORRECT, backend)
    assert after.verdict is Verdict.ACCEPTED, everything_said(after)[:2000]
    watch.assert_unchanged()


def test_a_refusal_names_the_students_line(backend):
    """Static refusals name the student's line, so the editor can point at it."""
    case = next(c for c in CASES if c.name == "system_shell")
    result = judge(PACKAGE, case.text, backend)
    assert result.verdict is Verdict.COMPILE_ERROR
    assert 5 in [m.line for m in result.compile.messages]
