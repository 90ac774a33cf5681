"""What a kernel problem's page shows, shared by the student's page and the authors' "as a student" preview."""
from __future__ import annotations

from django.utils.translation import get_language

from .markdown import render_statement
from .models import Problem, ProblemVersion
from .services import version_package


def problem_page_context(problem: Problem, version: ProblemVersion, variant: dict | None) -> dict:
    """The parts of `problems/detail.html`'s context that come from the problem alone: the problem,
    its package with `variant` applied (None or {} for the package's own values), the statement in
    the request's language, the kernel's signature, the sample tests, how many tests are hidden and
    the launch. The caller adds the form, the error and the recent submissions.

    `version` must be one of `problem`'s versions; nothing is written."""
    package = version_package(version).with_variant(variant or None)
    return {
        "problem": problem,
        "package": package,
        "statement_html": render_statement(version, get_language(), variant),
        "signature": f"__global__ void {package.kernel.name}({package.kernel.signature()})",
        "sample_tests": [t for t in package.tests if t.sample],
        "hidden_count": sum(1 for t in package.tests if not t.sample),
        "launch": package.launch,
    }
