"""The regrade pages of an exam (instructors): the diff a regrade would make, with its kernel re-judging's
live progress (polled by htmx while copies are graded), starting, discarding and applying it; the
record of a kernel regrade (every re-judged submission, from what to what); one old result as it was."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from grader.models import Status, Submission

from .access import require_instructor
from .actions.regrades import (apply_regrade, discard_kernel_regrade, open_kernel_regrade, preview_regrade,
                               regrade_progress, start_kernel_regrade)
from .errors import ExamError
from .models import Exam, KernelRegrade, RegradeAgainst

POLL_S = 2  # how often the page asks for the re-judging's progress while copies are graded


def _exam(request, pk: int) -> Exam:
    exam = get_object_or_404(Exam.objects.select_related("course"), pk=pk)
    require_instructor(request.user, exam.course)
    return exam


@login_required
def regrade(request, pk: int):
    """GET: the diff a regrade would make (the body alone for htmx's poll). POST `action`: `rejudge`
    (re-judge the kernel submissions against `against`), `discard` (stop previewing that), or `apply`
    (store the diff whose `fingerprint` the page showed)."""
    exam = _exam(request, pk)
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "rejudge":
                run = start_kernel_regrade(exam, request.user, request.POST.get("against", ""))
                n = run.items.count()
                messages.success(request, ngettext(
                    "%(n)d kernel submission is being re-judged; its new verdict shows below as it comes. "
                    "Nothing changes until you apply it.",
                    "%(n)d kernel submissions are being re-judged; their new verdicts show below as they come. "
                    "Nothing changes until you apply them.", n) % {"n": n})
            elif action == "discard":
                if discard_kernel_regrade(exam) is not None:
                    messages.info(request, _("The re-judging was discarded: the diff is computed from the stored "
                                             "verdicts again."))
            else:
                diff = apply_regrade(exam, request.user, expect=request.POST.get("fingerprint") or None)
                messages.success(request, ngettext("Regrade applied: %(n)d attempt changed.",
                                                   "Regrade applied: %(n)d attempts changed.",
                                                   len(diff.changes)) % {"n": len(diff.changes)})
                return redirect("exams:results", pk=exam.pk)
        except ExamError as exc:
            messages.error(request, str(exc))
        return redirect("exams:regrade", pk=exam.pk)
    template = "exams/_regrade_body.html" if request.htmx else "exams/regrade.html"
    return render(request, template, _context(exam))


def _context(exam: Exam) -> dict:
    kernel_regrade = open_kernel_regrade(exam)
    progress = regrade_progress(kernel_regrade) if kernel_regrade is not None else None
    diff = preview_regrade(exam)
    running = progress is not None and progress.running
    return {"exam": exam, "diff": diff, "fingerprint": diff.fingerprint(), "kernel_regrade": kernel_regrade,
            "progress": progress, "running": running, "poll_s": POLL_S,
            "can_apply": not running and bool(diff.changes or diff.rekeyed or kernel_regrade),
            "against_choices": RegradeAgainst.choices,
            "history": exam.kernel_regrades.select_related("created_by", "applied_by").order_by("-created_at", "-pk")}


@login_required
def kernel_regrade(request, pk: int, regrade_id: int):
    """A kernel regrade's record: every re-judged submission with its old verdict and version, the new
    ones, and, once applied, who applied it, when, and the diff as it was applied."""
    exam = _exam(request, pk)
    run = get_object_or_404(KernelRegrade.objects.select_related("created_by", "applied_by"), pk=regrade_id, exam=exam)
    rows = list(run.items.select_related("copy", "original__user", "old_version", "version", "item")
                .order_by("original__user__username", "item__number", "original__created_at"))
    return render(request, "exams/kernel_regrade.html", {
        "exam": exam, "run": run, "rows": rows, "progress": regrade_progress(run),
        "applied": run.applied_diff.get("changes", []) if run.applied_at else []})


@login_required
def old_result(request, pk: int, regrade_id: int, record_id: int):
    """One re-judged submission's result as it was before the regrade (kept in its KernelRejudge row),
    shown as the submission page shows a result."""
    from grader.views import submission_context

    exam = _exam(request, pk)
    run = get_object_or_404(KernelRegrade, pk=regrade_id, exam=exam)
    record = get_object_or_404(run.items.select_related("original__user", "old_version__problem"), pk=record_id)
    original = record.original
    # The submission as it was: an unsaved row (never saved) holding the old verdict, result and version.
    before = Submission(pk=original.pk, user=original.user, problem_version=record.old_version, source=original.source,
                        launch_block=original.launch_block, launch_grid=original.launch_grid,
                        launch_shared_bytes=original.launch_shared_bytes, variant=original.variant,
                        status=Status.GRADED, verdict=record.old_verdict, result=record.old_result,
                        created_at=original.created_at)
    context = submission_context(before, request.user)
    # Read-only: nothing here is polled or requested (a write map belongs to the submission as it is now).
    context.update(writemap_requestable=False, writemap_pending=False, is_final=True)
    return render(request, "exams/old_result.html", {**context, "exam": exam, "run": run, "record": record})
