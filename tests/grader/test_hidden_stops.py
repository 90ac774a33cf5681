"""What a student reads when a watchdog stopped a run on a hidden test, and of platform notes.

The tester's host-side memory hog (a static initialiser that mallocs 16 GiB) read "CUDA error on a
hidden test", and "The check for reads of unwritten shared memory could not be built" showed as a
note on their code. Now the stop is said as it is (without its limit, which grows with the hidden
inputs) and the platform's notes are for staff only."""
from __future__ import annotations

from grader.core import messages as M
from grader.core.results import Diagnostic, JudgeResult
from grader.core.results import TestResult as CaseResult
from grader.core.verdicts import DiagnosticKind, Verdict
from grader.serializers import public_result


def _memory_hog_result() -> JudgeResult:
    stop = M.MEMORY_LIMIT(mib=2048 + 8 * 4 * 1025 // (1 << 20))
    return JudgeResult(
        verdict=Verdict.RUNTIME_ERROR,
        tests=[CaseResult("sample", True, Verdict.ACCEPTED),
               CaseResult("hidden-size-1025", False, Verdict.RUNTIME_ERROR, message=stop)],
        diagnostics=[Diagnostic(DiagnosticKind.CUDA_ERROR, test="hidden-size-1025", message=stop),
                     Diagnostic(DiagnosticKind.NOTE, test="sample (check)", check=True, message=M.INITCHECK_NOT_BUILT()),
                     Diagnostic(DiagnosticKind.NOTE, test="sample (check)", check=True, message=M.RACE_CHECK_NOT_BUILT())],
        message=M.SUMMARY_TEST(test="hidden-size-1025", reason=stop),
    )


def test_memory_limit_on_a_hidden_test_says_so_without_its_size():
    shown = public_result(_memory_hog_result(), full=False)
    texts = [d["message"] for d in shown["diagnostics"]]
    assert any("more memory than its memory limit" in t for t in texts), texts
    assert not any("CUDA error on a hidden test" in t for t in texts), texts
    assert "more memory than its memory limit" in shown["message"], shown["message"]
    assert "2048" not in shown["message"] and not any("2048" in t for t in texts)


def test_platform_notes_are_for_staff_only():
    student = public_result(_memory_hog_result(), full=False)
    assert not any("could not be built" in d["message"] for d in student["diagnostics"]), student["diagnostics"]
    staff = public_result(_memory_hog_result(), full=True)
    assert sum("could not be built" in d["message"] for d in staff["diagnostics"]) == 2
    assert any("2048 MiB" in d["message"] for d in staff["diagnostics"])


def test_the_stop_reads_in_korean():
    from django.utils import translation

    with translation.override("ko"):
        shown = public_result(_memory_hog_result(), full=False, translate=translation.gettext)
    assert any("메모리" in d["message"] and "숨겨진" in d["message"] for d in shown["diagnostics"]), shown["diagnostics"]
