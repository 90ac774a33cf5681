"""The playground form's values: from a POST, a stored run, a submission, or the example.

A form is a dict {"source", "kernel", "grid", "block", "shared_bytes", "args": [row, ...],
"submission": Submission | None}; a row is a dict of strings with the keys of
playground.core.spec (name, kind, dtype, size, init, value). Nothing here validates: actions does.
"""
from __future__ import annotations

import logging

import numpy as np

from .core.spec import MAX_ARGUMENTS, MAX_ELEMENTS

log = logging.getLogger(__name__)

ROW_KEYS = ("name", "kind", "dtype", "size", "init", "value")

# The example kernel, its comment in the reader's language (the code is the same in both).
EXAMPLE_SOURCE = {
    "en": """\
// Every thread writes its global index. Change the launch, or the index, and see who wrote what.
__global__ void iota(int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = i;
}
""",
    "ko": """\
// 모든 thread가 자기 global index를 씁니다. launch나 index를 바꿔 보고 누가 무엇을 썼는지 보세요.
__global__ void iota(int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = i;
}
""",
}


def example_form(language: str = "en") -> dict:
    """The form a new playground opens with: a small kernel that runs as it is, commented in `language`
    ("ko..." Korean, anything else English)."""
    source = EXAMPLE_SOURCE["ko" if (language or "").startswith("ko") else "en"]
    return {"source": source, "kernel": "", "grid": "ceil_div(n, 32)", "block": "32", "shared_bytes": "",
            "args": [{"name": "out", "kind": "output", "dtype": "int32", "size": "100", "init": "zeros", "value": ""},
                     {"name": "n", "kind": "scalar", "dtype": "int32", "size": "", "init": "", "value": "100"}],
            "submission": None}


def form_from_post(post) -> dict:
    """The form as posted (fields arg-<i>-<key> for the rows); every value a stripped string."""
    rows = []
    for i in range(MAX_ARGUMENTS):
        row = {key: post.get(f"arg-{i}-{key}", "").strip() for key in ROW_KEYS}
        if row["name"]:
            rows.append(row)
    return {"source": post.get("source", "").replace("\r\n", "\n"), "kernel": post.get("kernel", "").strip(),
            "grid": post.get("grid", "").strip(), "block": post.get("block", "").strip(),
            "shared_bytes": post.get("shared_bytes", "").strip(), "args": rows, "submission": None,
            "submission_id": post.get("from_submission", "").strip()}


def form_from_run(run) -> dict:
    """The form that made `run` (to run it again, or to open a copy of a shared one)."""
    return {"source": run.source, "kernel": run.kernel, "grid": run.launch_grid, "block": run.launch_block,
            "shared_bytes": run.launch_shared_bytes, "args": [dict(r) for r in run.args], "submission": None}


def form_from_submission(submission, full: bool = False) -> dict:
    """The form of "try this kernel in the playground": the submission's source, its problem's kernel
    arguments, and the launch and sizes of the problem's smallest sample test case, evaluated to numbers.
    `full` (instructors, who see hidden tests' details on the submission page too) takes the smallest
    test case, hidden or not; a student is never shown a hidden test's sizes or seed.

    Input arrays start random with the test's seed, outputs as zeros. The arrays' shapes come from
    the harness's generate() for a bank problem (trusted code of this repository); a course's harness
    runs only in the grader's sandbox, so there each array gets the size of the test's first size
    parameter."""
    from grader.core.kernel import ArgRole
    from grader.core.launch import build_launch
    from grader.core.judge import LaunchChoice, launch_expressions

    form = {"source": submission.source, "kernel": "", "grid": "1", "block": "1", "shared_bytes": "", "args": [],
            "submission": submission}
    try:
        package = submission.problem_version.package().with_variant(submission.variant or None)
    except Exception:  # a version that no longer parses: the source alone is still worth trying
        return form
    form["kernel"] = package.kernel.name
    test = None
    if package.tests:
        test = package.smallest_test() if full else package.smallest_sample_test()
        form["test"], form["test_sample"] = test.name, test.sample
    params = dict(test.params) if test else {}
    choice = LaunchChoice(submission.launch_block, submission.launch_grid, submission.launch_shared_bytes)
    try:
        launch = build_launch(*launch_expressions(package, submission.source, choice), params)
        form["grid"] = ", ".join(map(str, _trim(launch.grid)))
        form["block"] = ", ".join(map(str, _trim(launch.block)))
        form["shared_bytes"] = str(launch.shared_bytes) if launch.shared_bytes else ""
    except Exception:  # an expression the sizes cannot evaluate: the user writes the launch
        pass
    inputs = _generated(package, test, submission.problem_version.problem.course_id is None)
    fallback = next((int(v) for v in params.values() if isinstance(v, int) and 0 < v <= MAX_ELEMENTS), 256)
    for arg in package.kernel.args:
        value = inputs.get(arg.name)
        if arg.role is ArgRole.SCALAR:
            scalar = value if value is not None else params.get(arg.name, 0)
            form["args"].append({"name": arg.name, "kind": "scalar", "dtype": arg.dtype, "size": "", "init": "",
                                 "value": str(np.asarray(scalar).item())})
            continue
        shape = np.shape(value) if value is not None else (fallback,)
        size = "x".join(map(str, shape[-2:])) if len(shape) > 1 else str(shape[0] if shape else fallback)
        kind = "input" if arg.role is ArgRole.IN else "output"
        init = "random" if arg.role in (ArgRole.IN, ArgRole.INOUT) else "zeros"
        form["args"].append({"name": arg.name, "kind": kind, "dtype": arg.dtype, "size": size, "init": init,
                             "value": str(test.seed if test else 0) if init == "random" else ""})
    return form


def _trim(dims: tuple[int, int, int]) -> tuple[int, ...]:
    """(256, 1, 1) -> (256,); (16, 16, 1) -> (16, 16)."""
    dims = list(dims)
    while len(dims) > 1 and dims[-1] == 1:
        dims.pop()
    return tuple(dims)


def _generated(package, test, trusted: bool) -> dict:
    """The test case's inputs from the package's harness (a bank package's only), or {}."""
    if test is None or not trusted:
        return {}
    try:
        harness = package.load_harness()
        return harness.generate(dict(test.params), np.random.default_rng(test.seed))
    except Exception as exc:  # the prefill is a convenience: the user can type the sizes
        log.info("no playground prefill from %s's harness: %s", package.slug, exc)
        return {}
