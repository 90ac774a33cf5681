"""Regrades of an exam: recompute its ended attempts with answer keys recomputed by the generators'
current code and, after a fix to a kernel problem, with its kernel submissions re-judged; previewed as
a diff (per student and item, from what to what) before anything changes, then applied and logged.

Re-judging reuses the authors' rejudge machinery (grader.rejudging, grader.core.rejudge): each
graded kernel submission of an ended attempt is copied and the copy graded through the real queue at
low priority, against the problem's current published version or the version it was graded on
(RegradeAgainst). The submissions, the items and the scores stay as they are meanwhile; the copies
belong to the instructor and count nowhere. Applying gives each submission its copy's verdict,
result and version (never a copy's INTERNAL_ERROR: "not re-judged", the old verdict stays), stores
the new points and totals, and keeps the old verdicts and results (KernelRejudge) and the applied diff
(KernelRegrade.applied_diff); each changed attempt's timeline gets a REGRADED event.

    regrade = start_kernel_regrade(exam, instructor, RegradeAgainst.CURRENT)   # copies queued
    diff = preview_regrade(exam)        # as the copies are graded; regrade_progress(regrade) for the bar
    apply_regrade(exam, instructor, expect=diff.fingerprint())
"""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from exams.core.regrade import AttemptRecord, RegradeDiff, Rejudged, regrade, rekey_from_generators
from exams.core.scoring import KernelOutcome
from grader.core.rejudge import RejudgeProgress, progress_of

from ..errors import ExamError
from ..models import AttemptState, EventKind, Exam, ExamAttempt, KernelRegrade, KernelRejudge, RegradeAgainst
from .events import log_event
from .grading import outcomes_of, store_score

# Submissions one kernel regrade may re-judge (300 students x 3 attempts x 3 kernel items fit).
MAX_REJUDGE = 3000


def _ended(exam: Exam):
    return exam.attempts.exclude(state=AttemptState.OPEN)


def rejudge_targets(exam: Exam):
    """The kernel submissions a kernel regrade re-judges: the graded STUDENT submissions of the exam's
    ended attempts, except those that ended INTERNAL_ERROR (they cost no attempt, and a later verdict
    must not make them one), oldest first."""
    from grader.models import Purpose, Status, Submission

    return (Submission.objects.filter(exam_item__attempt__in=_ended(exam), purpose=Purpose.STUDENT,
                                      status=Status.GRADED)
            .exclude(verdict="INTERNAL_ERROR").select_related("problem_version__problem").order_by("pk"))


def open_kernel_regrade(exam: Exam, lock: bool = False) -> KernelRegrade | None:
    """The exam's kernel regrade being previewed (its latest, unless applied or discarded), or None."""
    rows = KernelRegrade.objects.select_for_update() if lock else KernelRegrade.objects
    latest = rows.filter(exam=exam).order_by("-created_at", "-pk").first()
    return latest if latest is not None and latest.is_open else None


def regrade_progress(kernel_regrade: KernelRegrade) -> RejudgeProgress:
    """How far the regrade's re-judging has come (one query)."""
    return progress_of(r.state for r in kernel_regrade.items.select_related("copy"))


def _version_for(original, against: str):
    if against == RegradeAgainst.CURRENT:
        return original.problem_version.problem.current_version or original.problem_version
    return original.problem_version


def _judgeable(version, variant) -> bool:
    """Whether `version` declares the student's variant (a later version may have dropped it)."""
    from problems.core.package import PackageError

    try:
        version.package().with_variant(variant or None)
    except PackageError:
        return False
    return True


def start_kernel_regrade(exam: Exam, by, against: str) -> KernelRegrade:
    """Re-judge the exam's kernel submissions (rejudge_targets) against `against` (RegradeAgainst): a
    shadow copy of each, owned by `by`, graded on the queue at low priority after the commit. A
    submission whose variant the version does not declare gets no copy (it shows as not re-judged).
    Nothing else changes. Raises ExamError when another re-judging of the exam is still running, when
    there is nothing to re-judge or more than MAX_REJUDGE."""
    from grader import rejudging as grader_rejudging

    if against not in RegradeAgainst.values:
        raise ExamError(_("Choose the version to judge against."))
    with transaction.atomic():
        Exam.objects.select_for_update().filter(pk=exam.pk).first()  # one start or apply at a time
        current = open_kernel_regrade(exam, lock=True)
        if current is not None and regrade_progress(current).running:
            raise ExamError(_("The kernel submissions are being re-judged already: wait for it to finish, "
                              "or discard it."))
        targets = list(rejudge_targets(exam)[:MAX_REJUDGE + 1])
        if not targets:
            raise ExamError(_("No graded kernel submission of an ended attempt to re-judge."))
        if len(targets) > MAX_REJUDGE:
            raise ExamError(_("More than %(n)d kernel submissions: ask an administrator.") % {"n": MAX_REJUDGE})
        if current is not None:
            current.discarded_at = timezone.now()  # replaced by this one, kept for the record
            current.save(update_fields=["discarded_at"])
        run = KernelRegrade.objects.create(exam=exam, against=against, created_by=by)
        versions = {}
        for original in targets:
            version = _version_for(original, against)
            version = versions.setdefault(version.pk, version)  # one parsed package per version
            copy = (grader_rejudging.create_rejudge_copy(by, version, original)
                    if _judgeable(version, original.variant) else None)
            KernelRejudge.objects.create(regrade=run, item_id=original.exam_item_id, original=original, copy=copy,
                                         version=version, **grader_rejudging.snapshot(original))
    return run


def discard_kernel_regrade(exam: Exam) -> KernelRegrade | None:
    """Stop previewing the exam's open kernel regrade (its copies, if still queued, are graded and
    ignored). Nothing else changes. Returns it, or None when there was none."""
    with transaction.atomic():
        current = open_kernel_regrade(exam, lock=True)
        if current is not None:
            current.discarded_at = timezone.now()
            current.save(update_fields=["discarded_at"])
    return current


def rejudged_of(kernel_regrade: KernelRegrade | None) -> dict[int, Rejudged]:
    """{original submission id: Rejudged} of a kernel regrade, as the regrade core reads them."""
    if kernel_regrade is None:
        return {}
    out = {}
    for r in kernel_regrade.items.select_related("copy", "version"):
        copy = r.copy
        outcome = None
        if copy is not None and copy.status == "GRADED":
            tests = (copy.result or {}).get("tests", [])
            outcome = KernelOutcome(copy.verdict, sum(1 for t in tests if t.get("verdict") == "ACCEPTED"), len(tests),
                                    r.original_id)
        out[r.original_id] = Rejudged(r.state, outcome, r.version.number)
    return out


def regrade_records(exam: Exam, rejudged: dict[int, Rejudged] | None = None) -> list[AttemptRecord]:
    """The exam's ended attempts as the regrade core reads them (a few queries, whatever their number)."""
    records = []
    attempts = _ended(exam).select_related("user").prefetch_related("items__submissions").order_by("user__username")
    for attempt in attempts:
        items = list(attempt.items.all())
        records.append(AttemptRecord(
            attempt.pk, attempt.user.get_username(), [i.data for i in items],
            {i.key: i.answer for i in items if i.kind == "question"},
            {i.key: outcomes_of(i.submissions.all()) for i in items if i.kind == "kernel"},
            {i.key: float(i.points or 0.0) for i in items}, rejudged or {}))
    return records


def preview_regrade(exam: Exam, rekey: bool = True) -> RegradeDiff:
    """What applying a regrade now would change (nothing is written): answer keys recomputed from the
    stored params with the generators' current code when `rekey`; kernel items from their submissions'
    stored verdicts, or, where the open kernel regrade re-judged them, the new ones."""
    rejudged = rejudged_of(open_kernel_regrade(exam))
    return regrade(regrade_records(exam, rejudged), keys_for=rekey_from_generators if rekey else None)


def apply_regrade(exam: Exam, by, rekey: bool = True, expect: str | None = None) -> RegradeDiff:
    """Recompute as preview_regrade does and store it: new keys go into the stored items (so the attempt
    keeps grading the same way from then on), re-judged submissions get their copies' verdicts
    (grader.rejudging.apply_records: never a platform fault's), new points and totals are saved, each
    changed attempt's timeline logs what changed and the kernel regrade keeps the diff as applied.
    `expect` is the fingerprint of the diff the instructor saw. Raises ExamError while re-judging runs,
    or when the diff is no longer the one seen (apply nothing then)."""
    from grader import rejudging as grader_rejudging

    with transaction.atomic():
        Exam.objects.select_for_update().filter(pk=exam.pk).first()
        kernel_regrade = open_kernel_regrade(exam, lock=True)
        if kernel_regrade is not None and regrade_progress(kernel_regrade).running:
            raise ExamError(_("Wait until every kernel submission is re-judged: nothing was applied."))
        diff = regrade(regrade_records(exam, rejudged_of(kernel_regrade)),
                       keys_for=rekey_from_generators if rekey else None)
        if expect is not None and diff.fingerprint() != expect:
            raise ExamError(_("The regrade's diff changed since you looked at it (a verdict arrived or an "
                              "attempt ended): nothing was applied; check the new diff."))
        changed = {c.attempt_id: c for c in diff.changes}
        if kernel_regrade is not None:
            records = kernel_regrade.items.select_related("copy").filter(item__attempt_id__in=list(diff.scores))
            grader_rejudging.apply_records(records)
        for attempt in ExamAttempt.objects.select_for_update().filter(pk__in=list(diff.scores)):
            items = list(attempt.items.all())
            if rekey:
                for i in items:
                    new = rekey_from_generators(i.data)
                    if new is not None:
                        i.data = {**i.data, "question": {**i.data["question"], "answer": new,
                                                         "rekeyed_from": i.data["question"]["answer"]}}
                        i.save(update_fields=["data"])
            store_score(attempt, items, diff.scores[attempt.pk])
            if attempt.pk in changed:
                c = changed[attempt.pk]
                log_event(attempt, EventKind.REGRADED, by=by, old=c.old_total, new=c.new_total,
                          changes=[[i.key, i.old, i.new] for i in c.items],
                          verdicts=[[i.key, v.submission_id, v.old, v.new, str(v.state), v.version]
                                    for i in c.items for v in i.verdicts],
                          kernel_regrade=kernel_regrade.pk if kernel_regrade is not None else None)
        if kernel_regrade is not None:
            kernel_regrade.applied_at, kernel_regrade.applied_by = timezone.now(), by
            kernel_regrade.applied_diff = diff.to_dict()
            kernel_regrade.save(update_fields=["applied_at", "applied_by", "applied_diff"])
    return diff
