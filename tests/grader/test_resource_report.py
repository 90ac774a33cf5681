"""Every submission gets nvcc's resource report and the occupancy of its launch, even on the emulator;
the report's nvcc runs beside the compile and the test cases, on no thread of its own."""
import shutil
import threading
import time

import pytest

from grader.core import judge as judge_module
from grader.core.backends.emulator import EmulatorBackend
from grader.core.backends.registry import get_backend
from grader.core.judge import judge
from grader.core.gpu.nvrtc import available as nvrtc_available
from grader.core.ptxas_report import PtxasReport, nvrtc_compiler
from grader.core.verdicts import Verdict
from problems.core.package import parse_package
from tests.packages import tiny_package_files

pytestmark = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not installed")


def test_emulator_judgement_carries_ptxas_resources_and_occupancy():
    """The tiny add kernel reports its registers from ptxas and an occupancy for 256-thread blocks on cc 9.0."""
    package = parse_package(tiny_package_files())
    result = judge(package, package.solution, get_backend("emulator"), target_cc="9.0")
    assert result.verdict is Verdict.ACCEPTED
    res = result.resources
    assert res.source == "ptxas" and 1 <= res.registers <= 32
    assert res.threads_per_block == 256 and res.compute_capability == "9.0"
    assert res.occupancy["blocks_per_sm"] == 8 and res.occupancy["occupancy"] == 1.0


def test_occupancy_is_reported_for_the_target_gpu_of_the_course():
    """A course about an RTX 3090 (cc 8.6, 1536 threads per SM): 256-thread blocks fit 6 per SM, not 8."""
    package = parse_package(tiny_package_files())
    res = judge(package, package.solution, get_backend("emulator"), target_cc="8.6").resources
    assert res.compute_capability == "8.6"
    assert res.occupancy["blocks_per_sm"] == 6 and res.occupancy["occupancy"] == 1.0


@pytest.mark.django_db
def test_a_submission_is_judged_for_its_courses_gpu(settings):
    """The grading task's target: the exam's course, else the problem's course, else the site's default."""
    from django.contrib.auth.models import User

    from courses.models import Course
    from grader.models import Submission
    from grader.tasks import course_target_cc
    from problems.services import import_package

    from problems.models import Problem

    problem = Problem.objects.get(slug=import_package(parse_package(tiny_package_files())).slug)
    user = User.objects.create_user("cc-student")
    bank = Submission.objects.create(user=user, problem_version=problem.current_version, source="x")
    assert course_target_cc(bank) == ""  # a bank problem outside a course: the site's default
    course = Course.objects.create(name="GPU", code="GPU-86", target_cc="8.6")
    problem.course = course
    problem.save()
    owned = Submission.objects.get(pk=bank.pk)
    assert course_target_cc(owned) == "8.6"


def _fresh(source: str) -> str:
    return f"// {time.time_ns()}\n{source}"  # not in the compile cache


NVCC = EmulatorBackend(ptxas_compiler="nvcc")  # the report by nvcc in its box, never NVRTC


def test_the_report_runs_beside_the_caller_on_no_thread():
    """PtxasReport comes back while nvcc still runs, without a thread; wait() gives ptxas's figures."""
    package = parse_package(tiny_package_files())
    threads = threading.active_count()
    report = PtxasReport(_fresh(package.solution), package.kernel, "9.0", NVCC)
    proc = report._pending.running.proc
    assert proc.poll() is None and threading.active_count() == threads
    res = report.wait()
    assert proc.poll() is not None and threading.active_count() == threads
    assert res.source == "ptxas" and 1 <= res.registers <= 32
    assert report.wait() is res  # collected once


def test_a_closed_report_stops_nvcc():
    """close() before wait() kills nvcc's box; its report is then None."""
    package = parse_package(tiny_package_files())
    report = PtxasReport(_fresh(package.solution), package.kernel, "9.0", NVCC)
    proc, workdir = report._pending.running.proc, report._pending.workdir
    report.close()
    assert proc.poll() is not None and not workdir.exists()
    assert report.wait() is None


def test_a_compile_error_stops_the_report(monkeypatch):
    """A source the emulator cannot compile ends the judge at once: the report started before the
    compile is closed unwaited, its nvcc no longer running."""
    made = []

    class Spy(PtxasReport):
        def __init__(self, *args):
            super().__init__(*args)
            made.append((self, self._pending.running.proc))

    monkeypatch.setattr(judge_module, "PtxasReport", Spy)
    package = parse_package(tiny_package_files())
    result = judge(package, _fresh(package.solution.replace("int i", "int i int")), NVCC)
    assert result.verdict is Verdict.COMPILE_ERROR and result.resources is None
    [(report, proc)] = made
    assert report._pending is None and proc.poll() is not None


def test_the_late_report_gives_the_same_resources():
    """The report started before the compile and the one started after the harness calls (the
    backend's ptxas_report_late) give the judged launch the same figures."""
    package = parse_package(tiny_package_files())
    early = judge(package, _fresh(package.solution), NVCC).resources
    late = judge(package, _fresh(package.solution), EmulatorBackend(ptxas_report_late=True,
                                                                   ptxas_compiler="nvcc")).resources
    assert early.source == "ptxas" and early == late


needs_nvrtc = pytest.mark.skipif(not nvrtc_available(), reason="cuda-bindings (NVRTC) is not installed")


@needs_nvrtc
def test_the_report_comes_from_nvrtc_with_nvccs_figures():
    """With ptxas_compiler "auto" the report is NVRTC's, made in the warm compiler child before
    PtxasReport returns (no nvcc box), and its figures are nvcc's for the same kernel."""
    package = parse_package(tiny_package_files())
    source = _fresh(package.solution)
    report = PtxasReport(source, package.kernel, "9.0", EmulatorBackend())
    assert report._pending is None  # no nvcc running
    by_nvrtc, by_nvcc = report.wait(), PtxasReport.compute_now(source, package.kernel, "9.0", NVCC)
    assert by_nvrtc.source == "ptxas" and by_nvrtc.registers and by_nvrtc == by_nvcc
    assert nvrtc_compiler().pool.compiler.jobs >= 1


@needs_nvrtc
def test_a_source_nvrtc_refuses_gets_nvccs_report():
    """NVRTC takes no host variables; nvcc does: the report then comes from nvcc, started at once."""
    package = parse_package(tiny_package_files())
    report = PtxasReport(_fresh("int calls = 0;\n" + package.solution), package.kernel, "9.0", EmulatorBackend())
    assert report._pending is not None  # nvcc's box
    res = report.wait()
    assert res.source == "ptxas" and 1 <= res.registers <= 32


@needs_nvrtc
def test_each_process_has_its_own_compiler(monkeypatch):
    """One warm compiler per process and cache (a forked Celery pool process, another pid, never
    uses its parent's child)."""
    from grader.core import ptxas_report

    mine = nvrtc_compiler()
    assert nvrtc_compiler() is mine
    assert nvrtc_compiler(cache_root="/nonexistent/elsewhere") is not mine
    monkeypatch.setattr(ptxas_report.os, "getpid", lambda: -1)  # as in a forked process
    assert nvrtc_compiler() is not mine


@needs_nvrtc
def test_a_pool_process_starts_its_compiler_child_before_its_first_grading(monkeypatch, tmp_path):
    """EmulatorBackend.prepare_process (a new Celery pool process) starts the NVRTC compiler child;
    with ptxas_compiler "nvcc" it starts nothing."""
    from grader.core import ptxas_report

    monkeypatch.setattr(ptxas_report, "_compilers", {})
    EmulatorBackend(cache_root=tmp_path, ptxas_compiler="nvcc").prepare_process()
    assert ptxas_report._compilers == {}
    EmulatorBackend(cache_root=tmp_path).prepare_process()
    [compiler] = ptxas_report._compilers.values()
    try:
        child = compiler.pool.children["compiler"]
        assert child.alive() and child.wait_ready()
    finally:
        compiler.pool.close()
