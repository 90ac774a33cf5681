"""`// gpu-verdict: NAME (why)` in a wrong solution: what the GPU backend gives where it cannot see
what the emulator sees; validation on the GPU expects it, the emulator keeps `// verdict:`."""
from __future__ import annotations

from pathlib import Path

import pytest

from grader.core.verdicts import Verdict
from problems.core.package import PackageError, load_package, parse_package, read_package_dir

BANK = Path(__file__).resolve().parents[2] / "problems" / "bank"


def test_a_wrong_solution_may_declare_what_the_gpu_gives():
    package = load_package(BANK / "warp-shuffle-sum")
    wrong = {w.name: w for w in package.wrong}
    lost = wrong["plain_add_into_total.cu"]
    assert (lost.verdict, lost.gpu_verdict) == (Verdict.SYNC_ERROR, Verdict.WRONG_ANSWER)
    assert lost.expected_on("emulator") is Verdict.SYNC_ERROR and lost.expected_on("gpu") is Verdict.WRONG_ANSWER
    plain = wrong["no_barrier_before_warp_zero.cu"]
    assert plain.gpu_verdict is None and plain.expected_on("gpu") is Verdict.SYNC_ERROR


def test_an_unknown_gpu_verdict_is_refused_naming_the_file():
    files = read_package_dir(BANK / "warp-shuffle-sum")
    files["wrong/early_return.cu"] = files["wrong/early_return.cu"].replace("gpu-verdict: ACCEPTED", "gpu-verdict: HANGS")
    with pytest.raises(PackageError, match="unknown gpu-verdict 'HANGS'"):
        parse_package(files)
