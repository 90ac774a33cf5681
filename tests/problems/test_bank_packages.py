"""Every shipped problem package parses, and its harness is deterministic and complete.

These checks need no compiler and no database: they catch a broken problem.yaml or
harness.py before the (slower) end-to-end validation in tests/grader/test_bank_validates.py.
"""
from pathlib import Path

import numpy as np
import pytest

from grader.core.backends.base import ArgRole
from problems.core.package import load_package

BANK = Path(__file__).resolve().parents[2] / "problems" / "bank"
PACKAGES = sorted(p.parent.name for p in BANK.glob("*/problem.yaml"))

# Keeps a whole problem quick to judge on the CPU emulator (2^20 + 3 is the largest case shipped).
MAX_ELEMENTS = 2**20 + 3


def _copy(inputs: dict) -> dict:
    return {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in inputs.items()}


@pytest.fixture(scope="module", params=PACKAGES)
def package(request):
    return load_package(BANK / request.param).with_variant()  # a package with variants: its default one


def test_bank_is_not_empty():
    """The bank ships at least eight kernel problems."""
    assert len(PACKAGES) >= 8, PACKAGES


def test_package_has_statements_solutions_and_wrong_solutions(package):
    """A package has English and Korean statements and titles, and at least two wrong solutions."""
    assert set(package.statement) == {"en", "ko"}
    assert {"en", "ko"} <= set(package.title)
    assert len(package.wrong) >= 2
    assert package.kernel.name in package.solution and package.kernel.name in package.starter
    assert any(t.sample for t in package.tests) and 3 <= len(package.tests) <= 6


def test_generate_is_deterministic_for_a_seed(package):
    """The same test seed gives the same inputs; every kernel argument gets a value."""
    harness = package.load_harness()
    for test in package.tests:
        first = harness.generate(dict(test.params), np.random.default_rng(test.seed))
        again = harness.generate(dict(test.params), np.random.default_rng(test.seed))
        assert set(first) == {a.name for a in package.kernel.args}, test.name
        for arg in package.kernel.args:
            value, other = first[arg.name], again[arg.name]
            if arg.role is ArgRole.SCALAR:
                assert isinstance(value, (int, float, np.integer, np.floating)), (test.name, arg.name)
                assert value == other, (test.name, arg.name)
                continue
            assert isinstance(value, np.ndarray), (test.name, arg.name)
            assert value.dtype == np.dtype(arg.dtype), (test.name, arg.name, value.dtype)
            assert value.flags.c_contiguous and 0 < value.size <= MAX_ELEMENTS, (test.name, arg.name)
            assert value.shape == other.shape, (test.name, arg.name)
            if arg.role is not ArgRole.OUT:  # OUT buffers are np.empty: their contents are poisoned anyway
                np.testing.assert_array_equal(value, other, err_msg=f"{test.name}: {arg.name}")


def test_reference_returns_every_output_with_its_shape_and_dtype(package):
    """reference() gives exactly the out/inout arguments, shaped and typed like the inputs."""
    harness = package.load_harness()
    outputs = {a.name: a for a in package.kernel.args if a.role in (ArgRole.OUT, ArgRole.INOUT)}
    for test in package.tests:
        inputs = harness.generate(dict(test.params), np.random.default_rng(test.seed))
        snapshot = _copy(inputs)
        expected = harness.reference(_copy(inputs))
        assert set(expected) == set(outputs), test.name
        for name, arg in outputs.items():
            got = np.asarray(expected[name])
            assert got.shape == inputs[name].shape, (test.name, name)
            assert got.dtype == np.dtype(arg.dtype), (test.name, name, got.dtype)
            if got.dtype.kind == "f":
                assert np.isfinite(got).all(), (test.name, name)
        again = harness.reference(_copy(snapshot))
        for name in outputs:
            np.testing.assert_array_equal(expected[name], again[name], err_msg=f"{test.name}: {name}")


def test_wrong_solutions_declare_a_failing_verdict(package):
    """Each wrong solution names the verdict it must get, and none expects ACCEPTED."""
    for wrong in package.wrong:
        assert wrong.verdict.value != "ACCEPTED", wrong.name
        assert wrong.source.lstrip().startswith("// verdict:"), wrong.name
