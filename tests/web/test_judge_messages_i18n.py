"""The judge's own words (summaries, per-test messages, diagnostics, our compile messages) in the reader's language.

Results are graded through the real pipeline (the emulator where it can build, the dummy backend
with the GPU backend's timeout path elsewhere), stored through grader.actions and read as a page.
"""
from __future__ import annotations

import html as html_lib

import pytest
from django.conf import settings

from grader.core import messages as M
from grader.core.backends.base import RunRequest, RunStatus
from grader.core.backends.dummy import DummyBackend
from grader.core.judge import judge
from grader.core.results import JudgeResult
from tests.web.conftest import SOURCE, compile_error_result, graded_result


def _page(client, submission, how: str = "header") -> str:
    """The submission page in Korean, asked for by the Accept-Language header or the language cookie."""
    if how == "cookie":
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ko"
        response = client.get(submission.get_absolute_url())
    else:
        response = client.get(submission.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="ko")
    assert response.status_code == 200
    return html_lib.unescape(response.content.decode())


@pytest.fixture(scope="module")
def emulator():
    from grader.core.backends.emulator import EmulatorBackend

    backend = EmulatorBackend()
    problems = backend.check()
    if problems:
        pytest.skip("the emulator cannot run here: " + "; ".join(problems))
    return backend


def _gpu_timeout(source, spec, request: RunRequest):
    """What the GPU backend answers when its child is killed at the time limit (the judge asks no explainer)."""
    from grader.core.backends.gpu import GpuBackend, GpuHandle

    backend = GpuBackend(arch="sm_90")
    try:
        return backend._timeout(GpuHandle(source=source, spec=spec, cubin=None, entry="add"), request, 2.5)
    finally:
        backend.shutdown()


@pytest.mark.parametrize("how", ["header", "cookie"])
def test_emulator_out_of_bounds_shown_in_korean(problem, alice, alice_client, make_submission, emulator, how):
    """`i <= n` writes one element past c: the emulator's out-of-bounds diagnostic and the summary that
    quotes it read in Korean, with the buffer name, index and line as the runtime gave them."""
    result = judge(problem.current_version.package(), SOURCE, emulator, run_checks=False)
    diag = result.diagnostics[0]
    assert diag.kind == "out_of_bounds" and diag.message.template in M.RUNTIME_FAULTS
    submission = make_submission(alice, problem, JudgeResult.from_dict(result.to_dict()))  # through the stored JSON

    page = _page(alice_client, submission, how)
    assert "테스트 small: 전역 버퍼" in page  # the summary names the failing test, not the count again
    assert "전역 버퍼 '" in page and "의 범위를 벗어난 " in page and "(유효한 인덱스는 0부터 4까지)" in page
    assert diag.message not in page  # the English text is gone
    assert "(3번 줄)" in page  # the summary's line, kept as a parameter


def test_gpu_timeout_summary_and_test_message_in_korean(problem, alice, alice_client, make_submission):
    """The GPU backend's time-limit diagnostic: summary, the test's message and the diagnostic in Korean;
    English stays the default."""
    def run(source, spec, request):
        outcome = _gpu_timeout(source, spec, request)
        assert outcome.status is RunStatus.TIMEOUT
        return outcome

    result = judge(problem.current_version.package(), SOURCE, DummyBackend(run_fn=run))
    assert result.message == "Test small: The kernel ran past the 5 s limit and was stopped."
    submission = make_submission(alice, problem, result)

    page = _page(alice_client, submission)
    assert "테스트 small: 커널이 제한 시간 5초를 넘겨 중단되었습니다." in page
    assert page.count("커널이 제한 시간 5초를 넘겨 중단되었습니다.") >= 3  # summary, test row, diagnostic
    english = html_lib.unescape(alice_client.get(submission.get_absolute_url()).content.decode())
    assert "Test small: The kernel ran past the 5 s limit and was stopped." in english


def test_our_compile_message_in_korean(problem, alice, alice_client, make_submission):
    """A refusal the judge writes itself (an empty source) is shown in Korean in the summary and the
    compile messages; a compiler's own message stays as the compiler printed it."""
    empty = make_submission(alice, problem, judge(problem.current_version.package(), "   \n", DummyBackend()))
    assert "소스가 비어 있습니다." in _page(alice_client, empty)

    compiled = make_submission(alice, problem, compile_error_result())
    page = _page(alice_client, compiled)
    assert "expected ';' before 'if'" in page  # the compiler's words


def test_old_result_without_templates_shows_english(problem, alice, alice_client, make_submission):
    """A result stored before messages had templates renders its English messages on a Korean page."""
    stored = graded_result().to_dict()
    for item in [stored, *stored["tests"], *stored["diagnostics"]]:
        item.pop("message_template", None)
        item.pop("message_params", None)
    submission = make_submission(alice, problem, JudgeResult.from_dict(stored))
    page = _page(alice_client, submission)
    assert "Two threads write c[i] without a barrier." in page
    assert "1/2 test cases passed." in page


def test_hidden_diagnostic_params_never_reach_a_student(problem, alice, alice_client, alice_api, make_submission,
                                                        emulator):
    """The hidden test's out-of-bounds index (1025) is in its parameters: neither the Korean page nor the
    Korean API answer shows it; the API's messages are Korean there, their templates English."""
    result = judge(problem.current_version.package(), SOURCE, emulator, run_checks=False)
    assert any(d.test == "tail" and "1025" in d.message for d in result.diagnostics)
    submission = make_submission(alice, problem, result)

    page = _page(alice_client, submission)
    assert "1025" not in page.replace("n=1025", "")
    data = alice_api.get(f"/api/v1/submissions/{submission.pk}", HTTP_ACCEPT_LANGUAGE="ko").json()
    assert "1025" not in str(data["diagnostics"]) and data["message"].startswith("테스트 small: 전역 버퍼")
    assert data["message_template"] == M.SUMMARY_TEST_AT_LINE
    sample = next(d for d in data["diagnostics"] if d["test"] == "small")
    assert sample["message_template"] in M.RUNTIME_FAULTS and sample["message"].startswith("전역 버퍼 '")


@pytest.mark.parametrize("language", [None, "en", "ko"])
def test_api_messages_in_the_requests_language(problem, alice, alice_api, make_submission, language):
    """GET /api/v1/submissions/<id> renders the judge's messages (the summary, the test's message, the
    diagnostic, the judge's own compile message) in the Accept-Language's language: Korean for `ko`,
    English for `en` and without the header. The templates and parameters are the same in every language."""
    def run(source, spec, request):
        return _gpu_timeout(source, spec, request)

    timeout = make_submission(alice, problem, judge(problem.current_version.package(), SOURCE, DummyBackend(run_fn=run)))
    empty = make_submission(alice, problem, judge(problem.current_version.package(), "   \n", DummyBackend()))
    headers = {"HTTP_ACCEPT_LANGUAGE": language} if language else {}

    data = alice_api.get(f"/api/v1/submissions/{timeout.pk}", **headers).json()
    refused = alice_api.get(f"/api/v1/submissions/{empty.pk}", **headers).json()

    small = next(t for t in data["tests"] if t["name"] == "small")
    texts = [data["message"], small["message"], data["diagnostics"][0]["message"]]
    compile_texts = [refused["message"]] + [m["message"] for m in refused["compile"]["messages"]]
    if language == "ko":
        assert data["message"] == "테스트 small: 커널이 제한 시간 5초를 넘겨 중단되었습니다."
        assert all("커널이 제한 시간 5초를 넘겨 중단되었습니다." in text for text in texts)
        assert any("소스가 비어 있습니다." in text for text in compile_texts)
    else:
        assert data["message"] == "Test small: The kernel ran past the 5 s limit and was stopped."
        assert all("The kernel ran past the 5 s limit and was stopped." in text for text in texts)
        assert any("The source is empty." in text for text in compile_texts)
    assert data["message_template"] == M.SUMMARY_TEST
    assert data["message_params"]["test"] == "small"


@pytest.mark.parametrize("language", ["en", "ko"])
def test_api_occupancy_working_in_the_requests_language(problem, alice, alice_api, make_submission, language):
    """The resource card's occupancy working (resources.occupancy.steps[].text) reads in the request's
    language too, like every other sentence of the API; its codes, values and formulas stay as stored."""
    from grader.core.results import Resources
    from problems.core.occupancy import occupancy

    result = judge(problem.current_version.package(), SOURCE, DummyBackend())
    working = occupancy("9.0", 256, 32, 1024)
    result.resources = Resources(registers=32, shared_static_bytes=1024, threads_per_block=256,
                                 compute_capability="9.0", occupancy=working.to_dict(), source="ptxas")
    submission = make_submission(alice, problem, result)
    steps = alice_api.get(f"/api/v1/submissions/{submission.pk}",
                          HTTP_ACCEPT_LANGUAGE=language).json()["resources"]["occupancy"]["steps"]
    assert [s["text"] for s in steps] == working.explain(language)
    assert [(s["code"], s["formula"]) for s in steps] == [(s.code, s.formula) for s in working.steps]
    if language == "ko":
        assert any("워프" in s["text"] or "블록" in s["text"] or "warp" in s["text"] for s in steps)
        assert steps[0]["text"] != working.steps[0].text("en")


def test_diagnostic_labels_are_translated():
    """The labels on diagnostics (pills) and the topic names have Korean forms."""
    from django.utils import translation

    from problems.templatetags.warpdrill import DIAGNOSTIC_LABELS

    with translation.override("ko"):
        for kind in ("divergent_barrier", "deadlock", "race", "stack_overflow", "out_of_bounds"):
            label = str(DIAGNOSTIC_LABELS[kind])
            # Korean, but the CUDA field terms stay in English (tests/architecture/test_korean_field_terms.py),
            # and so does the name "divergent barrier" (docs/content.md, "Verbs and actions")
            words = label.replace("divergent barrier", "").replace("barrier", "").replace("race", "")
            assert label and not any("a" <= ch.lower() <= "z" for ch in words), (kind, label)
