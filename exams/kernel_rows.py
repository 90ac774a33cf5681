"""A kernel item's submissions as the exam's pages list them: each row's attempt number, its live
polling schedule and, for a COMPILE_ERROR, the compiler's messages (shown in every feedback mode:
they say nothing about the hidden tests, and such a submission costs no attempt,
exams.core.scoring); and the item's saved draft as staff read it."""
from __future__ import annotations

from django.utils.translation import gettext

from exams.core.kernel_state import item_feedback
from exams.core.scoring import COMPILE_ERROR, attempt_numbers

from practice.rendering import blocks_html

from .actions.grading import outcomes_of
from .models import Exam, ExamItem

MAX_COMPILE_MESSAGES = 10  # a row lists the first ones; the rest are in the compiler's output below them


def zone_feedback(exam: Exam, item: ExamItem) -> str:
    """The feedback a kernel item gives during the exam: its zone's setting, else the exam's."""
    return item_feedback(exam.spec, exam.feedback, item.data)


def compile_report(submission) -> dict | None:
    """For a submission graded COMPILE_ERROR: {"messages": [{"line", "column", "severity", "message"
    (in the reader's language), "source_line"}], "more": how many messages are left out, "log": the
    compiler's output (truncated by the judge)}; None for any other submission."""
    from grader.serializers import public_result

    if submission.verdict != COMPILE_ERROR:
        return None
    result = public_result(submission.judge_result(), False, translate=gettext)
    compiled = result["compile"] or {}
    lines = submission.source.splitlines()
    messages = [m for m in compiled.get("messages", []) if m.get("severity") in ("error", "warning")]
    for m in messages:
        line = m.get("line")
        m["source_line"] = lines[line - 1] if line and 1 <= line <= len(lines) else None
    return {"messages": messages[:MAX_COMPILE_MESSAGES], "more": max(0, len(messages) - MAX_COMPILE_MESSAGES),
            "log": compiled.get("log", "") or ""}


def with_row_facts(submission, number: int | None):
    """The submission with what its row shows: `attempt_number` (which attempt it is, 1-based, or None
    when it is none: exams.core.scoring.attempt_numbers), `poll_s` (how often the live row is polled:
    the practice page's schedule, grader.views.live_poll_interval), `progress_current` (the test
    being run, 1-based) and `compile` (compile_report)."""
    from grader.views import live_poll_interval

    submission.attempt_number = number
    submission.poll_s = live_poll_interval(submission)
    total = submission.progress_total
    submission.progress_current = min(submission.progress_done + 1, total) if total else 0
    submission.compile = compile_report(submission)
    return submission


def submission_rows(item: ExamItem) -> list:
    """The item's submissions, oldest first, each with its row's facts (with_row_facts). One query."""
    subs = sorted(item.submissions.all(), key=lambda s: (s.created_at, s.pk))
    return [with_row_facts(s, n) for s, n in zip(subs, attempt_numbers(outcomes_of(subs)))]


def kernel_draft(item: ExamItem, submissions: list) -> dict | None:
    """The kernel draft autosaved for `item` (its editor's text, ExamItem.answer["source"]), for staff
    to read: {"blocks": the source as a code block, "saved_at", "same_as": the attempt number
    (submission_rows) of the first submission with the same source, or None,
    "same_submission": that submission's id (it may be no attempt: a compile error), or None};
    None when nothing was typed. A draft is never graded: only submissions are."""
    source = (item.answer or {}).get("source", "")
    if not isinstance(source, str) or not source.strip():
        return None
    same = next((s for s in submissions if s.source == source), None)
    return {"blocks": blocks_html([{"kind": "code", "text": source}]), "saved_at": item.saved_at,
            "same_as": getattr(same, "attempt_number", None), "same_submission": same.pk if same else None}
