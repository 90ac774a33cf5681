"""Platform faults: the student sees "not graded, retrying", is never charged, and after the retries
the submission ends INTERNAL_ERROR (which never counts as an attempt).

Each fault is made in a real worker process through its environment:
- sandbox missing:  WARPDRILL_BWRAP points at a file that does not exist (unsafe fallback off);
- compiler missing: WARPDRILL_CXX points at a compiler that does not exist;
- GPU error:        the gpu backend with CUDA_VISIBLE_DEVICES="" (no device: no CUDA context);
- a broken harness: harness.py raises (an instructor's bug, not the student's);
- a submission that kills its worker every time (here its harness SIGKILLs the pool process):
  re-delivered, then given up after MAX_TRIES starts instead of looping forever.
"""
from __future__ import annotations

import importlib.util

import pytest
from django.test import Client

from grader import tasks
from grader.models import Submission
from problems.core.package import parse_package
from problems.services import import_package
from problems.views import problem_statuses
from tests.packages import tiny_package_files

from .conftest import SOLUTION, all_graded, dump, graded, poll, submit

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

GPU_BACKEND = importlib.util.find_spec("grader.core.backends.gpu") is not None

FAULTS = {
    "sandbox-missing": {"WARPDRILL_BWRAP": "/nonexistent/bwrap"},
    "compiler-missing": {"WARPDRILL_CXX": "/usr/bin/nonexistent-g++"},
    "gpu-error": {"WARPDRILL_BACKEND": "gpu", "CUDA_VISIBLE_DEVICES": ""},
}
# What the final message names, so that each test proves its own fault was the one hit.
FAULT_WORDS = {"sandbox-missing": "bubblewrap", "compiler-missing": "compiler", "gpu-error": "GPU"}

HARNESS = tiny_package_files()["harness.py"]
BROKEN_HARNESS = HARNESS.replace(
    "def generate(case, rng):\n",
    'def generate(case, rng):\n    if case["n"] > 5:\n        raise ValueError("harness bug near hidden-size-1025")\n')
KILLER_HARNESS = "import os, signal\n" + HARNESS.replace(
    "def generate(case, rng):\n", "def generate(case, rng):\n    os.kill(os.getpid(), signal.SIGKILL)\n")


def retrying(data: dict) -> bool:
    return data["status"] == "RETRYING"


def assert_not_charged_then_internal_error(student, pk: int, workers, tries: int) -> dict:
    """The 'retrying' state is shown and free; the end is INTERNAL_ERROR, free too."""
    data = poll(student, pk, retrying, 90, workers)
    assert data["verdict"] is None
    assert not Submission.objects.get(pk=pk).counts_as_attempt
    page = Client()
    page.force_login(student.user)
    html = page.get(f"/submissions/{pk}/").content.decode()
    assert "Not graded, retrying" in html and "never counts against you" in html

    data = poll(student, pk, graded, 120, workers)
    assert data["verdict"] == "INTERNAL_ERROR", dump(workers)
    assert "does not count as an attempt" in data["message"]
    row = Submission.objects.get(pk=pk)
    assert not row.counts_as_attempt and row.tries == tries
    assert problem_statuses(student.user) == {}  # the problem list still shows it as new
    assert [v for sid, v in all_graded(workers, wait_for=[pk]) if sid == pk] == ["INTERNAL_ERROR"]
    html = page.get(f"/submissions/{pk}/").content.decode()
    assert "Not graded (platform error)" in html
    return data


@pytest.mark.parametrize("fault", list(FAULTS))
def test_platform_fault_is_retried_never_charged_then_internal_error(fault, tiny_problem, student, fault_workers,
                                                                     clean_broker):
    """The fault fails every try: RETRYING while Celery retries (1, 2, 4 s), then INTERNAL_ERROR."""
    if fault == "gpu-error" and not GPU_BACKEND:
        pytest.skip("the gpu backend (grader/core/backends/gpu.py) is not part of this tree")
    fault_workers("a", env=FAULTS[fault])
    pk = submit(student, "tiny-add", SOLUTION)
    data = assert_not_charged_then_internal_error(student, pk, fault_workers.all, tries=tasks.MAX_RETRIES + 1)
    assert FAULT_WORDS[fault] in data["message"], data["message"]


def test_broken_harness_is_a_platform_fault_and_its_error_stays_private(student, fault_workers, clean_broker,
                                                                        transactional_db):
    """An exception in harness.py is retried and ends INTERNAL_ERROR; its text (which may quote hidden
    data) reaches the worker's log, never the student."""
    import_package(parse_package(tiny_package_files(**{"harness.py": BROKEN_HARNESS})))
    worker = fault_workers("a")
    pk = submit(student, "tiny-add", SOLUTION)
    assert_not_charged_then_internal_error(student, pk, fault_workers.all, tries=tasks.MAX_RETRIES + 1)
    assert "hidden-size-1025" in worker.output()
    data = student.get(f"/api/v1/submissions/{pk}").content.decode()
    assert "hidden-size-1025" not in data and "ValueError" not in data


def test_submission_that_kills_every_worker_is_given_up_after_max_tries(student, fault_workers, clean_broker,
                                                                         transactional_db):
    """A poison message does not loop forever: after MAX_TRIES starts it is INTERNAL_ERROR, not charged,
    and the worker is still alive and grades the next submission."""
    import_package(parse_package(tiny_package_files(**{"harness.py": KILLER_HARNESS})))
    worker = fault_workers("a")
    pk = submit(student, "tiny-add", SOLUTION)
    data = poll(student, pk, graded, 240, fault_workers.all)
    assert data["verdict"] == "INTERNAL_ERROR" and "interrupted" in data["message"], dump(fault_workers.all)
    row = Submission.objects.get(pk=pk)
    assert row.tries == tasks.MAX_TRIES + 1 and not row.counts_as_attempt
    assert worker.proc.poll() is None

    import_package(parse_package(tiny_package_files()))  # the instructor fixes the harness: a new version
    pk = submit(student, "tiny-add", SOLUTION)
    assert poll(student, pk, graded, 120, fault_workers.all)["verdict"] == "ACCEPTED"


# ---- the compiler goes away after the emulator runtime was built ---------------------------

# The compiler the worker uses: a wrapper under /usr (the sandbox sees only /usr), so that a test can
# take it away while the worker runs, after the runtime library was built with it.
CXX_WRAPPER = '#!/bin/sh\nexec /usr/bin/g++ "$@"\n'
# What g++ prints when one of its own parts is gone.
CXX_BROKEN = ("#!/bin/sh\necho \"g++: fatal error: cannot execute 'cc1plus': execvp: No such file or directory\" >&2\n"
              "echo 'compilation terminated.' >&2\nexit 1\n")


@pytest.fixture
def usr_compiler():
    """A folder under /usr/local/lib holding `g++`, a working wrapper of /usr/bin/g++; removed after."""
    import os
    import shutil
    import tempfile
    from pathlib import Path

    parent = Path("/usr/local/lib")
    if not os.access(parent, os.W_OK):
        pytest.skip("needs to write under /usr/local/lib (the sandbox only sees /usr)")
    folder = Path(tempfile.mkdtemp(prefix="wd-test-cxx-", dir=parent))
    folder.chmod(0o755)
    cxx = folder / "g++"
    cxx.write_text(CXX_WRAPPER)
    cxx.chmod(0o755)
    yield cxx
    shutil.rmtree(folder, ignore_errors=True)


def test_compiler_removed_after_the_runtime_was_built_is_a_platform_fault(tiny_problem, student, fault_workers,
                                                                           clean_broker, usr_compiler):
    """The worker builds the runtime and grades one submission; then its compiler is deleted. The next
    submission is 'not graded, retrying' and ends INTERNAL_ERROR naming the compiler, never COMPILE_ERROR."""
    fault_workers("a", env={"WARPDRILL_CXX": str(usr_compiler)})
    first = submit(student, "tiny-add", SOLUTION)
    assert poll(student, first, graded, 120, fault_workers.all)["verdict"] == "ACCEPTED"

    usr_compiler.unlink()
    pk = submit(student, "tiny-add", SOLUTION + "// a new source: not in the binary cache\n")
    data = poll(student, pk, retrying, 90, fault_workers.all)
    assert data["verdict"] is None and not Submission.objects.get(pk=pk).counts_as_attempt
    data = poll(student, pk, graded, 120, fault_workers.all)
    assert data["verdict"] == "INTERNAL_ERROR" and "compiler" in data["message"], dump(fault_workers.all)
    row = Submission.objects.get(pk=pk)
    assert not row.counts_as_attempt and row.tries == tasks.MAX_RETRIES + 1
    assert [v for sid, v in all_graded(fault_workers.all, wait_for=[pk]) if sid == pk] == ["INTERNAL_ERROR"]


def test_broken_toolchain_is_a_platform_fault_but_a_students_error_is_not(usr_compiler, monkeypatch, tmp_path):
    """A compiler that still exists but cannot compile anything (its cc1plus gone) raises PlatformError
    instead of giving COMPILE_ERROR; with a working toolchain, an error that names no line of the student's
    (a kernel the harness cannot call) is still the student's COMPILE_ERROR."""
    import shutil

    from grader.core.backends.emulator import EmulatorBackend
    from grader.core.emulator import toolchain
    from grader.core.errors import PlatformError
    from grader.core.judge import judge
    from grader.core.verdicts import Verdict

    built = toolchain.default_cache_dir() / f"runtime-{toolchain.runtime_hash(str(usr_compiler))}"
    if (built / ".done-fast").exists():  # building it takes about 25 s on two cores
        shutil.copytree(built, tmp_path / built.name)
    backend = EmulatorBackend(cache_dir=tmp_path, workers=1, cxx=str(usr_compiler))
    package = parse_package(tiny_package_files())
    wrong_signature = SOLUTION.replace("int n)", "int n, int extra)")
    result = judge(package, wrong_signature, backend)
    assert result.verdict is Verdict.COMPILE_ERROR
    assert all(m.line is None for m in result.compile.messages if m.severity == "error"), result.compile.messages

    usr_compiler.write_text(CXX_BROKEN)
    with pytest.raises(PlatformError, match="compiler"):
        judge(package, SOLUTION + "// not cached\n", backend)
