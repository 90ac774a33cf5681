"""Every shipped problem validates on the emulator: the solution is ACCEPTED and each wrong
solution gets exactly the verdict it declares (DESIGN.md, "Problem packages")."""
from pathlib import Path

import pytest

from grader.core.validate import validate_package
from problems.core.package import load_package

BANK = Path(__file__).resolve().parents[2] / "problems" / "bank"
PACKAGES = sorted(p.parent.name for p in BANK.glob("*/problem.yaml"))


@pytest.fixture(scope="module")
def emulator():
    from grader.core.backends.registry import get_backend

    return get_backend("emulator")


def test_bank_has_problems_of_all_three_topics():
    """At least 8 kernel problems, covering indexing, synchronization and reductions/atomics."""
    topics = {load_package(BANK / slug).topic.value for slug in PACKAGES}
    assert len(PACKAGES) >= 8, PACKAGES
    assert {"indexing", "synchronization"} <= topics and topics & {"reduction", "atomics"}


@pytest.mark.slow
@pytest.mark.parametrize("slug", PACKAGES)
def test_package_validates_on_emulator(slug, emulator):
    """solution.cu is ACCEPTED and every wrong/*.cu gets its declared verdict."""
    rows = validate_package(load_package(BANK / slug), emulator)
    report = [(r.name, r.expected.value, r.result.verdict.value, r.result.message) for r in rows if not r.ok]
    assert not report, report
