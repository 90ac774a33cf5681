"""What the judge says about a verdict: a test case's message and the submission's summary, each as
(template, params) of grader/core/messages.py, rendered in the reader's language at the edge.

Plain Python (no Django). The verdicts themselves are decided in verdicts.py.
"""
from __future__ import annotations

from . import messages as M
from .results import JudgeResult, Mismatch
from .verdicts import DIAGNOSTIC_VERDICT, Verdict


def mismatch_message(mismatch: Mismatch) -> tuple[str, dict]:
    """(template, params) of a mismatch: a 2-D index names its axes ([row 0, col 1]); a float output
    says the tolerance at that element and how far off the value was."""
    tolerance = mismatch.allowed is not None and mismatch.error is not None
    if tolerance:
        template = M.MISMATCH_ONE_TOLERANCE if mismatch.count == 1 else M.MISMATCH_MANY_TOLERANCE
    else:
        template = M.MISMATCH_ONE if mismatch.count == 1 else M.MISMATCH_MANY
    index = M.text(M.INDEX_ROW_COL, row=mismatch.index[0], col=mismatch.index[1]) \
        if len(mismatch.index) == 2 else str(mismatch.index)
    params = {"output": mismatch.output, "index": index, "expected": mismatch.expected, "got": mismatch.got,
              "count": mismatch.count}
    if tolerance:
        params.update(allowed=mismatch.allowed, error=mismatch.error)
    return template, params


def case_message(message: str, outcome, mismatch: Mismatch | None) -> tuple[str, dict]:
    """(template, params) of a test case's message (`message`: verdicts.case_verdict's, for the run
    `outcome`, a backends.base.RunOutcome): a mismatch, a diagnostic's own message (maybe after a
    CUDA error name), or one of the backends' short outcome messages. ("", {}) when it is none of ours."""
    if not message:
        return "", {}
    # With a mismatch, case_verdict's message is a SYNC_ERROR's finding or else the mismatch.
    if mismatch is not None and not any(d.message == message for d in outcome.diagnostics):
        return mismatch_message(mismatch)
    for d in outcome.diagnostics:
        if not d.message_template:
            continue
        if d.message == message:
            return d.message_template, d.message_params
        error, _, rest = message.partition(": ")
        if rest == d.message and error.replace("_", "").isalnum():
            return M.ERROR_PREFIXED, {"error": error, "message": M.text(d.message_template, **d.message_params)}
    found = M.recognise(message, (M.OUTCOME_TIME_LIMIT, M.OUTCOME_KILLED, M.OUTCOME_DEADLOCK, *M.LAUNCH_REASONS))
    return found or ("", {})


def submission_summary(result: JudgeResult) -> tuple[str, dict]:
    """(template, params) of the verdict's summary: the test case that explains the verdict and why
    (("", {}) for ACCEPTED). The count of passed cases is not repeated here: the page states it.

    The reason is the first diagnostic that implies the verdict, else the first case with the verdict,
    by its own message. A finding of the check pass says so (no test row shows it: the rows may all
    be ACCEPTED). The line is added only when the reason does not name it already. A hidden case's
    message is never quoted (it holds its values); a diagnostic is, as the site replaces a hidden
    case's diagnostic wherever it is quoted (grader/serializers.py).
    """
    if result.verdict is Verdict.ACCEPTED:
        return "", {}
    first = next((d for d in result.diagnostics if DIAGNOSTIC_VERDICT.get(d.kind) == result.verdict), None)
    if first is not None:
        # A diagnostic without a template (text we cannot name) is quoted as its English text.
        reason = M.text(first.message_template, **first.message_params) if first.message_template else first.message
        add_line = first.line and not (first.message_template
                                       and M.names_param(first.message_template, first.message_params, "line"))
        params = {"test": first.test, "reason": reason, **({"line": first.line} if add_line else {})}
        if first.check:
            params["check"] = M.check_name(first.kind)
            return (M.SUMMARY_CHECK_AT_LINE if add_line else M.SUMMARY_CHECK), params
        return (M.SUMMARY_TEST_AT_LINE if add_line else M.SUMMARY_TEST), params
    case = next((t for t in result.tests if t.verdict is result.verdict), None)
    if case is None:
        return "", {}
    if not case.sample:
        return M.SUMMARY_HIDDEN_TEST, {"test": case.name}
    if not case.message:
        return M.SUMMARY_TEST_FAILED, {"test": case.name}
    reason = M.text(case.message_template, **case.message_params) if case.message_template else case.message
    return M.SUMMARY_TEST, {"test": case.name, "reason": reason}
