"""What the judge says about a verdict: a test case's message and the submission's summary, each a
messages.Message, rendered in the reader's language at the edge.

Plain Python (no Django). The verdicts themselves are decided in verdicts.py.
"""
from __future__ import annotations

from . import messages as M
from .results import JudgeResult, Mismatch
from .verdicts import DIAGNOSTIC_VERDICT, Verdict


def mismatch_message(mismatch: Mismatch) -> M.Message:
    """The message of a mismatch: a 2-D index names its axes ([row 0, col 1]); a float output says the
    tolerance at that element and how far off the value was."""
    tolerance = mismatch.allowed is not None and mismatch.error is not None
    if tolerance:
        template = M.MISMATCH_ONE_TOLERANCE if mismatch.count == 1 else M.MISMATCH_MANY_TOLERANCE
    else:
        template = M.MISMATCH_ONE if mismatch.count == 1 else M.MISMATCH_MANY
    index = M.INDEX_ROW_COL(row=mismatch.index[0], col=mismatch.index[1]) \
        if len(mismatch.index) == 2 else str(mismatch.index)
    params = {"output": mismatch.output, "index": index, "expected": mismatch.expected, "got": mismatch.got,
              "count": mismatch.count}
    if tolerance:
        params.update(allowed=mismatch.allowed, error=mismatch.error)
    return template(**params)


# The short outcome words a backend may give a run as plain text (the dummy backend, older backends).
_OUTCOME_WORDS = {str(t): t for t in (M.OUTCOME_TIME_LIMIT, M.OUTCOME_KILLED, M.OUTCOME_DEADLOCK)}


def case_message(message: str, outcome) -> M.Message:
    """The message of a test case (`message`: verdicts.case_verdict's, for the run `outcome`, a
    backends.base.RunOutcome): a Message as it is; text that is a diagnostic's English (maybe after a
    CUDA error name) becomes that diagnostic's message, an outcome word its template, other text verbatim."""
    if isinstance(message, M.Message) and message.code:
        return message
    message = str(message or "")
    for d in outcome.diagnostics:
        if not d.message.code:
            continue
        if d.message == message:
            return d.message
        error, _, rest = message.partition(": ")
        if rest == d.message and error.replace("_", "").isalnum():
            return M.ERROR_PREFIXED(error=error, message=d.message)
    if message in _OUTCOME_WORDS:
        return _OUTCOME_WORDS[message]()
    return M.Message.verbatim(message)


def submission_summary(result: JudgeResult) -> M.Message:
    """The verdict's summary: the test case that explains the verdict and why (empty for ACCEPTED).
    The count of passed cases is not repeated here: the page states it.

    The reason is the first diagnostic that implies the verdict, else the first case with the verdict,
    by its own message. A finding of the check pass says so (no test row shows it: the rows may all
    be ACCEPTED). The line is added only when the reason does not name it already. A hidden case's
    message is never quoted (it holds its values); a diagnostic is, as a nested message that the site
    replaces when its test is hidden (grader/serializers.py).
    """
    if result.verdict is Verdict.ACCEPTED:
        return M.Message.verbatim("")
    first = next((d for d in result.diagnostics if DIAGNOSTIC_VERDICT.get(d.kind) == result.verdict), None)
    if first is not None:
        add_line = first.line and not first.message.names_param("line")
        params = {"test": first.test, "reason": first.message, **({"line": first.line} if add_line else {})}
        if first.check:
            params["check"] = M.check_name(first.kind)
            return (M.SUMMARY_CHECK_AT_LINE if add_line else M.SUMMARY_CHECK)(**params)
        return (M.SUMMARY_TEST_AT_LINE if add_line else M.SUMMARY_TEST)(**params)
    case = next((t for t in result.tests if t.verdict is result.verdict), None)
    if case is None:
        return M.Message.verbatim("")
    if not case.sample:
        return M.SUMMARY_HIDDEN_TEST(test=case.name)
    if not case.message:
        return M.SUMMARY_TEST_FAILED(test=case.name)
    return M.SUMMARY_TEST(test=case.name, reason=case.message)
