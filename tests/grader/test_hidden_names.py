"""A hidden test's name is staff-only (grader/core/hidden_names.py): "million-and-three" says the size a hidden
test uses (vector-add-tail's n = 1048579). Students read it as its place in the list, "#2", in its row, in the
findings made on it and its check pass, in the summary and in "Skipped because test … hung" rows; staff read
the names."""
from __future__ import annotations

import pytest
from django.utils import translation
from django.utils.translation import gettext

from grader.core import messages as M
from grader.core.hidden_names import aliases, renamed, renamed_test
from grader.core import results
from grader.core.results import Diagnostic, JudgeResult
from grader.core.verdicts import NOT_RUN, DiagnosticKind, Verdict
from grader.serializers import public_result


def _result() -> JudgeResult:
    hung = results.TestResult(name="million-and-three", sample=False, verdict=Verdict.TIME_LIMIT, time_s=2.0,
                      params={"n": 1048579}, time_limit_s=2.0)
    return JudgeResult(
        verdict=Verdict.TIME_LIMIT,
        tests=[results.TestResult(name="small", sample=True, verdict=Verdict.ACCEPTED, time_s=0.001, params={"n": 5}),
               hung,
               results.TestResult(name="n_1000003", sample=False, verdict=NOT_RUN, params={"n": 1000003},
                          message=M.NOT_RUN_AFTER["TIME_LIMIT"](test="million-and-three"))],
        diagnostics=[Diagnostic(kind=DiagnosticKind.RACE, message="race on s[5]", line=4,
                                test="million-and-three (check)")],
        message=M.SUMMARY_HIDDEN_TEST(test="million-and-three"),
    )


def test_aliases_are_places_in_the_list_and_samples_keep_their_names():
    names = aliases(_result().tests)
    assert names == {"million-and-three": "#2", "n_1000003": "#3"}
    assert renamed_test("million-and-three (check)", names) == "#2 (check)"
    assert renamed_test("small", names) == "small" and renamed_test(None, names) is None
    nested = M.SUMMARY_TEST(test="n_1000003", reason=M.NOT_RUN_AFTER["DEADLOCK"](test="million-and-three"))
    assert str(renamed(nested, names)) == "Test #3: Skipped because test #2 deadlocked."


def test_a_student_never_reads_a_hidden_tests_name():
    public = public_result(_result(), full=False)
    assert [t["name"] for t in public["tests"]] == ["small", "#2", "#3"]
    assert public["tests"][2]["message"] == "Skipped because test #2 ran past the time limit."
    assert public["diagnostics"][0]["test"] == "#2 (check)"
    assert public["message"].startswith("Test #2 failed (a hidden test")
    assert "million" not in str(public) and "1000003" not in str(public)


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_in_both_languages(lang):
    with translation.override(lang):
        public = public_result(_result(), full=False, translate=gettext)
    assert "#2" in public["message"] and "#2" in public["tests"][2]["message"]
    assert "million" not in str(public)
    if lang == "ko":
        assert "테스트" in public["tests"][2]["message"]


def test_staff_read_the_names():
    full = public_result(_result(), full=True)
    assert [t["name"] for t in full["tests"]] == ["small", "million-and-three", "n_1000003"]
    assert full["diagnostics"][0]["test"] == "million-and-three (check)"
    assert "million-and-three" in full["message"]
