"""Every submission gets nvcc's resource report and the occupancy of its launch, even on the emulator."""
import shutil

import pytest

from grader.core.backends.registry import get_backend
from grader.core.judge import judge
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
