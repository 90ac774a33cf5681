"""What a student reads of a judged result: the summary, the rows of test cases not run after a hang,
a sync error's row, and an invalid launch's reason, in English and in Korean.

The results come from the real pipeline on the emulator (small kernels of the tiny-add package);
the rows are read from the rendered submission page (templates/partials/submission_live.html).
"""
from __future__ import annotations

import html as html_lib
import re

import pytest

from grader.core import messages as M
from grader.core.pipeline import LaunchChoice, judge
from grader.core.results import JudgeResult
from grader.core.verdicts import NOT_RUN, Verdict
from problems.core.package import parse_package
from tests.packages import PROBLEM_YAML, tiny_package_files
from tests.web.conftest import (  # noqa: F401 (fixtures)
    alice,
    alice_client,
    fast_password_hasher,
    import_files,
    make_submission,
)

# tiny-add with three test cases (small and mid are samples, tail hidden) and a 1 s time limit.
THREE_TESTS_YAML = PROBLEM_YAML.replace("limits: {time_s: 5}", "limits: {time_s: 1}").replace(
    "  - {name: tail, params: {n: 1025}, seed: 2}\n",
    "  - {name: tail, params: {n: 1025}, seed: 2}\n  - {name: mid, params: {n: 300}, seed: 3, sample: true}\n")
FILES = tiny_package_files(**{"problem.yaml": THREE_TESTS_YAML})
PACKAGE = parse_package(FILES)

HEAD = "__global__ void add(const float* a, const float* b, float* c, int n) {\n" \
       "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
KERNELS = {
    # Every thread loops forever on line 3: TIME_LIMIT on the first test.
    "hang": HEAD + "    while (n > 0) { if (i < n) c[i] = a[i] + b[i]; }\n}\n",
    # Half a warp at __syncwarp, the rest at __syncthreads: DEADLOCK on the first test.
    "deadlock": HEAD + "    if (threadIdx.x < 16) __syncwarp(); else __syncthreads();\n"
                       "    if (i < n) c[i] = a[i] + b[i];\n}\n",
    # Odd and even threads at two different __syncthreads (line 3), and a - b: a sync error and a mismatch.
    "divergent": HEAD + "    if (threadIdx.x % 2) { __syncthreads(); } else { __syncthreads(); }\n"
                        "    if (i < n) c[i] = a[i] - b[i];\n}\n",
    # Right for the samples (n = 5, 300), wrong only on the hidden test (n = 1025).
    "hidden_wrong": HEAD + "    if (i < n) c[i] = i < 1000 ? a[i] + b[i] : 0.0f;\n}\n",
    "subtracts": tiny_package_files()["wrong/subtracts.cu"],
    "solution": FILES["solution.cu"],
}


@pytest.fixture(scope="module")
def emulator():
    from grader.core.backends.emulator import EmulatorBackend

    backend = EmulatorBackend()
    if backend.check():
        pytest.skip("the emulator cannot run here: " + "; ".join(backend.check()))
    return backend


@pytest.fixture(scope="module")
def judged(emulator):
    """The emulator's result for each kernel above, judged once for the module (a hang costs 1 s)."""
    cache: dict[str, JudgeResult] = {}

    def get(name: str) -> JudgeResult:
        if name not in cache:
            cache[name] = judge(PACKAGE, KERNELS[name], emulator, run_checks=False)
        return cache[name]

    return get


@pytest.fixture
def three_tests(db):
    return import_files(FILES)


def page(client, submission, language: str = "en") -> str:
    response = client.get(submission.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return html_lib.unescape(response.content.decode())


def rows(html: str) -> dict[str, str]:
    """The tests table's rows by test name: the row's text without tags."""
    table = re.search(r'<table class="tests-table">(.*?)</table>', html, re.S).group(1)
    found = {}
    for row in re.findall(r"<tr>(.*?)</tr>", table.split("<tbody>")[1], re.S):
        name = re.search(r"<code>(.*?)</code>", row).group(1)
        found[name] = " ".join(re.sub(r"<[^>]+>", " ", row).split())
    return found


# ---- the summary: the count once, then the test case that explains the verdict ----

def test_summary_names_the_first_failing_test_and_its_reason_without_the_count(judged):
    """A wrong answer on the first sample: the summary is that test and its first mismatch; no count."""
    result = judged("subtracts")
    assert result.verdict is Verdict.WRONG_ANSWER
    assert result.message_template == M.SUMMARY_TEST
    assert re.fullmatch(r"Test small: c\[0\]: expected \S+, got \S+ \(5 element\(s\) differ\)", result.message)
    assert "passed" not in result.message


def test_summary_quotes_the_diagnostic_with_its_line(judged):
    """A time limit: the summary is the test that hung, the runtime's finding and its line."""
    result = judged("hang")
    assert result.message_template == M.SUMMARY_TEST_AT_LINE
    assert result.message.startswith("Test small: The kernel ran past the time limit of 1 s; thread (0,0,0)")
    assert result.message.endswith("looping on line 3. (line 3)")


def test_summary_of_a_hidden_failure_quotes_no_values(judged):
    """Only the hidden test fails: the summary names it and says its details are not shown."""
    result = judged("hidden_wrong")
    assert [t.verdict for t in result.tests] == [Verdict.ACCEPTED, Verdict.WRONG_ANSWER, Verdict.ACCEPTED]
    assert result.message == "Test tail failed (a hidden test: its details are not shown)."


def test_accepted_has_no_summary(judged):
    """All tests pass: the count above says it all."""
    result = judged("solution")
    assert result.verdict is Verdict.ACCEPTED and result.message == "" and result.message_template == ""


def test_page_states_the_count_once_in_both_languages(judged, three_tests, alice, alice_client, make_submission):
    """The verdict card says '0 / 3 tests passed' once and the summary after it, without a second count."""
    submission = make_submission(alice, three_tests, judged("subtracts"), source=KERNELS["subtracts"])
    english = page(alice_client, submission)
    assert english.count("0 / 3") == 1 and "test cases passed" not in english
    assert re.search(r'<p class="verdict-message">Test small: c\[0\]: expected \S+, got \S+ \(5 element', english)
    korean = page(alice_client, submission, "ko")
    assert korean.count("0 / 3") == 1 and "통과했습니다" not in korean
    assert re.search(r'<p class="verdict-message">테스트 small: c\[0\]: 기대값 \S+, 실제값 \S+ \(다른 원소 5개\)', korean)


# ---- test cases not run after a hang ----

@pytest.mark.parametrize(("kernel", "verdict", "why"), [
    ("hang", Verdict.TIME_LIMIT, "ran past the time limit"),
    ("deadlock", Verdict.DEADLOCK, "deadlocked"),
])
def test_cases_after_a_hang_are_listed_as_not_run(judged, kernel, verdict, why):
    """After the first test hangs, the other two are not run but have rows that name the test that hung;
    they do not change the verdict."""
    result = judged(kernel)
    assert result.verdict is verdict
    assert [(t.name, t.verdict) for t in result.tests] == [("small", verdict), ("tail", NOT_RUN), ("mid", NOT_RUN)]
    for t in result.tests[1:]:
        assert t.message == f"Skipped because test small {why}." and t.time_s == 0.0
        assert t.message_template == M.NOT_RUN_AFTER[verdict.value]
    assert result.tests[2].params == {"n": 300}  # a sample keeps its sizes
    again = JudgeResult.from_dict(result.to_dict())  # stored as JSON
    assert again.tests[1].verdict is NOT_RUN and again.to_dict() == result.to_dict()
    hidden = result.tests[1].public_dict()  # a hidden row keeps why it was skipped, nothing else
    assert hidden == {"name": "tail", "sample": False, "verdict": "NOT_RUN", "time_s": 0.0,
                      "message": f"Skipped because test small {why}.",
                      "message_template": M.NOT_RUN_AFTER[verdict.value], "message_params": {"test": "small"}}


def test_not_run_rows_on_the_page_in_both_languages(judged, three_tests, alice, alice_client, make_submission):
    """The page has a row for each of the three tests: the hung one with its verdict, the other two
    'Not run' with the reason and no time, in English and in Korean."""
    submission = make_submission(alice, three_tests, judged("hang"), source=KERNELS["hang"])
    assert submission.progress_done == 1  # the tests that ran, not the rows
    english = rows(page(alice_client, submission))
    assert list(english) == ["small", "tail", "mid"]
    assert "Time limit" in english["small"] and "ms" in english["small"]
    for name in ("tail", "mid"):
        assert "Not run Skipped because test small ran past the time limit." in english[name]
        assert english[name].endswith("—") and "ms" not in english[name]
    korean = rows(page(alice_client, submission, "ko"))
    for name in ("tail", "mid"):
        assert "실행 안 됨 테스트 small에서 제한 시간을 넘겨 실행하지 않았습니다." in korean[name]


# ---- a sync error's row: the finding is the reason, the mismatch only follows ----

def test_sync_error_row_gives_the_finding_and_keeps_the_mismatch_as_data(judged):
    """Divergent barriers and a wrong output: each test is SYNC_ERROR, its message is the barrier
    finding (not the mismatch), and the mismatch stays in the result."""
    result = judged("divergent")
    assert result.verdict is Verdict.SYNC_ERROR
    for t in result.tests:
        assert t.verdict is Verdict.SYNC_ERROR
        assert t.message_template == M.RUNTIME_DIVERGENT_BARRIERS and t.message.startswith("Divergent __syncthreads()")
        assert t.mismatch is not None and t.mismatch.output == "c"
    assert result.message.startswith("Test small: Divergent __syncthreads()")


def test_sync_error_row_on_the_page(judged, three_tests, alice, alice_client, make_submission):
    """The row says why it is a sync error; the first mismatch is shown below it as a consequence."""
    submission = make_submission(alice, three_tests, judged("divergent"), source=KERNELS["divergent"])
    html = page(alice_client, submission)
    small = rows(html)["small"]
    assert "Sync error Divergent __syncthreads()" in small and "expected" not in small
    card = html.split('<div class="mismatch">')[1]
    assert "First mismatch in test small" in card and "This test has a sync error (above): fix it first." in card
    korean = page(alice_client, submission, "ko")
    assert "이 테스트에는 동기화 오류가 있습니다(위 참조). 먼저 고치세요." in korean.split('<div class="mismatch">')[1]


def test_wrong_answer_mismatch_card_has_no_sync_note(judged, three_tests, alice, alice_client, make_submission):
    """A plain wrong answer keeps its mismatch in the row and the card, without the sync error note."""
    submission = make_submission(alice, three_tests, judged("subtracts"), source=KERNELS["subtracts"])
    html = page(alice_client, submission)
    assert "expected" in rows(html)["small"] and "First mismatch in test small" in html
    assert "sync error (above)" not in html


# ---- an invalid launch expression, in Korean ----

def test_invalid_launch_reason_in_korean(three_tests, alice, alice_client, make_submission, emulator):
    """'Invalid launch configuration: grid: unknown name …' reads in Korean on the page, the reason too."""
    yaml = THREE_TESTS_YAML.replace('grid: "ceil_div(n, 256)"', 'grid: "ceil_div(n, 256)"\n  student_chooses: true')
    files = tiny_package_files(**{"problem.yaml": yaml})
    files["solution.cu"] = "// launch: block=256 grid=ceil_div(n, 256)\n" + files["solution.cu"]
    files["wrong/subtracts.cu"] += "// launch: block=256 grid=ceil_div(n, 256)\n"
    result = judge(parse_package(files), FILES["solution.cu"], emulator, launch_choice=LaunchChoice("256", "zz"))
    assert result.verdict is Verdict.COMPILE_ERROR
    assert result.message == ("Invalid launch configuration: grid: unknown name 'zz' "
                              "(known sizes: block_x, block_y, block_z, n)")
    submission = make_submission(alice, three_tests, result)
    korean = page(alice_client, submission, "ko")
    assert "잘못된 launch 설정: grid: 알 수 없는 이름 'zz' (쓸 수 있는 크기: block_x, block_y, block_z, n)" in korean
    assert "unknown name" not in korean
