"""A test case ready to run: its seed, its inputs from the harness and the reference's outputs.

The judge prepares every case before it runs any (judge.py says why: no harness call may overlap
the ptxas report thread); the write-map stage reuses a prepared case's inputs. Plain Python (no Django).
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np

from problems.core.package import ProblemPackage, TestCaseSpec

from . import messages as M
from .errors import PlatformError
from .kernel import ArgRole, LaunchConfig


def case_seed(test: TestCaseSpec, slug: str, secret: str) -> int:
    """The RNG seed of a test case: the package's seed for samples, mixed with a secret for hidden cases."""
    if test.sample or not secret:
        return test.seed
    digest = hashlib.sha256(f"{secret}\0{slug}\0{test.name}\0{test.seed}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


def case_inputs(package: ProblemPackage, harness, test: TestCaseSpec, secret: str) -> dict:
    """The case's inputs: `harness.generate` of the test's sizes with the case's seeded RNG (case_seed), one
    value per kernel argument. Raises PlatformError when the harness leaves an argument out."""
    rng = np.random.default_rng(case_seed(test, package.slug, secret))
    inputs = harness.generate(dict(test.params), rng)
    missing = [a.name for a in package.kernel.args if a.name not in inputs]
    if missing:
        raise PlatformError(f"{package.slug}/harness.py: generate() gave no value for {', '.join(missing)}")
    return inputs


@dataclass
class Case:
    """A test case ready to run: its launch, and its inputs and expected outputs from the harness
    (both None when CUDA would refuse the launch: the case is not run)."""

    test: TestCaseSpec
    launch: LaunchConfig
    refused: M.Message | None  # why CUDA would refuse the launch (launch.launch_problem's), or None
    inputs: dict | None
    expected: dict[str, np.ndarray] | None


def prepare_case(package: ProblemPackage, harness, test: TestCaseSpec, launch: LaunchConfig, refused: M.Message | None,
                  secret: str) -> Case:
    """The case's inputs (seeded) and the reference's outputs for them. Raises PlatformError when the
    harness gives the wrong set of outputs."""
    if refused:
        return Case(test, launch, refused, None, None)
    inputs = case_inputs(package, harness, test, secret)
    expected = harness.reference({k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in inputs.items()})
    wanted = {a.name for a in package.kernel.args if a.role in (ArgRole.OUT, ArgRole.INOUT)}
    if set(expected) != wanted:
        raise PlatformError(f"{package.slug}/harness.py: reference() must return exactly {sorted(wanted)}")
    return Case(test, launch, None, inputs, expected)
