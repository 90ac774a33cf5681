"""Validate a problem package: the solution is ACCEPTED, each wrong solution gets its verdict."""
from __future__ import annotations

from dataclasses import dataclass

from problems.core.package import ProblemPackage

from .backends.base import Backend
from .pipeline import judge
from .results import JudgeResult
from .verdicts import Verdict


@dataclass
class ValidationRow:
    """One solution of the package judged."""

    name: str  # "solution.cu" or "wrong/<file>"
    expected: Verdict
    result: JudgeResult

    @property
    def ok(self) -> bool:
        return self.result.verdict is self.expected


def validate_package(package: ProblemPackage, backend: Backend, seed_secret: str = "") -> list[ValidationRow]:
    """Judge solution.cu and every wrong/*.cu. Raises PlatformError if the platform fails."""
    rows = [ValidationRow("solution.cu", Verdict.ACCEPTED, judge(package, package.solution, backend,
                                                                 seed_secret=seed_secret))]
    for wrong in package.wrong:
        rows.append(ValidationRow(f"wrong/{wrong.name}", wrong.verdict,
                                  judge(package, wrong.source, backend, seed_secret=seed_secret)))
    return rows
