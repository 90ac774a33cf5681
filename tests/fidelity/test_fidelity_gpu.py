"""Every fidelity case on the GPU backend (`pytest -m gpu`; skipped without PyCUDA and an NVIDIA GPU).

The same cases as test_fidelity_cases.py, judged by the GPU path as a student's submission would be
(the one-kernel package of each case, its tests, the sanitizer passes, the emulator's explanation of
a hang where the worker has the emulator). The verdict must be the case's `expect.verdict`, or, where
the GPU path cannot see the fault by design, its `expect.gpu` (the reason is `expect.gpu_reason`).
So the H200's race and barrier regressions are pytest failures, not only rows of
bench/gpu_validate.py --parts cases. A case with `needs:` is a strict xfail, as on the emulator.
Cases marked `h200: {unmeasured: ...}` run like the others: their first run on the H200 is the
measurement, and a failure there means the documents' decision must be looked at again
(docs/synchronization.md, "Warp operations at different calls").
"""
from __future__ import annotations

import pytest

from .cases import FidelityCase, load_cases


def allowed(case: FidelityCase) -> set[str]:
    """The verdicts the GPU path may give: the case's, and its `expect.gpu` where the GPU path cannot
    see the fault (a hang without the emulator on the worker is TIME_LIMIT, a global-memory race is
    WRONG_ANSWER, ...)."""
    expect = case.meta.get("expect") or {}
    return {case.verdict, *([expect["gpu"]] if expect.get("gpu") else [])}


@pytest.fixture(scope="module")
def gpu():
    from tests.gpu.conftest import require_gpu

    require_gpu()
    from grader.core import sandbox

    mp = pytest.MonkeyPatch()
    if not sandbox.box.DEFAULT.works():  # the H200 machine has no bubblewrap
        mp.setattr(sandbox.box, "DEFAULT", sandbox.Sandbox(allow_unsafe=True))
    from grader.core.backends.gpu import GpuBackend

    backend = GpuBackend()
    yield backend
    backend.shutdown()
    mp.undo()


def _param(case: FidelityCase):
    marks = [pytest.mark.xfail(strict=True, reason=case.needs)] if case.needs else []
    return pytest.param(case, id=case.slug, marks=marks)


@pytest.mark.gpu
@pytest.mark.parametrize("case", [_param(c) for c in load_cases()])
def test_case_gets_its_verdict_on_the_gpu(gpu, case: FidelityCase):
    """The GPU backend gives the case's verdict, or the one its `expect.gpu` names."""
    from grader.core.backends.registry import hang_explainer
    from grader.core.judge import judge

    result = judge(case.package(), case.source, gpu, explainer=hang_explainer(gpu))
    got = str(result.verdict)
    detail = (f"{case.slug}: {got}, {result.message!r}; diagnostics "
              f"{[(str(d.kind), d.line) for d in result.diagnostics][:4]}; "
              f"{'unmeasured: ' + str(case.meta['h200']['unmeasured']) if not case.measured else ''}")
    assert got in allowed(case), detail


def test_every_case_says_what_the_gpu_may_give():
    """Runs anywhere: each case's allowed GPU verdicts are verdicts, and a case whose `expect.gpu` differs
    from its verdict says why (`gpu_reason`), as bench/gpu_validate.py reports it."""
    from grader.core.verdicts import Verdict

    for case in load_cases():
        assert allowed(case) <= {v.value for v in Verdict}, case.slug
        expect = case.meta["expect"]
        if expect.get("gpu") and expect["gpu"] != case.verdict:
            assert expect.get("gpu_reason"), case.slug
