"""The judge's write-map stage: which failing test's write map is drawn, and the run that records it.

A backend with supports_writemap records, in one more run of a prepared case (cases.py), which
thread wrote each element of each output (writemap/); the stored maps go in JudgeResult.writemaps.
Plain Python (no Django).
"""
from __future__ import annotations

import logging

from problems.core.package import ProblemPackage

from .backends.base import Backend, Build, RunRequest
from .cases import Case
from .errors import PlatformError
from .results import TestResult
from .verdicts import Verdict
from .writemap.model import wrong_mask
from .writemap.store import encode

log = logging.getLogger(__name__)


# The verdicts whose page draws the write map of the failing test (others: on request only).
WRITEMAP_VERDICTS = frozenset({Verdict.WRONG_ANSWER, Verdict.MEMORY_ERROR})


def writemap_wanted(backend: Backend, test_result: TestResult, mapped: Case | None) -> bool:
    """Whether this test's case is the one to draw: the backend records write maps, the test failed
    with WRONG_ANSWER or MEMORY_ERROR, and no case is chosen yet or the chosen one is hidden and
    this one is a sample (a sample's map is shown to everyone, a hidden test's to staff only)."""
    if not backend.supports_writemap or test_result.verdict not in WRITEMAP_VERDICTS:
        return False
    return mapped is None or (not mapped.test.sample and test_result.sample)


def writemap_run(package: ProblemPackage, backend: Backend, build: Build, case: Case,
                 time_limit_s: float | None = None, budget=None) -> list[dict]:
    """The encoded write maps (writemap.store.encode) of `case`'s outputs, from one write-map run of at most
    `time_limit_s` seconds (None: four times the per-test limit), charged to `budget` (a budget.RunBudget)
    when given; [] when the run records none. Its verdict is not the student's (the case already has one):
    a fault or a timeout here only leaves the map as far as the kernel got."""
    limit = package.time_limit_s * 4 if time_limit_s is None else time_limit_s
    request = RunRequest(launch=case.launch, inputs=case.inputs, time_limit_s=limit, test_name=case.test.name)
    try:
        outcome = backend.run_writemap(build, request)
    except PlatformError as exc:  # a picture is not worth a retry of the whole submission
        log.warning("write map of %s not recorded: %s", case.test.name, exc)
        return []
    if budget is not None:
        budget.charge(outcome)
    maps = []
    for name, wm in outcome.writemaps.items():
        expected = case.expected.get(name)
        got = outcome.outputs.get(name)
        wrong = None
        if expected is not None and got is not None:
            wrong = wrong_mask(expected, got, rtol=package.rtol, atol=package.atol)
        stored = encode(wm, test=case.test.name, sample=case.test.sample, expected=expected, got=got, wrong=wrong)
        if stored is not None:
            maps.append(stored)
    return maps
