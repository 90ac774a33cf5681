"""Launches the package format says beyond block and grid (issue 11): dynamic shared memory above
48 KiB with the opt-in, up to the target GPU's per-block limit, and cooperative launches that must
fit on the target GPU at once."""
from __future__ import annotations

from dataclasses import replace

import pytest

from grader.core import messages as M
from grader.core.backends.base import LaunchConfig, RunOutcome, RunStatus
from grader.core.backends.dummy import DummyBackend
from grader.core.errors import UnsupportedLaunchError
from grader.core.launch import build_launch, cooperative_launch_problem, launch_problem
from grader.core.judge import judge
from grader.core.verdicts import DiagnosticKind, Verdict
from problems.core.gpus import gpu
from problems.core.package import LaunchTemplate, PackageError, parse_package
from tests.packages import PROBLEM_YAML, SOLUTION, tiny_package_files

KIB = 1024


def test_the_problem_options_reach_the_launch():
    """build_launch carries the problem's opt-in and cooperative flag into the LaunchConfig."""
    cfg = build_launch("256", "4", "64 * 1024", {}, max_dynamic_shared_bytes=100 * KIB, cooperative=True)
    assert (cfg.shared_bytes, cfg.max_dynamic_shared_bytes, cfg.cooperative) == (64 * KIB, 100 * KIB, True)


@pytest.mark.parametrize(("shared", "opt_in", "cc", "expected"), [
    (48 * KIB, 48 * KIB, "9.0", None),
    (64 * KIB, 48 * KIB, "9.0", "exceed 49152 without the cudaFuncAttributeMaxDynamicSharedMemorySize opt-in"),
    (64 * KIB, 64 * KIB, "9.0", None),
    (227 * KIB, 227 * KIB, "9.0", None),
    (100 * KIB, 64 * KIB, "9.0", "exceed 65536, the kernel's cudaFuncAttributeMaxDynamicSharedMemorySize"),
    (227 * KIB, 227 * KIB, "8.6", "exceed 101376, the most a block may have on compute capability 8.6"),
    (99 * KIB, 227 * KIB, "8.6", None),
])
def test_dynamic_shared_memory_is_allowed_up_to_the_opt_in_and_the_gpu_limit(shared, opt_in, cc, expected):
    """Above 48 KiB a launch needs the problem's opt-in, and never more than the target's per-block
    maximum (227 KiB on cc 9.0, 99 KiB on 8.6); each refusal is CUDA's cudaErrorInvalidValue."""
    problem = launch_problem(LaunchConfig((1, 1, 1), (256, 1, 1), shared, max_dynamic_shared_bytes=opt_in), cc)
    if expected is None:
        assert problem is None
    else:
        assert problem.startswith("cudaErrorInvalidValue: ") and expected in problem
        assert problem.code.startswith("LAUNCH_REASON.")  # a catalogue message: shown in the reader's language


def test_a_cooperative_grid_must_fit_on_the_target_gpu_at_once():
    """1024-thread blocks at 32 registers: 2 per SM, so 264 fit on an H200 (132 SMs) and 265 do not;
    an ordinary launch of the same grid is not checked."""
    h200 = gpu("h200")
    fits = LaunchConfig((264, 1, 1), (1024, 1, 1), cooperative=True)
    too_large = LaunchConfig((265, 1, 1), (1024, 1, 1), cooperative=True)
    assert cooperative_launch_problem(fits, h200, 32, 0) is None
    problem = cooperative_launch_problem(too_large, h200, 32, 0)
    assert problem == ("cudaErrorCooperativeLaunchTooLarge: a cooperative launch of 265 blocks does not fit on the "
                       "NVIDIA H200 at once: 2 blocks per SM x 132 SMs = 264")
    assert problem.code == "LAUNCH_REASON.cooperative_too_large"
    assert cooperative_launch_problem(LaunchConfig((265, 1, 1), (1024, 1, 1)), h200, 32, 0) is None
    # 64 registers per thread: one 1024-thread block per SM.
    assert "1 blocks per SM x 132 SMs = 132" in cooperative_launch_problem(
        LaunchConfig((133, 1, 1), (1024, 1, 1), cooperative=True), h200, 64, 0)


def _package(launch_lines: str):
    yaml_text = PROBLEM_YAML.replace('grid: "ceil_div(n, 256)"', 'grid: "ceil_div(n, 256)"\n' + launch_lines)
    return parse_package(tiny_package_files(**{"problem.yaml": yaml_text}))


def test_problem_yaml_says_cooperative_and_the_opt_in():
    """`launch.cooperative` and `launch.max_dynamic_shared_bytes` are read; out-of-range values are refused."""
    package = _package("  cooperative: true\n  max_dynamic_shared_bytes: 65536")
    assert package.launch.cooperative and package.launch.max_dynamic_shared_bytes == 64 * KIB
    with pytest.raises(PackageError, match="from 49152 to 232448"):
        _package("  max_dynamic_shared_bytes: 300000")
    with pytest.raises(PackageError, match="true or false"):
        _package("  cooperative: sometimes")


class CooperativeDummy(DummyBackend):
    supports_cooperative_launch = True


def test_a_cooperative_launch_too_large_for_the_target_is_a_runtime_error_before_running():
    """A cooperative problem whose grid cannot be co-resident on the course's GPU gets RUNTIME_ERROR with
    cudaErrorCooperativeLaunchTooLarge on that case; the backend never runs it."""
    ran = []

    def run(source, spec, request):
        ran.append(request.launch)
        return RunOutcome(RunStatus.OK, outputs={"c": request.inputs["a"] + request.inputs["b"]})

    # A T4 (cc 7.5, 40 SMs) holds one 1024-thread block per SM: 40 blocks at once.
    package = replace(_package(""), launch=LaunchTemplate(block="1024", grid="ceil_div(n, 4)", cooperative=True))
    result = judge(package, SOLUTION, CooperativeDummy(run), target_gpu="t4")
    rows = {t.name: t for t in result.tests}
    assert rows["small"].verdict is Verdict.ACCEPTED  # n = 5: 2 blocks
    assert rows["tail"].verdict is Verdict.RUNTIME_ERROR  # n = 1025: 257 blocks
    assert "cudaErrorCooperativeLaunchTooLarge" in rows["tail"].message and "NVIDIA T4" in rows["tail"].message
    assert [d.kind for d in result.diagnostics] == [DiagnosticKind.LAUNCH_ERROR]
    assert all(launch.cooperative for launch in ran) and len(ran) == 1


def test_a_backend_without_cooperative_launches_refuses_the_problem_as_a_platform_limit():
    """A backend that cannot co-schedule a grid (`supports_cooperative_launch` False, as the dummy
    backend's; the emulator and the GPU backend both can) refuses a cooperative problem with
    UnsupportedLaunchError (a PlatformError: INTERNAL_ERROR, never the student's fault)."""
    with pytest.raises(UnsupportedLaunchError, match="cooperative"):
        judge(_package("  cooperative: true"), SOLUTION, DummyBackend())
