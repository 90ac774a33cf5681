"""A test case that hung the GPU and that the emulator then explains (a divergent barrier: SYNC_ERROR) stops
the judge as any hang does: the later test cases would only wait for the same hang.

The H100 burst of 2026-12-06 (docs/gpu-validation.md): block-sum's `divergent_barrier.cu` held a pool process
18 s, its first test stopped at the 5 s limit and explained, its second run to the limit again until the
budget ran out. The hanging backend here is a stand-in for the GPU (its child is killed at the limit: a
TIMEOUT, nothing more); the explainer is the real emulator in its sandbox."""
from __future__ import annotations

from grader.core.backends.base import RunOutcome, RunStatus
from grader.core.backends.dummy import DummyBackend
from grader.core.backends.emulator import EmulatorBackend
from grader.core.explainer import HangExplainer
from grader.core.judge import judge
from grader.core.verdicts import NOT_RUN, DiagnosticKind, Verdict
from grader.core import messages as M
from tests.packages import PROBLEM_YAML, tiny_package

THREE_TESTS = PROBLEM_YAML.replace(
    "  - {name: tail, params: {n: 1025}, seed: 2}\n",
    "  - {name: tail, params: {n: 1025}, seed: 2}\n"
    "  - {name: mid, params: {n: 300}, seed: 3, sample: true}\n")

# The bank's shape (block-sum), in a kernel of this package's signature: the barrier inside the branch of
# the tree reduction (line 10), one more after the loop (line 13) that the other threads wait at.
DIVERGENT = """\
#define TILE 256
extern "C" __global__ void add(const float* a, const float* b, float* c, int n) {
    __shared__ float s[TILE];
    int t = threadIdx.x, i = blockIdx.x * TILE + t;
    s[t] = i < n ? a[i] + b[i] : 0.0f;
    __syncthreads();
    for (int stride = TILE / 2; stride > 0; stride >>= 1) {
        if (t < stride) {
            s[t] += s[t + stride];
            __syncthreads();
        }
    }
    __syncthreads();
    if (i < n) c[i] = a[i] + b[i];
}
"""


class Hangs(DummyBackend):
    """Every run is stopped at its limit, as a GPU child that is killed there: a TIMEOUT and nothing
    more (it cannot tell a deadlock from a slow kernel). Records each request."""

    hangs_need_explaining = True

    def __init__(self):
        super().__init__(self._run)
        self.requests = []

    def _run(self, source, spec, request):
        self.requests.append(request)
        return RunOutcome(RunStatus.TIMEOUT, time_s=request.time_limit_s, message="stopped at the time limit")


def test_a_hang_the_emulator_explains_stops_the_judge_there():
    backend = Hangs()
    result = judge(tiny_package(THREE_TESTS), DIVERGENT, backend, explainer=HangExplainer(EmulatorBackend),
                   run_checks=False)
    assert len(backend.requests) == 1  # not one more run to the limit per test case
    assert [(t.name, t.verdict) for t in result.tests] == [("small", Verdict.SYNC_ERROR), ("tail", NOT_RUN),
                                                            ("mid", NOT_RUN)]
    assert result.verdict is Verdict.SYNC_ERROR
    assert any(d.kind is DiagnosticKind.DIVERGENT_BARRIER and d.line == 10 for d in result.diagnostics)
    assert result.tests[1].message == "Skipped because test small hung."
    assert result.tests[1].message.template == M.NOT_RUN_AFTER["SYNC_ERROR"]
    assert result.limits["used_s"] == 5.0  # one run's limit of the 10 s budget


def test_a_hang_nothing_explains_still_stops_there_as_a_time_limit():
    """Without an explainer (a GPU worker without the emulator) the same run is a TIME_LIMIT: unchanged."""
    backend = Hangs()
    result = judge(tiny_package(THREE_TESTS), DIVERGENT, backend, run_checks=False)
    assert len(backend.requests) == 1
    assert [t.verdict for t in result.tests] == [Verdict.TIME_LIMIT, NOT_RUN, NOT_RUN]
    assert result.tests[2].message == "Skipped because test small ran past the time limit."


def test_the_new_skip_reason_reads_in_korean():
    from django.utils import translation

    with translation.override("ko"):
        said = M.NOT_RUN_AFTER["SYNC_ERROR"](test="small").render(translation.gettext)
    assert said == "앞의 테스트 small에서 커널이 멈춰 이 테스트는 실행하지 않았습니다."


def test_a_row_after_any_other_stopped_verdict_says_the_case_hung():
    """Whatever verdict a stopped case was given, the rows after it read a reason (never a missing key)."""
    from grader.core.judge import _not_run
    from grader.core.results import TestResult
    from problems.core.package.model import TestCaseSpec

    hung = TestResult(name="small", sample=True, verdict=Verdict.RUNTIME_ERROR, message=M.Message.verbatim("x"))
    row = _not_run(TestCaseSpec(name="tail", params={"n": 1025}, seed=2, sample=False), hung)
    assert row.verdict is NOT_RUN and row.message == "Skipped because test small hung."
