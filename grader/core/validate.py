"""Validate a problem package: the solution is ACCEPTED, each wrong solution gets its verdict.

A package with variant parameters is validated under each variant of its validation set (every
combination, or the sample its problem.yaml asks for), its sources rendered for that variant.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from problems.core.package import ProblemPackage

from . import messages as M
from .backends.base import Backend
from .kernel import ArgInit, ArgRole
from .explainer import HangExplainer
from .judge import judge
from .results import JudgeResult
from .verdicts import Verdict


@dataclass
class ValidationRow:
    """One solution of the package judged."""

    name: str  # "solution.cu" or "wrong/<file>"
    expected: Verdict
    result: JudgeResult
    variant: dict = field(default_factory=dict)  # the variant judged ({} for a package without variants)
    # Warnings for the package's author: messages of grader/core/messages.py, rendered where shown.
    warnings: list[M.Message] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.result.verdict is self.expected


def validate_package(package: ProblemPackage, backend: Backend, seed_secret: str = "",
                     explainer: HangExplainer | None = None) -> list[ValidationRow]:
    """Judge solution.cu and every wrong/*.cu, under every variant of the validation set (a hang
    explained by `explainer`, as judge.judge does).

    Raises PlatformError if the platform fails. When solution.cu fails, each poisoned `out` buffer is
    tried once more zeroed: a solution that is ACCEPTED that way reads the buffer before writing it
    (it accumulates into it), and its row carries a VALIDATE_OUT_READ_BEFORE_WRITE warning naming it.
    """
    variants = package.variants.validation_set() if package.variants else [None]
    rows = []
    for variant in variants:
        bound = package.with_variant(variant)
        solution = ValidationRow("solution.cu", Verdict.ACCEPTED,
                                 judge(bound, bound.solution, backend, seed_secret=seed_secret, explainer=explainer), bound.variant)
        if not solution.ok:
            solution.warnings = _out_buffers_read_first(bound, backend, seed_secret)
        rows.append(solution)
        for wrong in bound.wrong:
            rows.append(ValidationRow(f"wrong/{wrong.name}", wrong.expected_on(backend.name),
                                      judge(bound, wrong.source, backend, seed_secret=seed_secret, writemaps=False,
                                            explainer=explainer), bound.variant))
    return rows


def _out_buffers_read_first(package: ProblemPackage, backend: Backend, seed_secret: str) -> list[M.Message]:
    """Warnings for the poisoned out buffers whose zeroing makes solution.cu ACCEPTED."""
    warnings = []
    for k, arg in enumerate(package.kernel.args):
        if arg.role is not ArgRole.OUT or arg.init is not ArgInit.POISON:
            continue
        args = list(package.kernel.args)
        args[k] = replace(arg, init=ArgInit.ZEROS)
        zeroed = replace(package, kernel=replace(package.kernel, args=tuple(args)))
        if judge(zeroed, package.solution, backend, seed_secret=seed_secret, run_checks=False).verdict is Verdict.ACCEPTED:
            warnings.append(M.VALIDATE_OUT_READ_BEFORE_WRITE(file="solution.cu", name=arg.name))
    return warnings
