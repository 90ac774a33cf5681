"""Scores of attempts: grading from what is stored, re-scoring when a kernel verdict arrives, regrades
(previewed as a diff before they are applied) and rejudging an exam's kernels."""
from __future__ import annotations

from django.db import transaction

from exams.core.regrade import AttemptRecord, RegradeDiff, regrade, rekey_from_generators
from exams.core.scoring import ExamScore, KernelOutcome, score_exam

from ..models import AttemptState, EventKind, Exam, ExamAttempt, ExamItem
from .events import log_event


def kernel_outcomes(item: ExamItem) -> list[KernelOutcome]:
    """The item's submissions, oldest first, as scoring reads them."""
    from grader.models import Status

    out = []
    for s in item.submissions.order_by("created_at", "pk"):
        if s.status != Status.GRADED:
            out.append(KernelOutcome("", submission_id=s.pk))
            continue
        tests = (s.result or {}).get("tests", [])
        passed = sum(1 for t in tests if t.get("verdict") == "ACCEPTED")
        out.append(KernelOutcome(s.verdict, passed, len(tests), s.pk))
    return out


def _score(attempt: ExamAttempt, items: list[ExamItem], keys=None) -> ExamScore:
    answers = {i.key: i.answer for i in items if i.kind == "question"}
    outcomes = {i.key: kernel_outcomes(i) for i in items if i.kind == "kernel"}
    return score_exam([i.data for i in items], answers, outcomes, keys)


def _store_score(attempt: ExamAttempt, items: list[ExamItem], score: ExamScore) -> None:
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
    _store_score(attempt, items, score)
    return score


def on_submission_graded(submission) -> None:
    """A kernel verdict arrived: re-score the attempt if it has ended (an open one is scored when it ends)."""
    if not submission.exam_item_id:
        return
    attempt = ExamAttempt.objects.filter(items__pk=submission.exam_item_id).first()
    if attempt is not None and not attempt.is_open:
        with transaction.atomic():
            grade_attempt(ExamAttempt.objects.select_for_update().get(pk=attempt.pk))


def regrade_records(exam: Exam) -> list[AttemptRecord]:
    """The exam's ended attempts as the regrade core reads them."""
    records = []
    for attempt in exam.attempts.exclude(state=AttemptState.OPEN).select_related("user").prefetch_related("items"):
        items = list(attempt.items.all())
        records.append(AttemptRecord(
            attempt.pk, attempt.user.get_username(), [i.data for i in items],
            {i.key: i.answer for i in items if i.kind == "question"},
            {i.key: kernel_outcomes(i) for i in items if i.kind == "kernel"},
            {i.key: float(i.points or 0.0) for i in items}))
    return records


def preview_regrade(exam: Exam, rekey: bool = True) -> RegradeDiff:
    """What a regrade would change (nothing is written): answer keys recomputed from the stored params
    with the generators' current code when `rekey`, kernel items from their submissions' current verdicts."""
    return regrade(regrade_records(exam), keys_for=rekey_from_generators if rekey else None)


def apply_regrade(exam: Exam, by, rekey: bool = True) -> RegradeDiff:
    """Recompute as preview_regrade does and store it: new keys go into the stored items (so the attempt
    keeps grading the same way from then on), new points and totals are saved, each change is logged."""
    with transaction.atomic():
        diff = preview_regrade(exam, rekey)
        changed = {c.attempt_id: c for c in diff.changes}
        for attempt in ExamAttempt.objects.select_for_update().filter(pk__in=list(diff.scores)):
            items = list(attempt.items.all())
            if rekey:
                for i in items:
                    new = rekey_from_generators(i.data)
                    if new is not None:
                        i.data = {**i.data, "question": {**i.data["question"], "answer": new,
                                                         "rekeyed_from": i.data["question"]["answer"]}}
                        i.save(update_fields=["data"])
            _store_score(attempt, items, diff.scores[attempt.pk])
            if attempt.pk in changed:
                c = changed[attempt.pk]
                log_event(attempt, EventKind.REGRADED, by=by, old=c.old_total, new=c.new_total,
                       changes=[[i.key, i.old, i.new] for i in c.items])
    return diff


def rejudge_kernels(exam: Exam) -> int:
    """Re-judge every graded kernel submission of the exam through the queue (after a package fix);
    the regrade preview then shows what their new verdicts change. Returns how many were queued."""
    from grader import rejudging as grader_rejudging
    from grader.models import Submission

    ids = Submission.objects.filter(exam_item__attempt__exam=exam).values_list("pk", flat=True)
    return grader_rejudging.rejudge(list(ids))
