"""Scores of attempts: grading from what is stored, and re-scoring when a kernel submission's first
verdict arrives after the attempt ended. Regrades (a diff first, then applied) are regrades.py."""
from __future__ import annotations

from django.db import transaction

from exams.core.scoring import ExamScore, KernelOutcome, score_exam

from ..models import ExamAttempt, ExamItem


def outcomes_of(submissions) -> list[KernelOutcome]:
    """Submissions of one kernel item as scoring reads them, oldest first (any iterable of rows: a
    prefetched list is sorted here, without a query)."""
    from grader.models import Status

    out = []
    for s in sorted(submissions, key=lambda s: (s.created_at, s.pk)):
        if s.status != Status.GRADED:
            out.append(KernelOutcome("", submission_id=s.pk))
            continue
        tests = (s.result or {}).get("tests", [])
        passed = sum(1 for t in tests if t.get("verdict") == "ACCEPTED")
        out.append(KernelOutcome(s.verdict, passed, len(tests), s.pk))
    return out


def kernel_outcomes(item: ExamItem) -> list[KernelOutcome]:
    """The item's submissions, oldest first, as scoring reads them."""
    return outcomes_of(item.submissions.all())


def _score(attempt: ExamAttempt, items: list[ExamItem], keys=None) -> ExamScore:
    answers = {i.key: i.answer for i in items if i.kind == "question"}
    outcomes = {i.key: kernel_outcomes(i) for i in items if i.kind == "kernel"}
    return score_exam([i.data for i in items], answers, outcomes, keys)


def store_score(attempt: ExamAttempt, items: list[ExamItem], score: ExamScore) -> None:
    """Save `score`'s points and status into `items` (all of `attempt`'s) and its total into `attempt`.
    Precondition: the attempt row is locked by the caller's transaction."""
    by_key = score.by_key()
    for i in items:
        s = by_key[i.key]
        i.points, i.status = s.points, str(s.status)
    ExamItem.objects.bulk_update(items, ["points", "status"])
    attempt.total, attempt.max_total = score.total, score.max_total
    attempt.save(update_fields=["total", "max_total"])


def grade_attempt(attempt: ExamAttempt) -> ExamScore:
    """Score every item from what is stored (answers, the stored keys, kernel verdicts) and store it."""
    items = list(attempt.items.all())
    score = _score(attempt, items)
    store_score(attempt, items, score)
    return score


def on_submission_graded(submission) -> None:
    """A kernel submission's first verdict arrived: re-score the attempt if it has ended (an open one is
    scored when it ends). exams.signals calls it after the verdict's commit."""
    if not submission.exam_item_id:
        return
    attempt = ExamAttempt.objects.filter(items__pk=submission.exam_item_id).first()
    if attempt is not None and not attempt.is_open:
        with transaction.atomic():
            grade_attempt(ExamAttempt.objects.select_for_update().get(pk=attempt.pk))
