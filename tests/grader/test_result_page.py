"""What a student reads of a judged result: the summary (a check pass's finding too), the rows of test
cases not run after a hang, a time limit's row, a sync error's row, a mismatch's values, the occupancy
limiter, notes on hidden tests and an invalid launch's reason, in English and in Korean.

The results come from the real pipeline on the emulator (small kernels of the tiny-add package);
the rows are read from the rendered submission page (templates/partials/submission_live.html).
"""
from __future__ import annotations

import html as html_lib
import re

import numpy as np
import pytest

from grader.core import messages as M
from grader.core.judge import LaunchChoice, judge
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
    assert result.message.template == M.SUMMARY_TEST
    assert re.fullmatch(r"Test small: c\[0\]: expected \S+, got \S+ \(allowed \S+, off by \S+; 5 elements differ\)",
                        result.message)
    assert "passed" not in result.message


def test_summary_quotes_the_diagnostic_without_repeating_its_line(judged):
    """A time limit: the summary is the test that hung and the runtime's finding, which names the line
    itself: no '(line 3)' after it."""
    result = judged("hang")
    assert result.message.template == M.SUMMARY_TEST and "line" not in result.message.params
    assert result.message.startswith("Test small: The kernel ran past the time limit of 1 s of CPU time; thread (0,0,0)")
    assert result.message.endswith("looping on line 3.")


def test_summary_adds_the_line_when_the_reason_does_not_name_it():
    """A diagnostic whose message names no line gets '(line N)' after it; one that names it does not."""
    from grader.core.summary import submission_summary
    from grader.core.results import Diagnostic
    from grader.core.verdicts import DiagnosticKind

    plain = Diagnostic(DiagnosticKind.STACK_OVERFLOW, line=7, test="small", message=M.STACK_OVERFLOW())
    result = JudgeResult(verdict=Verdict.RUNTIME_ERROR, diagnostics=[plain])
    summary = submission_summary(result)
    assert summary.code == "SUMMARY_TEST_AT_LINE"
    assert summary.params == {"test": "small", "line": 7, "reason": M.STACK_OVERFLOW()}
    # A nested message that names the line counts too (a CUDA error name before the runtime's message).
    nested = M.RUNTIME_TIMEOUT(limit=1, thread="(0,0,0)", block="(0,0,0)", line=7)
    prefixed = Diagnostic(DiagnosticKind.TIMEOUT, line=7, test="small",
                          message=M.ERROR_PREFIXED(error="cudaErrorLaunchTimeout", message=nested))
    assert submission_summary(JudgeResult(verdict=Verdict.TIME_LIMIT, diagnostics=[prefixed])).template == M.SUMMARY_TEST


def test_summary_line_in_korean_once(judged, three_tests, alice, alice_client, make_submission):
    """The Korean summary of a hang names line 3 once ('3번 줄에서'), with no '(3번 줄)' after it."""
    submission = make_submission(alice, three_tests, judged("hang"), source=KERNELS["hang"])
    summary = re.search(r'<p class="verdict-message">(.*?)</p>', page(alice_client, submission, "ko"), re.S).group(1)
    assert summary.count("3번 줄") == 1 and "(3번 줄)" not in summary


def test_summary_of_a_hidden_failure_quotes_no_values(judged):
    """Only the hidden test fails: the summary names it and says what is hidden, its inputs and outputs."""
    result = judged("hidden_wrong")
    assert [t.verdict for t in result.tests] == [Verdict.ACCEPTED, Verdict.WRONG_ANSWER, Verdict.ACCEPTED]
    assert result.message == "Test tail failed (a hidden test: its inputs and expected outputs are not shown)."


def test_hidden_failure_summary_on_the_page_in_both_languages(judged, three_tests, alice, alice_client,
                                                              make_submission):
    """The page's summary of a hidden failure says its inputs and expected outputs are hidden, not 'its
    details', in English and in Korean; the hidden test is named by its place in the list (its name is
    staff-only)."""
    submission = make_submission(alice, three_tests, judged("hidden_wrong"), source=KERNELS["hidden_wrong"])
    for language, expected in (
            ("en", "Test #2 failed (a hidden test: its inputs and expected outputs are not shown)."),
            ("ko", "테스트 #2에서 실패했습니다(숨겨진 테스트라 입력과 기대 출력은 보여 주지 않습니다).")):
        html = page(alice_client, submission, language)
        summary = " ".join(re.search(r'<p class="verdict-message">(.*?)</p>', html, re.S).group(1).split())
        assert summary == expected


HIDDEN_HANG = HEAD + "    if (n > 1000) {\n        while (true) {}\n    }\n    if (i < n) c[i] = a[i] + b[i];\n}\n"


def test_time_limit_on_a_hidden_test_says_what_is_hidden(emulator, three_tests, alice, alice_client,
                                                         make_submission):
    """A kernel that hangs only on the hidden test (line 4, the student's own loop): the page may show
    the line, and its note says that the test's inputs and expected outputs are hidden, in both languages."""
    result = judge(PACKAGE, HIDDEN_HANG, emulator, run_checks=False)
    assert result.verdict is Verdict.TIME_LIMIT
    submission = make_submission(alice, three_tests, result, source=HIDDEN_HANG)
    english, korean = page(alice_client, submission), page(alice_client, submission, "ko")
    assert "details of hidden tests are not shown" not in english
    assert "on a hidden test (its inputs and expected outputs are not shown)." in english
    assert "숨겨진 테스트의 입력과 기대 출력은 보여 주지 않습니다" in korean


def test_accepted_has_no_summary(judged):
    """All tests pass: the count above says it all."""
    result = judged("solution")
    assert result.verdict is Verdict.ACCEPTED and result.message == "" and result.message.code == ""


def test_page_states_the_count_once_in_both_languages(judged, three_tests, alice, alice_client, make_submission):
    """The verdict card says '0 / 3 tests passed' once and the summary after it, without a second count."""
    submission = make_submission(alice, three_tests, judged("subtracts"), source=KERNELS["subtracts"])
    english = page(alice_client, submission)
    assert english.count("0 / 3") == 1 and "test cases passed" not in english
    assert re.search(r'<p class="verdict-message">Test small: c\[0\]: expected \S+, got \S+ \(allowed \S+, off by \S+; '
                     r'5 elements differ\)', english)
    korean = page(alice_client, submission, "ko")
    assert korean.count("0 / 3") == 1 and "통과했습니다" not in korean
    assert re.search(r'<p class="verdict-message">테스트 small: c\[0\]: 기대값 \S+, 실제값 \S+ \(허용 오차 \S+, 실제 차이 \S+; '
                     r'다른 원소 5개\)', korean)


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
        assert t.message.template == M.NOT_RUN_AFTER[verdict.value]
    assert result.tests[2].params == {"n": 300}  # a sample keeps its sizes
    again = JudgeResult.from_dict(result.to_dict())  # stored as JSON
    assert again.tests[1].verdict is NOT_RUN and again.to_dict() == result.to_dict()
    hidden = result.tests[1].public_dict()  # a hidden row keeps why it was skipped, nothing else
    assert hidden == {"name": "tail", "sample": False, "verdict": "NOT_RUN", "time_s": None,
                      "message": M.NOT_RUN_AFTER[verdict.value](test="small").to_dict()}


def test_not_run_rows_on_the_page_in_both_languages(judged, three_tests, alice, alice_client, make_submission):
    """The page has a row for each of the three tests: the hung one with its verdict, the other two
    'Not run' with the reason and no time, in English and in Korean."""
    submission = make_submission(alice, three_tests, judged("hang"), source=KERNELS["hang"])
    assert submission.progress_done == 1  # the tests that ran, not the rows
    english = rows(page(alice_client, submission))
    assert list(english) == ["small", "#2", "mid"]  # the hidden test by its place in the list
    assert "Time limit" in english["small"] and english["small"].endswith("> 1 s") and "ms" not in english["small"]
    for name in ("#2", "mid"):
        assert "Not run Skipped because test small ran past the time limit." in english[name]
        assert english[name].endswith("—") and "ms" not in english[name]
    korean = rows(page(alice_client, submission, "ko"))
    assert korean["small"].endswith("> 1초")
    for name in ("#2", "mid"):
        assert "실행 안 됨 앞의 테스트 small에서 제한 시간을 넘겨 이 테스트는 실행하지 않았습니다." in korean[name]


# ---- a sync error's row: the finding is the reason, the mismatch only follows ----

def test_sync_error_row_gives_the_finding_and_keeps_the_mismatch_as_data(judged):
    """Divergent barriers and a wrong output: each test is SYNC_ERROR, its message is the barrier
    finding (not the mismatch), and the mismatch stays in the result."""
    result = judged("divergent")
    assert result.verdict is Verdict.SYNC_ERROR
    for t in result.tests:
        assert t.verdict is Verdict.SYNC_ERROR
        # The split-warp wording adds "on sm_70+ this hangs..." (docs/synchronization.md).
        assert t.message.template in (M.RUNTIME_DIVERGENT_BARRIERS, M.RUNTIME_DIVERGENT_BARRIERS_SPLIT)
        assert t.message.startswith("Divergent __syncthreads()")
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
    assert "잘못된 실행 구성: grid: 알 수 없는 이름 'zz' (쓸 수 있는 크기: block_x, block_y, block_z, n)" in korean
    assert "unknown name" not in korean


# ---- a time limit's row: the limit, not the time it took to stop the run ----

def test_time_limit_row_shows_the_limit_exceeded(judged, three_tests, alice, alice_client, make_submission, emulator):
    """A row that ran past its 1 s limit says '> 1 s' ('> 1초'), not the milliseconds it took to stop it,
    on a hidden test too (the limit is the problem's, public); other rows keep their times."""
    result = judged("hang")
    assert result.tests[0].time_limit_s == 1.0
    hidden_hang = HEAD + "    while (n > 1000) { if (i < n) c[i] = a[i] + b[i]; }\n    if (i < n) c[i] = a[i] + b[i];\n}\n"
    result = judge(PACKAGE, hidden_hang, emulator, run_checks=False)
    assert [str(t.verdict) for t in result.tests] == ["ACCEPTED", "TIME_LIMIT", "NOT_RUN"]
    assert result.tests[1].public_dict()["time_limit_s"] == 1.0
    submission = make_submission(alice, three_tests, result, source=hidden_hang)
    english = rows(page(alice_client, submission))
    assert english["#2"].endswith("Time limit > 1 s") and english["small"].endswith(" ms")
    assert rows(page(alice_client, submission, "ko"))["#2"].endswith("> 1초")


# ---- a finding of the check pass: the rows do not show it, the summary says where it comes from ----

CHECKED = parse_package(tiny_package_files(**{"problem.yaml": THREE_TESTS_YAML.replace(
    "tests:\n", "checks: [racecheck, synccheck, memcheck]\ntests:\n")}))
RACY = {
    # Thread 0 writes s[0] (line 4) and every thread reads it (line 5) with no barrier between: a
    # read-after-write race that the emulator's plain runs happen to order (thread 0 runs first), so
    # every test run is right. (Every thread storing one value to s[0] is only a note now, by
    # docs/synchronization.md's same-value policy.)
    "benign_race": HEAD + "    __shared__ float s[1];\n    if (threadIdx.x == 0) s[0] = 1.0f;\n    float k = s[0];\n"
                          "    if (i < n) c[i] = a[i] + b[i] * k;\n}\n",
    # The same race and a - b: every run is a wrong answer, the verdict the race.
    "racy_and_wrong": HEAD + "    __shared__ float s[1];\n    if (threadIdx.x == 0) s[0] = 1.0f;\n    float k = s[0];\n"
                             "    if (i < n) c[i] = a[i] - b[i] * k;\n}\n",
}


@pytest.fixture(scope="module")
def checked(emulator):
    cache: dict[str, JudgeResult] = {}

    def get(name: str) -> JudgeResult:
        if name not in cache:
            cache[name] = judge(CHECKED, RACY[name], emulator)
        return cache[name]

    return get


@pytest.fixture
def checked_problem(db):
    return import_files(tiny_package_files(**{"problem.yaml": THREE_TESTS_YAML.replace(
        "tests:\n", "checks: [racecheck, synccheck, memcheck]\ntests:\n")}))


def test_race_found_only_by_the_check_is_marked_and_summarised(checked):
    """Every run is right but the race check finds the race on the smallest test: the verdict is
    SYNC_ERROR, the diagnostic is marked as the check pass's, and the summary says the race check (a
    separate run of test small) found it (its lines once), that the verdict comes from it and that the
    rows are the plain test runs."""
    result = checked("benign_race")
    assert result.verdict is Verdict.SYNC_ERROR
    assert [t.verdict for t in result.tests] == [Verdict.ACCEPTED] * 3
    race = next(d for d in result.diagnostics if str(d.kind) == "race")
    assert race.check and race.test == "small" and race.line == 5
    assert result.message.template == M.SUMMARY_CHECK and "line" not in result.message.params
    assert result.message.startswith("The race check (a separate run of test small) found: Data race "
                                     "(read-after-write) on shared memory s[0]: line 5 (read) and line 4 (write)")
    assert result.message.endswith("The verdict comes from this finding; the rows below are the plain test runs.")
    assert "(line 5)" not in result.message
    again = JudgeResult.from_dict(result.to_dict())
    assert again.diagnostics[0].check and again.to_dict() == result.to_dict()


def test_check_finding_on_the_page_in_both_languages(checked, checked_problem, alice, alice_client,
                                                     make_submission):
    """'Sync error' next to '3 / 3 tests passed' and Accepted rows: the card's summary says the race
    check found it, and the diagnostic is labelled as the check pass's, in English and in Korean."""
    submission = make_submission(alice, checked_problem, checked("benign_race"), source=RACY["benign_race"])
    english = page(alice_client, submission)
    assert "3 / 3 tests passed" in english and all("Accepted" in r for r in rows(english).values())
    assert re.search(r'<p class="verdict-message">The race check \(a separate run of test small\) found: Data race',
                     english)
    assert "test <code>small</code> (check pass)" in english
    korean = page(alice_client, submission, "ko")
    summary = re.search(r'<p class="verdict-message">(.*?)</p>', korean, re.S).group(1)
    assert summary.startswith("테스트 small에 대해 따로 실행한 race 검사에서 찾은 문제: shared memory s[0]에서 race")
    assert summary.endswith("판정은 이 문제에 따른 것입니다. 아래 행은 검사 없이 실행한 일반 테스트 결과입니다.")
    assert "race check" not in summary
    assert "(검사 단계)" in korean


def test_check_finding_with_wrong_rows_notes_it_on_the_mismatch_card(checked, checked_problem, alice,
                                                                     alice_client, make_submission):
    """Every row is 'Wrong answer' while the verdict is the race the check found: the first-mismatch
    card says the verdict comes from that finding (a plain wrong answer's card does not)."""
    result = checked("racy_and_wrong")
    assert result.verdict is Verdict.SYNC_ERROR
    assert [t.verdict for t in result.tests] == [Verdict.WRONG_ANSWER] * 3
    submission = make_submission(alice, checked_problem, result, source=RACY["racy_and_wrong"])
    card = page(alice_client, submission).split('<div class="mismatch">')[1]
    assert "The verdict comes from the check pass's finding (above), not from this mismatch" in card
    assert "This test has a sync error" not in card
    korean = page(alice_client, submission, "ko").split('<div class="mismatch">')[1]
    assert "판정은 이 불일치가 아니라 검사 단계에서 찾은 문제(위 참조)에 따른 것입니다." in korean


def test_check_summary_is_true_when_every_row_is_a_wrong_answer(checked, checked_problem, alice, alice_client,
                                                                make_submission):
    """With every row 'Wrong answer', the summary does not claim the runs missed the problem: it says the
    race check was a separate run, the verdict comes from its finding and the rows are the plain runs,
    in English and in Korean."""
    submission = make_submission(alice, checked_problem, checked("racy_and_wrong"), source=RACY["racy_and_wrong"])
    for language, start, end in (
            ("en", "The race check (a separate run of test small) found: Data race",
             "The verdict comes from this finding; the rows below are the plain test runs."),
            ("ko", "테스트 small에 대해 따로 실행한 race 검사에서 찾은 문제: shared memory s[0]에서 race",
             "판정은 이 문제에 따른 것입니다. 아래 행은 검사 없이 실행한 일반 테스트 결과입니다.")):
        html = page(alice_client, submission, language)
        summary = " ".join(re.search(r'<p class="verdict-message">(.*?)</p>', html, re.S).group(1).split())
        assert summary.startswith(start) and summary.endswith(end)
        assert "did not report" not in summary and "드러나지 않" not in summary
        assert all(("Wrong answer" if language == "en" else "오답") in r for r in rows(html).values())


# ---- a mismatch's values and count ----

def test_one_differing_element_reads_singular_at_float32_precision(three_tests, alice, alice_client,
                                                                   make_submission, emulator):
    """One wrong element: '(1 element differs)' ('다른 원소 1개'), and both values as the shortest
    decimals that read back as the same float32 (never 16 digits)."""
    kernel = HEAD + "    if (i < n) c[i] = i == 2 ? a[i] * 3.0f : a[i] + b[i];\n}\n"
    result = judge(PACKAGE, kernel, emulator, run_checks=False)
    small = result.tests[0]
    assert small.message.template == M.MISMATCH_ONE_TOLERANCE and small.mismatch.count == 1
    assert small.message.endswith("; 1 element differs)") and "element(s)" not in small.message
    for value in (small.mismatch.expected, small.mismatch.got):
        assert str(np.float32(value)) == value and len(value.replace("-", "").replace(".", "")) <= 9
    submission = make_submission(alice, three_tests, result, source=kernel)
    assert "; 1 element differs)" in rows(page(alice_client, submission))["small"]
    assert "; 다른 원소 1개)" in rows(page(alice_client, submission, "ko"))["small"]


# ---- resources: the occupancy limiter's name ----

def test_occupancy_limiter_is_translated(judged, three_tests, alice, alice_client, make_submission):
    """'Limited by' names the limiting resource in the reader's language: 'warps (threads per SM)',
    in Korean 'warp 수 (SM당 thread)' after '제한 자원' with no colon."""
    from grader.core.results import Resources

    result = JudgeResult.from_dict(judged("solution").to_dict())
    result.resources = Resources(registers=16, threads_per_block=256, compute_capability="9.0", source="ptxas",
                                 occupancy={"occupancy": 1.0, "blocks_per_sm": 8, "limiter": "warps"})
    submission = make_submission(alice, three_tests, result)
    english = page(alice_client, submission)
    assert re.search(r"<dt>Limited by</dt><dd>.*?warps \(threads per SM\)\s*</dd>", english, re.S)
    korean = page(alice_client, submission, "ko")
    assert re.search(r"<dt>제한 자원</dt><dd>.*?warp 수 \(SM당 thread\)\s*</dd>", korean, re.S)
    assert "제한 자원:" not in korean


# ---- notes found on a hidden test ----

def _with_note(judged, template: str) -> JudgeResult:
    from grader.core.results import Diagnostic
    from grader.core.verdicts import DiagnosticKind

    result = JudgeResult.from_dict(judged("solution").to_dict())
    result.diagnostics.append(Diagnostic(DiagnosticKind.NOTE, test="tail", message=template()))
    return result


def test_hidden_note_reads_in_korean(judged, three_tests, alice, alice_client, make_submission):
    """A note on a hidden test that is not shown reads '참고: 숨겨진 테스트에서 나온 결과입니다(…)'."""
    submission = make_submission(alice, three_tests, _with_note(judged, M.RACE_CHECK_INCOMPLETE))
    korean = page(alice_client, submission, "ko")
    assert "참고: 숨겨진 테스트에서 나온 결과입니다(숨겨진 테스트의" in korean
    assert "숨겨진 테스트에서 참고" not in korean


def test_printf_truncation_is_a_public_note():
    """printf truncation says nothing of a test's data: it is one of the notes shown as they are."""
    assert M.PRINTF_TRUNCATED in M.PUBLIC_NOTES and M.PRINTF_TRUNCATED_GPU in M.PUBLIC_NOTES
    assert not any("%(" in note for note in M.PUBLIC_NOTES)  # no parameters: nothing of the test in them


def test_printf_truncation_on_a_hidden_test_is_shown_as_it_is(judged, three_tests, alice, alice_client,
                                                              make_submission):
    """An ACCEPTED submission whose printf output was truncated on a hidden test says so as it is."""
    submission = make_submission(alice, three_tests, _with_note(judged, M.PRINTF_TRUNCATED))
    html = page(alice_client, submission)
    assert "printf output was truncated at 64 KiB." in html and "Note on a hidden test" not in html
    assert "printf 출력이 64 KiB에서 잘렸습니다." in page(alice_client, submission, "ko")


# ---- one way of writing things: coordinates and the Korean words for a mismatch's values ----

def test_coordinates_read_as_the_judges_messages_write_them(judged, three_tests, alice, alice_client,
                                                            make_submission):
    """A diagnostic's blockIdx and threadIdx read '(x,y,z)', as the runtime's own message writes a thread
    ('thread (0,0,0)'), never '(1, 0, 0)'; in both languages."""
    result = judged("hang")
    timeout = next(d for d in result.diagnostics if d.thread is not None)
    assert "thread (0,0,0)" in result.message
    submission = make_submission(alice, three_tests, result, source=KERNELS["hang"])
    for language in ("en", "ko"):
        html = page(alice_client, submission, language)
        thread = ",".join(map(str, timeout.thread))
        assert f"threadIdx = ({thread})" in html and f"blockIdx = ({','.join(map(str, timeout.block))})" in html
        assert not re.search(r"(threadIdx|blockIdx) = \(\d+, ", html)


def test_korean_says_expected_and_actual_values_one_way(judged, three_tests, alice, alice_client, make_submission):
    """The summary and the mismatch card write '기대값' and '실제값' alike (no '실제 값' or '기대 값')."""
    submission = make_submission(alice, three_tests, judged("subtracts"), source=KERNELS["subtracts"])
    korean = page(alice_client, submission, "ko")
    card = korean.split('<div class="mismatch">')[1]
    assert "<dt>기대값</dt>" in card and "<dt>실제값</dt>" in card
    assert "실제값" in re.search(r'<p class="verdict-message">(.*?)</p>', korean, re.S).group(1)
    assert "실제 값" not in korean and "기대 값" not in korean


def test_korean_catalogue_spells_the_values_one_way():
    """No message of the Korean catalogue spells 'expected/actual value' with a space."""
    from pathlib import Path

    po = (Path(__file__).resolve().parents[2] / "locale/ko/LC_MESSAGES/django.po").read_text()
    assert "실제 값" not in po and "기대 값" not in po and "기댓값" not in po
