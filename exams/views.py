"""Student pages of exams: the exam's page (Start), the timed attempt (autosave, submit), and the result
once released (kernel items: exams/kernel_views.py). Thin: parse, call exams.actions, render. ExamError maps to HTTP here."""
from __future__ import annotations

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from exams.core.draw import question_view
from exams.core.kernel_state import FeedbackMode, kernel_state
from grader.parsers import too_deep, too_deep_message

from . import clock, fastsave
from .access import is_staff, require_student, role
from .actions.attempts import autosave, refresh, removed_error, start_attempt, submit_attempt
from .actions.grading import kernel_outcomes
from .actions.scheduling import window
from .errors import ExamError
from .kernel_rows import submission_rows, zone_feedback
from .models import AttemptState, CloseReason, Exam, ExamAttempt, ExamItem, Feedback
from .release import release_state
from practice.rendering import blocks_html, lang

MAX_SAVE_BYTES = 256 * 1024


def _exam_for_student(request, pk: int) -> Exam:
    exam = get_object_or_404(Exam.objects.select_related("course"), pk=pk)
    require_student(request.user, exam.course)
    return exam


def not_in_course(request):
    """The 403 page for a signed-in user outside the course of an exam that exists: it says so and how
    to join (an invite from the instructor), and nothing about the exam or its course. An unknown
    exam is a 404, as before."""
    return render(request, "exams/not_in_course.html", status=403)


def _removed_attempt(request, exam_id: int) -> ExamAttempt | None:
    """The signed-in user's own attempt at exam `exam_id` if it was closed because staff removed them
    from the course (close_reason "removed"), else None. Such a student, no longer a member, may still
    read why on the exam's page (read-only), and the attempt page's save and clock poll say so."""
    return ExamAttempt.objects.filter(exam_id=exam_id, user=request.user, state=AttemptState.CLOSED,
                                      close_reason=CloseReason.REMOVED).first()


def _outside(request, pk: int):
    """The answer to a student page of exam `pk` for a signed-in user outside its course: the exam's
    page, which says why, where their own attempt was closed for their removal; else not_in_course."""
    if _removed_attempt(request, pk) is not None:
        return redirect("exams:exam", pk=pk)
    return not_in_course(request)


def _page_exam(request, pk: int) -> Exam | None:
    """The exam of a student page (a member of its course may read it), or None for a user outside
    its course (the caller answers not_in_course). Raises Http404 for an unknown id."""
    exam = get_object_or_404(Exam.objects.select_related("course"), pk=pk)
    return exam if role(request.user, exam.course) is not None else None


def _own_attempt(request, exam: Exam) -> ExamAttempt:
    attempt = ExamAttempt.objects.filter(exam=exam, user=request.user).first()
    if attempt is None:
        raise Http404
    return refresh(attempt)


def _json_error(exc: ExamError) -> JsonResponse:
    return JsonResponse({"ok": False, "code": exc.code, "error": str(exc)}, status=exc.status)


def _logged_out() -> JsonResponse:
    """401 JSON for a script whose session is gone (logged out in another tab): a redirect to the
    log-in page would reach fetch() as a 200 HTML page, and the answer is still in the student's page."""
    return _json_error(ExamError(_("You are logged out: log in again in another tab; your answers are kept "
                                   "in this page."), code="logged_out", status=401))


@login_required
def exam_page(request, pk: int):
    """The exam's page: its window, rules and Start; or Continue; or the result once released."""
    exam = _page_exam(request, pk)
    if exam is None:
        removed = _removed_attempt(request, pk)
        if removed is None:
            return not_in_course(request)
        return _removed_exam_page(request, removed)
    attempt = ExamAttempt.objects.filter(exam=exam, user=request.user).first()
    if attempt:
        attempt = refresh(attempt)
    opens, closes, extra = window(exam, request.user)
    now = timezone.now()
    return render(request, "exams/exam.html", {
        "exam": exam, "attempt": attempt, "opens": opens, "closes": closes, "extra": extra, "now": now,
        "is_open": opens <= now < closes, "release": release_state(exam, now),
        "staff": is_staff(request.user, exam.course),
    })


def _removed_exam_page(request, attempt: ExamAttempt):
    """The exam's page, read-only, for a student removed from its course during their attempt: its
    window, the attempt's state and why it ended; no Start, no result, no links into the course."""
    exam = Exam.objects.select_related("course").get(pk=attempt.exam_id)
    opens, closes, extra = window(exam, request.user)
    return render(request, "exams/exam.html", {
        "exam": exam, "attempt": attempt, "opens": opens, "closes": closes, "extra": extra, "now": timezone.now(),
        "is_open": False, "release": None, "staff": False, "removed": True,
    })


@login_required
@require_POST
def start(request, pk: int):
    exam = _exam_for_student(request, pk)
    try:
        start_attempt(exam, request.user, password=request.POST.get("password", ""),
                      accept_honour_code=request.POST.get("honour_code") == "on")
    except ExamError as exc:
        messages.error(request, str(exc))
        return redirect("exams:exam", pk=exam.pk)
    return redirect("exams:attempt", pk=exam.pk)


def _item_row(exam: Exam, item: ExamItem, la: str, show_key: bool) -> dict:
    row = {"item": item, "number": item.number, "key": item.key, "kind": item.kind, "points": item.max_points}
    if item.kind == "question":
        view = question_view(item.data["question"], la, with_key=show_key)
        row["q"] = view
        row["prompt"] = blocks_html(view["prompt"])
        if show_key:
            row["solution"] = blocks_html(view["solution"])
        row["fields"] = [dict(f, value=item.answer.get(f["name"], ""),
                              expected=view.get("answer", {}).get(f["name"], "")) for f in view["fields"]]
        row["answered"] = any(str(v).strip() for v in item.answer.values())
    else:
        k = item.data["kernel"]
        from problems.models import ProblemVersion  # the stored version's problem names the item

        version = ProblemVersion.objects.select_related("problem").filter(pk=k.get("version_id")).first()
        row["title"] = version.problem.title if version else k["slug"]
        outcomes = kernel_outcomes(item)
        state = kernel_state(item.data, outcomes, zone_feedback(exam, item) if exam else FeedbackMode.NONE)
        row.update(kernel=k, attempts_left=state.attempts_left, used=len([o for o in outcomes if o.counts]),
                   answered=bool(outcomes), state=state)
    return row


@login_required
def attempt_page(request, pk: int):
    """The timed attempt: every question with autosave, kernel items linked, the server's deadline."""
    exam = _page_exam(request, pk)
    if exam is None:
        return _outside(request, pk)
    attempt = _own_attempt(request, exam)
    if not attempt.is_open:
        return redirect("exams:exam", pk=exam.pk)
    la = lang()
    rows = [_item_row(exam, i, la, False) for i in attempt.items.all()]
    return render(request, "exams/attempt.html", {
        "exam": exam, "attempt": attempt, "rows": rows, "server_now": timezone.now(),
        "clock_query": clock.poll_query(request, exam.pk, attempt.pk),
    })


def _saved(saved, payload) -> JsonResponse:
    saved_at, deadline = saved
    return JsonResponse({"ok": True, "saved_at": saved_at.isoformat(), "deadline": deadline.isoformat(),
                         "server_now": timezone.now().isoformat(), "seq": payload.get("seq")})


@require_POST
def save(request, pk: int):
    """Autosave (JSON): {"answers": {item key: {field: text}}} -> {"ok", "saved_at", "deadline", "server_now"}.
    409 with a message after the deadline; nothing is stored then.

    The hot path of an exam (every student, every few seconds). The page's save URL is signed for
    its session (exams.clock): such a save is one SQL statement with no session or user loaded
    (exams.fastsave). Anything else, or anything that statement does not take (late, submitted, a
    session gone), is the authenticated path below, with its messages."""
    if len(request.body) > MAX_SAVE_BYTES:
        return _json_error(ExamError(_("This save is too large."), code="too_large", status=413))
    # Python's json recurses once per level: a body nested 100,000 deep raised RecursionError (a 500).
    if too_deep(request.body):
        return _json_error(ExamError(too_deep_message(), code="bad_request"))
    try:
        payload = json.loads(request.body or b"{}")
        answers = payload["answers"]
        if not isinstance(answers, dict):
            raise ValueError
    except (ValueError, KeyError, TypeError):
        return _json_error(ExamError(_("A save must be JSON: {\"answers\": {...}}."), code="bad_request"))
    attempt_id = clock.signed_attempt(request, pk)
    if attempt_id is not None and fastsave.usable():
        try:
            saved = fastsave.autosave_signed(pk, attempt_id, request.COOKIES.get(settings.SESSION_COOKIE_NAME, ""),
                                             answers)
        except ExamError as exc:
            return _json_error(exc)
        if saved is not None:
            return _saved(saved, payload)
    return _save(request, pk, answers, payload)


def _save(request, pk: int, answers: dict, payload: dict):
    if not request.user.is_authenticated:
        return _logged_out()
    # A page rendered for another student must not save into this user's attempt of the same exam.
    if _other_user(request, payload):
        return _json_error(ExamError(_("You are signed in as another user in this browser: log in again "
                                       "as the student of this exam page in another tab; your answers "
                                       "are kept in this page."), code="other_user", status=403))
    # autosave checks the membership (one indexed query): a student removed from the course saves nothing,
    # and one whose attempt was closed for it is told so (the page stops and shows why).
    try:
        saved = autosave(pk, request.user, answers)
    except ExamError as exc:
        return _json_error(exc)
    if saved is None:
        if _removed_attempt(request, pk) is not None:
            return _json_error(removed_error())
        raise Http404
    return _saved(saved, payload)


def _other_user(request, payload: dict) -> bool:
    """The page that sent this save was rendered for another user than the session's (its "owner",
    the attempt owner's user id, differs from the signed-in user's). It tells the caller only that
    its own id is not the one the page names: nothing about any attempt."""
    owner = payload.get("owner")
    return isinstance(owner, int) and not isinstance(owner, bool) and owner != request.user.pk


@require_GET
def state(request, pk: int):
    """The attempt's clock and state (JSON), so the page's timer follows the server (an extension shows).

    The page's own poll (its URL signed for the session, exams.clock) is answered from the live
    cache with no SQL: {"state", "deadline", "server_now"}. Otherwise, after login and ownership,
    the row's answer with "last_saved_at" as well.

    An attempt closed early answers 409 with its state, deadline and the sentence to show ("error"): code
    "removed" where its student was removed from the course (from the cache or, for a student no longer
    in the course, from the row), "ended" where staff ended it (exams.actions.attempts.end_attempt).
    """
    cached = clock.cached_clock(request, pk)
    if cached is not None:
        if cached.get("close_reason") in EARLY_CLOSES:
            return _closed_early_state(cached["close_reason"], cached["state"], cached["deadline"])
        return JsonResponse({**cached, "server_now": timezone.now().isoformat()})
    return _state(request, pk)


def _staff_ended_error() -> ExamError:
    return ExamError(_("Your attempt was ended early by the course staff; everything you saved before then counts."),
                     code="ended", status=409)


# Why an attempt was closed before its deadline -> the error its clock poll answers with.
EARLY_CLOSES = {CloseReason.REMOVED.value: removed_error, CloseReason.STAFF.value: _staff_ended_error}


def _closed_early_state(reason: str, state: str, deadline: str) -> JsonResponse:
    """The clock poll's answer for an attempt closed early for `reason` (a key of EARLY_CLOSES)."""
    exc = EARLY_CLOSES[reason]()
    return JsonResponse({"ok": False, "code": exc.code, "error": str(exc), "state": state,
                         "close_reason": reason, "deadline": deadline,
                         "server_now": timezone.now().isoformat()}, status=exc.status)


def _state(request, pk: int):
    if not request.user.is_authenticated:
        return _logged_out()
    exam = _page_exam(request, pk)
    attempt = _removed_attempt(request, pk) if exam is None else _own_attempt(request, exam)
    if attempt is None:
        raise Http404
    clock.fill(attempt)
    if attempt.close_reason in EARLY_CLOSES:
        return _closed_early_state(attempt.close_reason, attempt.state, attempt.deadline.isoformat())
    return JsonResponse({"state": attempt.state, "deadline": attempt.deadline.isoformat(),
                         "server_now": timezone.now().isoformat(),
                         "last_saved_at": attempt.last_saved_at.isoformat() if attempt.last_saved_at else None})


@login_required
def submit(request, pk: int):
    """GET: the summary (unanswered items) and a confirm button. POST: submit the exam."""
    exam = _page_exam(request, pk)
    if exam is None:
        return _outside(request, pk)
    attempt = _own_attempt(request, exam)
    if request.method == "POST":
        try:
            submit_attempt(attempt.pk, request.user)
        except ExamError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _("Your exam is submitted."))
        return redirect("exams:exam", pk=exam.pk)
    if not attempt.is_open:
        return redirect("exams:exam", pk=exam.pk)
    la = lang()
    rows = [_item_row(exam, i, la, False) for i in attempt.items.all()]
    return render(request, "exams/submit.html", {
        "exam": exam, "attempt": attempt, "unanswered": [r for r in rows if not r["answered"]], "rows": rows})


@login_required
def result(request, pk: int):
    """The student's own result, with keys and worked solutions, once the results are visible to
    students (exams.release: released, and no attempt of the exam still running)."""
    exam = _page_exam(request, pk)
    if exam is None:
        return _outside(request, pk)
    attempt = _own_attempt(request, exam)
    if attempt.is_open:
        return redirect("exams:attempt", pk=exam.pk)
    release = release_state(exam)
    if release.held:  # released, but others still answer the same questions: the exam page says until when
        return redirect("exams:exam", pk=exam.pk)
    if not release.visible:  # the exam page says when results come out
        messages.info(request, _("Your result is not released yet."))
        return redirect("exams:exam", pk=exam.pk)
    la = lang()
    rows = [_item_row(exam, i, la, True) for i in attempt.items.all()]
    for r in rows:
        if r["kind"] == "kernel":
            # Released: every verdict shows (the exam promised them "with the results"); the link to
            # a submission's page only where the item's feedback was the full result.
            r["submissions"] = submission_rows(r["item"])
            r["show_full"] = zone_feedback(exam, r["item"]) == Feedback.FULL
    return render(request, "exams/result.html", {"exam": exam, "attempt": attempt, "rows": rows, "staff_view": False})

