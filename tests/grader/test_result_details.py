"""What the result page and the API say beyond the verdict (issue 11, "Also"): a float mismatch's
tolerance and error, a 2-D index by its axes, a launch whose block cannot fit, every line a
diagnostic names highlighted, whether a deadlock was proven, and which backend graded."""
from __future__ import annotations

import re

import numpy as np
import pytest

from grader.core import messages as M
from grader.core.backends.base import RunOutcome, RunStatus
from grader.core.backends.dummy import DummyBackend
from grader.core.compare import compare_output
from grader.core.judge import judge
from grader.core.summary import mismatch_message
from grader.core.results import Diagnostic, JudgeResult, Mismatch, Resources, diagnostic_lines
from grader.core.verdicts import DiagnosticKind, Verdict
from problems.core.occupancy import occupancy_for_resources
from tests.grader.test_result_page import FILES, HEAD, PACKAGE, page, rows
from tests.grader.test_result_page import emulator, judged, three_tests  # noqa: F401 (fixtures)
from tests.web.conftest import alice, alice_client, fast_password_hasher, make_submission  # noqa: F401 (fixtures)


# ---- a float mismatch says the tolerance and the error ----

def test_a_float_mismatch_gives_the_allowed_difference_and_the_one_found():
    """expected 1.0, got 1.0099 with atol 1e-3: 'allowed 1.0e-03, off by 9.9e-03'."""
    mismatch = compare_output("y", np.array([1.0, 2.0], np.float32), np.array([1.0099, 2.0], np.float32), 1e-3, 0.0)
    assert (mismatch.allowed, mismatch.error) == ("1.0e-03", "9.9e-03")
    message = mismatch_message(mismatch)
    assert message.template == M.MISMATCH_ONE_TOLERANCE
    assert message == "y[0]: expected 1.0, got 1.0099 (allowed 1.0e-03, off by 9.9e-03; 1 element differs)"


def test_integers_and_nan_have_no_tolerance_to_state():
    """Exact integer outputs, and a NaN where a number was expected, keep the plain message."""
    ints = compare_output("h", np.array([3], np.uint32), np.array([4], np.uint32), 0, 0)
    nan = compare_output("y", np.array([1.0], np.float32), np.array([np.nan], np.float32), 1e-3, 0)
    for mismatch in (ints, nan):
        assert mismatch.allowed is None and mismatch_message(mismatch).template == M.MISMATCH_ONE


def test_the_tolerance_is_on_the_page_in_both_languages(three_tests, alice, alice_client, make_submission, emulator):
    """A kernel off by 0.01 at one element: its row and the mismatch card say what was allowed and how far off it is."""
    kernel = HEAD + "    if (i < n) c[i] = a[i] + b[i] + (i == 2 ? 0.01f : 0.0f);\n}\n"
    result = judge(PACKAGE, kernel, emulator, run_checks=False)
    small = result.tests[0]
    expected = float(small.mismatch.expected)
    allowed = f"{1e-6 + 1e-6 * abs(expected):.1e}"
    assert small.mismatch.allowed == allowed and small.mismatch.error.endswith("e-02")
    assert f"(allowed {allowed}, off by {small.mismatch.error}; 1 element differs)" in small.message
    submission = make_submission(alice, three_tests, result, source=kernel)
    english, korean = page(alice_client, submission), page(alice_client, submission, "ko")
    assert f"allowed {allowed}, off by" in rows(english)["small"]
    assert re.search(rf"<dt>Allowed difference</dt><dd><code>{re.escape(allowed)}</code>", english)
    assert f"허용 오차 {allowed}, 실제 차이 {small.mismatch.error}" in rows(korean)["small"]
    assert "<dt>허용 오차</dt>" in korean and "<dt>실제 차이</dt>" in korean


# ---- a 2-D index names its axes ----

def test_a_two_dimensional_index_reads_row_then_column():
    """out[0, 1] of a 2 x 3 row-major output is named '[row 0, col 1]' (not read as (x, y)); in Korean '[행 0, 열 1]'."""
    from django.utils.translation import gettext, override

    mismatch = compare_output("C", np.zeros((2, 3), np.int32), np.array([[0, 7, 0], [0, 0, 0]], np.int32), 0, 0)
    assert mismatch.index == [0, 1]
    message = mismatch_message(mismatch)
    assert message == "C[row 0, col 1]: expected 0, got 7 (1 element differs)"
    with override("ko"):
        assert message.render(gettext).startswith("C[행 0, 열 1]: 기대값 0")
    one_d = compare_output("c", np.zeros(4, np.int32), np.array([0, 0, 5, 0], np.int32), 0, 0)
    assert mismatch_message(one_d).startswith("c[2]: ")


def test_the_mismatch_card_names_the_axes(judged, three_tests, alice, alice_client, make_submission):
    """The card's index of a 2-D output reads 'row 0, col 1' ('행 0, 열 1')."""
    result = JudgeResult.from_dict(judged("subtracts").to_dict())
    result.tests[0].mismatch = Mismatch("C", [0, 1], "1.0", "2.0", 3)
    submission = make_submission(alice, three_tests, result)
    assert "<dt>Index</dt><dd><code>row 0, col 1</code>" in page(alice_client, submission)
    assert "<code>행 0, 열 1</code>" in page(alice_client, submission, "ko")


# ---- the resource card of a launch that cannot run ----

def test_a_block_of_2048_threads_cannot_launch_and_the_card_says_so(judged, three_tests, alice, alice_client,
                                                                    make_submission):
    """With 2048 threads per block no block fits on an SM: the card says the block cannot launch and
    why, instead of 'Limited by: warps'."""
    result = JudgeResult.from_dict(judged("solution").to_dict())
    resources = Resources(registers=16, threads_per_block=2048, compute_capability="9.0", source="ptxas")
    resources.occupancy = occupancy_for_resources(resources)
    assert resources.occupancy["blocks_per_sm"] == 0
    result.resources = resources
    submission = make_submission(alice, three_tests, result)
    english = " ".join(re.sub(r"<[^>]+>", " ", page(alice_client, submission)).split())
    assert "The block cannot launch: 2048 threads per block is more than the 1024 a block may have." in english
    assert "Limited by" not in english
    korean = " ".join(re.sub(r"<[^>]+>", " ", page(alice_client, submission, "ko")).split())
    assert "이 block으로는 커널을 실행할 수 없습니다: block당 thread 2048개는" in korean


# ---- every line a diagnostic names ----

def test_diagnostic_lines_collects_both_accesses_of_a_race_and_every_waiting_group():
    """A race names its line and the other access's; a deadlock its waiting and spinning groups; once each."""
    race = Diagnostic(DiagnosticKind.RACE, line=7, detail={"other_line": 5, "hazard": "RAW"}).to_dict()
    deadlock = Diagnostic(DiagnosticKind.DEADLOCK, line=9, detail={
        "proven": False, "waiting": [{"line": 9, "threads": 32}], "spinning": [{"line": 12, "threads": 224}],
        "spin_line": 12}).to_dict()
    sanitizer = Diagnostic(DiagnosticKind.RACE, line=4, detail={"lines": [4, 6]}).to_dict()
    assert diagnostic_lines(race) == [7, 5]
    assert diagnostic_lines(deadlock) == [9, 12]
    assert diagnostic_lines(sanitizer) == [4, 6]
    assert diagnostic_lines({"line": None, "detail": {}}) == []


def test_every_line_a_race_names_is_highlighted_and_linked(judged, three_tests, alice, alice_client, make_submission):
    """A race between lines 3 and 4 marks both rows of the listing and links both from the diagnostic."""
    source = HEAD + "    c[i] = a[i];\n    c[i] += b[i];\n}\n"
    result = JudgeResult.from_dict(judged("solution").to_dict())
    result.verdict = Verdict.SYNC_ERROR
    result.diagnostics = [Diagnostic(DiagnosticKind.RACE, message="race", line=3, test="small",
                                     detail={"other_line": 4, "hazard": "WAW"})]
    submission = make_submission(alice, three_tests, result, source=source)
    html = page(alice_client, submission)
    assert re.search(r'<tr id="L3" class="marked">', html) and re.search(r'<tr id="L4" class="marked">', html)
    assert not re.search(r'<tr id="L2" class="marked">', html)
    head = html.split('class="diag-head"')[1].split("</div>")[0]
    assert 'href="#L3"' in head and 'href="#L4"' in head


# ---- a deadlock says whether it was proven ----

@pytest.mark.parametrize(("proven", "english", "korean"), [
    (True, "Proven: no thread can run", "증명됨:"),
    (False, "Found, not proven: threads waited at a barrier", "증명이 아니라 발견입니다"),
])
def test_a_deadlock_says_whether_it_was_proven(judged, three_tests, alice, alice_client, make_submission,
                                              proven, english, korean):
    """The emulator's `proven` flag is stated on the page: a proof, or a watchdog's finding."""
    result = JudgeResult.from_dict(judged("deadlock").to_dict())
    for d in result.diagnostics:
        if d.kind is DiagnosticKind.DEADLOCK:
            d.detail["proven"] = proven
    submission = make_submission(alice, three_tests, result, source=FILES["solution.cu"])
    assert english in page(alice_client, submission) and korean in page(alice_client, submission, "ko")


def test_the_spin_wait_statement_says_its_deadlock_is_found_not_proven():
    """spin-wait-deadlock's statements say the emulator's finding there is a watchdog's (`proven: false`)."""
    from pathlib import Path

    folder = Path(__file__).resolve().parents[2] / "problems" / "bank" / "spin-wait-deadlock"
    english, korean = (folder / "statement.md").read_text(), (folder / "statement.ko.md").read_text()
    assert "`proven: false`" in english and "proves" not in english
    assert "`proven: false`" in korean and "증명합니다" not in korean


# ---- which backend graded ----

def test_the_result_stores_the_device_the_backend_names():
    """judge() stores backend.device_name() with the result, and it survives the JSON round trip."""
    class OnAGpu(DummyBackend):
        def device_name(self):
            return "NVIDIA H200"

    result = judge(PACKAGE, FILES["solution.cu"], OnAGpu(lambda s, spec, r: RunOutcome(
        RunStatus.OK, outputs={"c": r.inputs["a"] + r.inputs["b"]})), run_checks=False)
    assert result.verdict is Verdict.ACCEPTED and result.device == "NVIDIA H200"
    assert JudgeResult.from_dict(result.to_dict()).device == "NVIDIA H200"
    assert judge(PACKAGE, FILES["solution.cu"], DummyBackend(), run_checks=False).device == ""


@pytest.mark.parametrize(("backend", "device", "english", "korean"), [
    ("gpu", "NVIDIA H200", "Graded on a GPU: NVIDIA H200", "GPU에서 채점했습니다: NVIDIA H200"),
    ("gpu", "", "Graded on a GPU", "GPU에서 채점했습니다"),
    ("emulator", "", "Graded on the CPU emulator (no GPU)", "CPU emulator에서 채점했습니다"),
])
def test_the_page_and_the_api_say_which_backend_graded(judged, three_tests, alice, alice_client, make_submission,
                                                       backend, device, english, korean):
    """The verdict card names the backend (and the GPU's name); the API gives backend.name and backend.device."""
    from rest_framework.test import APIClient

    result = JudgeResult.from_dict(judged("solution").to_dict())
    result.backend, result.device = backend, device
    submission = make_submission(alice, three_tests, result)
    assert english in page(alice_client, submission) and korean in page(alice_client, submission, "ko")
    api = APIClient()
    api.force_authenticate(alice)
    body = api.get(f"/api/v1/submissions/{submission.pk}").json()
    assert body["backend"] == {"name": backend, "device": device or None}


def test_the_gpu_backend_names_the_gpu_its_warm_child_greeted_with(tmp_path):
    """GpuBackend.device_name() is the device of the main child's hello, and "" before a child started."""
    from types import SimpleNamespace

    from grader.core.backends.gpu import GpuBackend
    from grader.core.gpu.cache import CompileCache

    class Pool:
        main = None

        def close(self):
            pass

    pool = Pool()
    backend = GpuBackend(pool=pool, cache=CompileCache(tmp_path), compiler="nvcc", checks=())
    assert backend.device_name() == ""
    pool.main = SimpleNamespace(info={"op": "ready", "device": "NVIDIA H200", "cc": "9.0"}, jobs=0)
    assert backend.device_name() == "NVIDIA H200"
