"""Validate a problem package: the solution is ACCEPTED, each wrong solution gets its verdict.

A package with variant parameters is validated under each variant of its validation set (every
combination, or the sample its problem.yaml asks for), its sources rendered for that variant.
"""
from __future__ import annotations

from dataclasses import dataclass, field

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
    variant: dict = field(default_factory=dict)  # the variant judged ({} for a package without variants)

    @property
    def ok(self) -> bool:
        return self.result.verdict is self.expected


def validate_package(package: ProblemPackage, backend: Backend, seed_secret: str = "") -> list[ValidationRow]:
    """Judge solution.cu and every wrong/*.cu, under every variant of the validation set.

    Raises PlatformError if the platform fails.
    """
    variants = package.variants.validation_set() if package.variants else [None]
    rows = []
    for variant in variants:
        bound = package.with_variant(variant)
        rows.append(ValidationRow("solution.cu", Verdict.ACCEPTED,
                                  judge(bound, bound.solution, backend, seed_secret=seed_secret), bound.variant))
        for wrong in bound.wrong:
            rows.append(ValidationRow(f"wrong/{wrong.name}", wrong.verdict,
                                      judge(bound, wrong.source, backend, seed_secret=seed_secret), bound.variant))
    return rows
