"""A write map drawn on request, after grading: one test of a graded submission run again on the
write-map build (writemap_stage.writemap_run), its verdict untouched. Plain Python (no Django): the
Celery task grader.tasks.record_writemap calls it.
"""
from __future__ import annotations

from problems.core.package import ProblemPackage, TestCaseSpec

from .backends.base import Backend
from .cases import prepare_case
from .errors import LaunchConfigError
from .judge import LaunchChoice, launch_expressions
from .launch import LaunchExpressionError, build_launch, launch_problem
from .static_checks import static_check_reason
from .writemap_stage import writemap_run


def record_writemap(package: ProblemPackage, source: str, backend: Backend, *, launch_choice: LaunchChoice | None = None,
                    seed_secret: str = "", variant: dict | None = None, test_name: str = "") -> list[dict]:
    """The write maps (writemap.encode's dicts) of one test of an already graded submission, on request.

    The test is `test_name`, else the smallest sample test (the smallest test if none is a sample):
    a map drawn on request is for the student, so a sample's by default. Compiles the source and runs
    only that test with the write map (the verdict is not touched). Returns [] when the backend records
    no write map, the source does not compile or CUDA would refuse the launch. Raises PlatformError
    on platform faults (the caller may retry), ValueError for an unknown test name.
    """
    package = package.with_variant(variant)
    if not backend.supports_writemap or static_check_reason(source):
        return []
    if test_name:
        test = next((t for t in package.tests if t.name == test_name), None)
        if test is None:
            raise ValueError(f"no test named {test_name!r}")
    else:
        samples = [t for t in package.tests if t.sample]
        test = min(samples, key=_size) if samples else package.smallest_test()
    exprs = launch_expressions(package, source, launch_choice)
    try:
        launch = build_launch(*exprs, test.params, **package.launch.options())
    except (LaunchExpressionError, LaunchConfigError):
        return []
    if launch_problem(launch):
        return []
    harness = package.load_harness()
    case = prepare_case(package, harness, test, launch, None, seed_secret)
    build = backend.compile(source, package.kernel)
    try:
        if not build.compile.ok:
            return []
        return writemap_run(package, backend, build, case)
    finally:
        backend.close(build)


def _size(test: TestCaseSpec) -> int:
    """Elements of a test (the product of its sizes), as ProblemPackage.smallest_test measures them."""
    total = 1
    for v in test.params.values():
        total *= max(int(v), 1)
    return total
