"""Stored results and messages as codes: grader's data migrations leave every page as it reads today.

0009 converts the three-field form (English, template, parameters) into codes; 0010 rewrites the eight
codes kept only for results stored before their wording changed into the messages the judge writes
today. Results are graded through the real pipeline (the dummy backend, and the emulator where it can
build) or built as the judge builds them, shown, stored in the older form, converted, shown again.
"""
from __future__ import annotations

import copy
import html as html_lib
import importlib
import re

import pytest
from django.apps import apps

from grader.core import messages as M
from grader.core.backends.dummy import DummyBackend
from grader.core.judge import judge
from grader.core.results import Diagnostic, JudgeResult, Mismatch
from grader.core.results import TestResult as CaseResult  # not "Test...": pytest would collect it
from grader.core.verdicts import DiagnosticKind, Verdict
from grader.models import Submission
from tests.web.conftest import SOURCE, compile_error_result, graded_result

MIGRATION = importlib.import_module("grader.migrations.0009_results_messages_as_codes")
RETIRE = importlib.import_module("grader.migrations.0010_retire_old_message_codes")


def _text(client, submission, language: str) -> str:
    """The submission page's text in `language` (markup, tokens and nonces dropped)."""
    response = client.get(submission.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    page = html_lib.unescape(response.content.decode())
    page = re.sub(r"<script.*?</script>|<[^>]+>", " ", page, flags=re.S)
    return " ".join(page.split())


@pytest.fixture(scope="module")
def emulator():
    from grader.core.backends.emulator import EmulatorBackend

    backend = EmulatorBackend()
    problems = backend.check()
    if problems:
        pytest.skip("the emulator cannot run here: " + "; ".join(problems))
    return backend


def _results(problem, emulator) -> dict[str, JudgeResult]:
    package = problem.current_version.package()
    return {"refused": judge(package, "   \n", DummyBackend()), "compile error": compile_error_result(),
            "graded": graded_result(), "emulator": judge(package, SOURCE, emulator, run_checks=False)}


def test_the_older_form_converts_back_to_the_same_codes(problem, emulator):
    """A result written in the three-field form converts to the same codes and parameters."""
    for name, result in _results(problem, emulator).items():
        new = result.to_dict()
        old = MIGRATION.downgrade_stored(copy.deepcopy(new))
        assert "message_template" in old and not isinstance(old["message"], dict), name
        assert MIGRATION.upgrade_stored(old) == new, name


def test_migration_converts_stored_results_and_the_pages_read_the_same(problem, alice, alice_client,
                                                                       make_submission, emulator):
    """Each result's page in English and Korean; the result stored in the older form and converted by
    the migration; the same pages, and the stored JSON holds codes. Going back restores the older form."""
    submissions = {name: make_submission(alice, problem, result) for name, result in _results(problem, emulator).items()}
    before = {(name, lang): _text(alice_client, s, lang) for name, s in submissions.items() for lang in ("en", "ko")}
    assert "소스가 비어 있습니다." in before["refused", "ko"]
    assert "테스트 small:" in before["emulator", "ko"]
    for submission in submissions.values():
        stored = Submission.objects.get(pk=submission.pk).result
        Submission.objects.filter(pk=submission.pk).update(result=MIGRATION.downgrade_stored(stored))

    MIGRATION.forwards(apps, None)

    for name, submission in submissions.items():
        stored = Submission.objects.get(pk=submission.pk).result
        assert isinstance(stored["message"], dict) and "message_template" not in stored, name
        assert all(isinstance(d["message"], dict) for d in stored["diagnostics"]), name
        for lang in ("en", "ko"):
            assert _text(alice_client, submission, lang) == before[name, lang], (name, lang)
    emulated = Submission.objects.get(pk=submissions["emulator"].pk).result
    assert emulated["message"]["code"] == "SUMMARY_TEST_AT_LINE"
    assert emulated["diagnostics"][0]["message"]["code"].startswith("RUNTIME_FAULT.")

    MIGRATION.backwards(apps, None)
    stored = Submission.objects.get(pk=submissions["refused"].pk).result
    assert stored["message"] == "The source is empty." and stored["message_template"] == M.SOURCE_EMPTY


# ---- 0010: the retired codes ----

MISMATCH = {"output": "c", "index": "[3]", "expected": "1.5", "got": "0", "count": 3}
RACE = M.RACE(hazard=M.WORDS["read-after-write"](), line=4, access=M.WORDS["read"](), other_line=3,
              other_access=M.WORDS["write"]())


def _small(verdict=Verdict.ACCEPTED, **kw) -> CaseResult:
    return CaseResult(name="small", sample=True, verdict=verdict, time_s=0.002, params={"n": 5}, **kw)


def _tail(verdict=Verdict.ACCEPTED) -> CaseResult:
    return CaseResult(name="tail", sample=False, verdict=verdict, time_s=0.003, params={"n": 1025})


def _race(check: bool) -> Diagnostic:
    return Diagnostic(kind=DiagnosticKind.RACE, message=RACE, line=4, block=(0, 0, 0), thread=(1, 0, 0),
                      test="small", check=check)


def _today_and_old() -> dict[str, tuple[JudgeResult, callable]]:
    """Results as the judge writes them today, each with the change back to the retired codes a result
    stored earlier held for the same facts."""
    mismatch = M.MISMATCH_MANY(**MISMATCH)
    wrong = JudgeResult(verdict=Verdict.WRONG_ANSWER, tests=[_small(Verdict.WRONG_ANSWER, message=mismatch,
                        mismatch=Mismatch(output="c", index=[3], expected="1.5", got="0", count=3)), _tail()],
                        backend="dummy", message=M.SUMMARY_TEST(test="small", reason=mismatch))

    def counted_mismatch(d):  # "1/2 test cases passed." above a mismatch of the old template
        d["tests"][0]["message"]["code"] = "MISMATCH"
        d["message"] = {"code": "SUMMARY_PASSED", "params": {"passed": 0, "total": 2}}

    def nested_mismatch(d):  # today's summary quoting the old mismatch
        d["tests"][0]["message"]["code"] = d["message"]["params"]["reason"]["code"] = "MISMATCH"

    hidden = JudgeResult(verdict=Verdict.WRONG_ANSWER, tests=[_small(), _tail(Verdict.WRONG_ANSWER)], backend="dummy",
                         message=M.SUMMARY_HIDDEN_TEST(test="tail"))

    def hidden_old(d):
        d["message"]["code"] = "SUMMARY_HIDDEN_TEST_OLD"

    checked = JudgeResult(verdict=Verdict.SYNC_ERROR, tests=[_small(), _tail()], diagnostics=[_race(True)],
                          backend="dummy", message=M.SUMMARY_CHECK(check=M.check_name("race"), test="small",
                                                                   reason=RACE))

    def check_old(d):
        d["message"]["code"] = "SUMMARY_CHECK_OLD"

    def check_counted(d):
        d["message"] = {"code": "SUMMARY_PASSED_WITH", "params": {"passed": 2, "total": 2, "diagnostic": RACE.to_dict()}}

    raced = JudgeResult(verdict=Verdict.SYNC_ERROR, tests=[_small(Verdict.SYNC_ERROR), _tail()],
                        diagnostics=[_race(False)], backend="dummy",
                        message=M.SUMMARY_TEST(test="small", reason=RACE))
    raced_at = copy.deepcopy(raced)
    raced_at.diagnostics[0].message = M.SHARED_RACE()
    raced_at.message = M.SUMMARY_TEST_AT_LINE(test="small", reason=M.SHARED_RACE(), line=4)

    def counted_with_line(d):
        d["message"] = {"code": "SUMMARY_PASSED_WITH_LINE",
                        "params": {"passed": 1, "total": 2, "diagnostic": M.SHARED_RACE().to_dict(), "line": 4}}

    checked_at = copy.deepcopy(checked)
    checked_at.diagnostics[0].message = M.SHARED_RACE()
    checked_at.message = M.SUMMARY_CHECK_AT_LINE(check=M.check_name("race"), test="small", reason=M.SHARED_RACE(),
                                                 line=4)

    def check_at_line_old(d):
        d["message"]["code"] = "SUMMARY_CHECK_AT_LINE_OLD"

    accepted = JudgeResult(verdict=Verdict.ACCEPTED, tests=[_small(), _tail()], backend="dummy")

    def all_passed(d):
        d["message"] = {"code": "SUMMARY_ALL_PASSED", "params": {"total": 2}}

    return {"counted mismatch": (wrong, counted_mismatch), "nested mismatch": (wrong, nested_mismatch),
            "hidden": (hidden, hidden_old), "check": (checked, check_old), "check counted": (checked, check_counted),
            "check at line": (checked_at, check_at_line_old), "counted with line": (raced_at, counted_with_line),
            "accepted": (accepted, all_passed)}


def test_retired_codes_become_todays_messages_and_the_pages_read_as_today(problem, alice, alice_client,
                                                                          make_submission):
    """A result stored with a retired code (the old mismatch, hidden and check-pass wordings, the summaries
    that began with the count) becomes, in the stored JSON, exactly what the judge writes today for the
    same facts, and its page in English and Korean is that result's page."""
    cases = _today_and_old()
    submissions, expected, pages = {}, {}, {}
    for name, (today, make_old) in cases.items():
        submission = submissions[name] = make_submission(alice, problem, today)
        expected[name] = Submission.objects.get(pk=submission.pk).result
        pages.update({(name, lang): _text(alice_client, submission, lang) for lang in ("en", "ko")})
        old = copy.deepcopy(expected[name])
        make_old(old)
        assert old != expected[name], name
        Submission.objects.filter(pk=submission.pk).update(result=old)
    assert "(3 elements differ)" in pages["counted mismatch", "en"]
    assert "(다른 원소 3개)" in pages["counted mismatch", "ko"]
    assert "its inputs and expected outputs are not shown" in pages["hidden", "en"]
    assert "입력과 기대 출력은 보여 주지 않습니다" in pages["hidden", "ko"]
    assert "a separate run of test small" in pages["check", "en"]
    assert "테스트 small에 대해 따로 실행한 race 검사" in pages["check", "ko"]

    RETIRE.forwards(apps, None)

    for name, submission in submissions.items():
        assert Submission.objects.get(pk=submission.pk).result == expected[name], name
        for lang in ("en", "ko"):
            assert _text(alice_client, submission, lang) == pages[name, lang], (name, lang)


def test_retired_codes_in_a_playground_result_and_below_a_message():
    """A playground result's own message is the backend's text (kept); a retired code nested in a
    diagnostic's message is converted, and a code the catalogue has is left as it is."""
    stored = {"message": "ok", "diagnostics": [{"message": {"code": "ERROR_PREFIXED", "params": {
        "error": "E", "message": {"code": "MISMATCH", "params": dict(MISMATCH, count=1)}}}}]}
    converted = RETIRE.retire_old_codes(copy.deepcopy(stored), top=False)
    assert converted["message"] == "ok"
    message = M.Message.from_dict(converted["diagnostics"][0]["message"])
    assert message.params["message"].code == "MISMATCH_ONE" and message.endswith("(1 element differs)")
    assert RETIRE.retire_old_codes(copy.deepcopy(converted), top=False) == converted


def test_no_retired_code_is_in_the_catalogue():
    """The catalogue no longer has the codes 0010 rewrites, and every code it writes in their place is one."""
    retired = {"MISMATCH", *RETIRE.RENAMED, *RETIRE.COUNTED}
    assert not retired & set(M.CATALOGUE)
    written = {*RETIRE.RENAMED.values(), "MISMATCH_ONE", "MISMATCH_MANY", "SUMMARY_TEST", "SUMMARY_TEST_AT_LINE",
               "SUMMARY_TEST_FAILED", "SUMMARY_CHECK", "SUMMARY_CHECK_AT_LINE", "CHECK_PASS",
               *(f"CHECK_NAMES.{kind}" for kind in RETIRE.CHECK_NAMES)}
    assert written <= set(M.CATALOGUE)
    assert set(MIGRATION.RETIRED.values()) == retired
