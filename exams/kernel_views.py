"""Student pages of an exam's kernel items: the editor and its submissions, the Submit row fetched
again after a verdict, and one submission's live row. Split from exams/views.py (the attempt's other
pages), whose helpers these share."""
from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET

from exams.core.kernel_state import kernel_state
from grader import live
from grader.core.errors import BadRequestError
from grader.core.judge import LaunchChoice
from grader.models import Status
from grader.views import poll_interval_changes_at
from practice.rendering import lang

from . import clock
from .actions.attempts import submit_kernel
from .actions.grading import kernel_outcomes, outcomes_of
from .errors import ExamError
from .kernel_rows import submission_rows, zone_feedback
from .models import ExamAttempt, ExamItem, Feedback
from .views import _exam_for_student, _outside, _own_attempt, _page_exam

@login_required
def kernel_item(request, pk: int, number: int):
    """A kernel question of the attempt: the statement, the editor as in practice, its submissions."""
    from problems.models import ProblemVersion

    exam = _page_exam(request, pk)
    if exam is None:
        return _outside(request, pk)
    attempt = _own_attempt(request, exam)
    item = get_object_or_404(ExamItem, attempt=attempt, number=number, kind="kernel")
    if not attempt.is_open and request.method != "POST":
        return redirect("exams:exam", pk=exam.pk)
    error = None
    source = item.answer.get("source", "")
    if request.method == "POST":
        source = request.POST.get("source", "")
        choice = LaunchChoice(request.POST.get("block", ""), request.POST.get("grid", ""),
                              request.POST.get("shared_bytes", ""))
        try:
            submit_kernel(item, request.user, source, choice)
        except ExamError as exc:
            error = str(exc)
        except BadRequestError as exc:  # grader's refusal: source or launch; no attempt is used
            error = str(exc)
        else:
            # No banner: the row of the new submission says it is being graded, and the live
            # update replaces it with the verdict (a banner stayed on after the verdict came).
            return redirect("exams:kernel", pk=exam.pk, number=number)
    version = ProblemVersion.objects.select_related("problem").get(pk=item.data["kernel"]["version_id"])
    variant = item.data["kernel"].get("variant") or None
    package = version.package().with_variant(variant)
    from problems.markdown import render_statement

    feedback = zone_feedback(exam, item)
    subs = submission_rows(item)
    k = item.data["kernel"]
    state = kernel_state(item.data, outcomes_of(subs), feedback, attempt.is_open)
    return render(request, "exams/kernel.html", {
        "exam": exam, "attempt": attempt, "item": item, "kernel": k, "problem": version.problem,
        "statement": render_statement(version, lang(), variant),
        "launch": package.launch, "source": source if source else package.starter_in(lang()), "error": error,
        # The page asks before a submission of an unchanged starter (in either language: the draft may
        # have been started on a page in the other one).
        "starters": list(dict.fromkeys([package.starter_in(lang()), *package.starters.values()])),
        "submissions": subs, "feedback": feedback, "show_verdict": feedback in (Feedback.VERDICT, Feedback.FULL),
        "clock_query": clock.poll_query(request, exam.pk, attempt.pk),
        "server_now": timezone.now(),  # the clock counts from the server's time (an empty one read NaN:NaN:NaN)
        "show_full": feedback == Feedback.FULL,
        "state": state, "attempts_left": state.attempts_left,
    }, status=400 if error else 200)


@login_required
@require_GET
def kernel_state_part(request, pk: int, number: int):
    """The kernel question's Submit row and what the student may know of the item (solved, points,
    attempts left), fetched again by the page when one of its submissions gets its verdict."""
    exam = _exam_for_student(request, pk)
    attempt = _own_attempt(request, exam)
    item = get_object_or_404(ExamItem, attempt=attempt, number=number, kind="kernel")
    state = kernel_state(item.data, kernel_outcomes(item), zone_feedback(exam, item), attempt.is_open)
    return render(request, "exams/_kernel_state.html", {"exam": exam, "item": item, "kernel": item.data["kernel"],
                                                        "state": state})


def kernel_live(request, pk: int, number: int, sid: int):
    """One submission's row on the kernel question page, polled by htmx until it is graded:
    QUEUED, COMPILING, RUNNING test k of n, then the verdict as the exam's feedback allows.
    A poll while nothing changed is a 304 from the live cache with no SQL (grader.live)."""
    return live.not_modified(request, "e", sid) or _kernel_live(request, pk, number, sid)


@login_required
def _kernel_live(request, pk: int, number: int, sid: int):
    token = live.current_token(sid)
    exam = _exam_for_student(request, pk)
    attempt = ExamAttempt.objects.filter(exam=exam, user=request.user).first()
    if attempt is None:
        raise Http404
    item = get_object_or_404(ExamItem, attempt=attempt, number=number, kind="kernel")
    row = next((s for s in submission_rows(item) if s.pk == sid), None)
    if row is None:
        raise Http404
    feedback = zone_feedback(exam, item)
    response = render(request, "exams/_kernel_submission.html", {
        "exam": exam, "item": item, "s": row,
        "show_verdict": feedback in (Feedback.VERDICT, Feedback.FULL), "show_full": feedback == Feedback.FULL})
    if row.status == Status.GRADED:
        # The page fetches its Submit row again (kernel_state_part): a verdict can solve the item or,
        # a compile error, give its attempt back.
        response["HX-Trigger"] = "exam-verdict"
    return live.with_etag(response, request, "e", sid, token, False, poll_interval_changes_at(row))
