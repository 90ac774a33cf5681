"""A student's attempt: start it, autosave its answers, submit it, close it at the deadline, submit
a kernel for one of its items; and what staff change in one: more time, a fresh variant of a question."""
from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Mapping

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.timezones import when
from exams.core.draw import DrawError
from exams.core.kernel_state import item_feedback, kernel_state

from .. import clock, drawing
from ..errors import ExamError
from ..models import AttemptEvent, AttemptState, CloseReason, EventKind, Exam, ExamAttempt, ExamItem
from .events import log_event
from .grading import grade_attempt, kernel_outcomes
from .passwords import check_password
from .scheduling import deadline_for

log = logging.getLogger(__name__)
MAX_ANSWER_CHARS = 200  # per field, as practice's parser accepts
MAX_SOURCE_DRAFT_CHARS = 64 * 1024


def start_attempt(exam: Exam, user, *, password: str = "", accept_honour_code: bool = False,
                  now: datetime | None = None) -> ExamAttempt:
    """The student's attempt, created now if they have none: every item drawn and stored in full (the
    draw stored ahead by exams.drawing when it is current, else drawn now: the same items either way).

    Idempotent: pressing Start again (another tab, another device) returns the same attempt.
    Raises ExamError: before the window opens, after it closes, a wrong password or too many of them
    (exams.actions.passwords), the honour code not accepted. Precondition: the caller checked that
    `user` is a student of the exam's course.
    """
    now = now or timezone.now()
    facts = drawing.start_facts(exam, user)
    if facts.attempt_id is not None:
        return refresh(ExamAttempt.objects.get(pk=facts.attempt_id), now)
    opens, closes, extra = facts.window
    if now < opens:
        raise ExamError(_("This exam has not opened yet."), code="not_open", status=403)
    if now >= closes:
        raise ExamError(_("This exam has closed."), code="closed", status=403)
    check_password(exam, user, password, now)  # a limit on tries, then a constant-time compare
    if exam.honour_code and not accept_honour_code:
        raise ExamError(_("Accept the honour code to start."), code="honour_code")
    try:
        items = drawing.current_items(exam, facts) or drawing.draw_items(exam, user.pk)
    except DrawError as exc:
        log.error("exam %s: cannot draw for user %s: %s", exam.pk, user.pk, exc)
        raise ExamError(_("This exam cannot be started now: a problem of it is not available. Tell your instructor."),
                        status=503) from None
    try:
        with transaction.atomic():
            attempt = ExamAttempt.objects.create(
                exam=exam, user=user, started_at=now, deadline=deadline_for(exam, user, now, (opens, closes, extra)),
                max_total=sum(float(i["points"]) for i in items))
            ExamItem.objects.bulk_create([
                ExamItem(attempt=attempt, key=i["key"], number=i["number"], kind=i["kind"], data=i,
                         max_points=float(i["points"])) for i in items])
            log_event(attempt, EventKind.STARTED, by=user)
    except IntegrityError:  # a second request of the same student created it first
        return ExamAttempt.objects.get(exam=exam, user=user)
    return attempt


def in_progress(now: datetime, prefix: str = "") -> Q:
    """The rule for an attempt being taken at `now`, as a filter: open (started, not submitted or
    closed) and before its deadline (which already holds the student's window, deadline_for). An
    open attempt past its deadline is not in progress: refresh() closes it at its next access.
    `prefix`: the path to the attempt from the model filtered ("attempt__" for its items)."""
    return Q(**{f"{prefix}state": AttemptState.OPEN, f"{prefix}deadline__gt": now})


def refresh(attempt: ExamAttempt, now: datetime | None = None) -> ExamAttempt:
    """Close the attempt if its deadline has passed (lazy close on every access); returns it."""
    now = now or timezone.now()
    if attempt.is_open and now >= attempt.deadline:
        close_attempt(attempt.pk, AttemptState.CLOSED, now=now)
        attempt.refresh_from_db()
    return attempt


def removed_error() -> ExamError:
    """The answer to a student's save or clock poll once their attempt was closed because staff removed
    them from the course (close_reason "removed"): code "removed", 409 as for a close at the deadline, so
    that the attempt page stops its clock and its retries and shows this sentence (static/js/exam.js)."""
    return ExamError(_("Your attempt was closed when you were removed from the course; everything you saved "
                       "before then counts."), code="removed", status=409)


def _clean_answers(item: ExamItem, raw, field_names=None) -> dict:
    """The answer to store for `item` from the JSON sent: known fields only (others are dropped), as text.
    A field's value is text, a number (stored as its text) or null (""); anything else (a list, an
    object, true/false) is refused with ExamError (code bad_answer), nothing stored. `field_names`:
    the question's field names when the caller read them without the item's data."""
    if not isinstance(raw, Mapping):
        raise ExamError(_("An answer must be a set of fields."), code="bad_answer")
    if item.kind == "kernel":
        source = raw.get("source", "")
        if not isinstance(source, str) or len(source) > MAX_SOURCE_DRAFT_CHARS:
            raise ExamError(_("The kernel draft is too long."), code="bad_answer")
        return {"source": source}
    names = set(field_names) if field_names is not None else {f["name"] for f in item.data["question"]["fields"]}
    clean = {}
    for name, value in raw.items():
        if name not in names:
            continue
        if value is not None and (isinstance(value, bool) or not isinstance(value, (str, int, float))):
            raise ExamError(_("An answer field must be text."), code="bad_answer")
        text = "" if value is None else str(value)
        if len(text) > MAX_ANSWER_CHARS:
            raise ExamError(_("An answer is longer than %(n)d characters.") % {"n": MAX_ANSWER_CHARS}, code="bad_answer")
        clean[name] = text
    return clean


# A refused late save is logged as a summary, at most once a minute per attempt: the keys come from
# the request as sent (a crafted one posted 50 keys of 5,000 characters, 20 times: 5 MB of events).
LATE_EVENT_KEYS = 3  # key names kept in the event
LATE_EVENT_KEY_CHARS = 24  # each cut to this many characters (an item's key has at most 20)
LATE_EVENT_EVERY = timedelta(minutes=1)


def late_save_summary(answers: Mapping) -> dict:
    """What a late save's event stores: {"slots": the first LATE_EVENT_KEYS keys (sorted, each cut to
    LATE_EVENT_KEY_CHARS characters, "…" marking a cut), "keys": how many keys the save had}."""
    keys = sorted(str(k) for k in answers)
    cut = [k if len(k) <= LATE_EVENT_KEY_CHARS else k[:LATE_EVENT_KEY_CHARS - 1] + "…" for k in keys[:LATE_EVENT_KEYS]]
    return {"slots": cut, "keys": len(keys)}


def log_late_save(attempt: ExamAttempt, user, answers: Mapping, now: datetime) -> bool:
    """Log a refused late save on the attempt's timeline (its summary, late_save_summary), unless one
    was logged in the last LATE_EVENT_EVERY. Returns whether it logged. Precondition: the attempt's row
    is locked (save_answers' FOR UPDATE), so two saves cannot both find none."""
    recent = AttemptEvent.objects.filter(attempt=attempt, kind=EventKind.LATE_SAVE, at__gt=now - LATE_EVENT_EVERY)
    if recent.exists():
        return False
    log_event(attempt, EventKind.LATE_SAVE, by=user, **late_save_summary(answers))
    return True


def save_answers(attempt_id: int, user, answers: Mapping[str, Mapping],
                 now: datetime | None = None) -> tuple[datetime, datetime]:
    """Autosave: store the given items' answers ({item key: {field: text}}); returns (the time saved,
    the attempt's deadline, which staff may have moved).

    Only the listed items change; an item's answer is replaced whole. Raises ExamError (409) after
    the deadline or once submitted: nothing is stored then, and the refusal is logged (a summary, at
    most once a minute: log_late_save). Precondition:
    the attempt is `user`'s own (views check; this checks again).
    """
    now = now or timezone.now()
    with transaction.atomic():
        attempt = ExamAttempt.objects.select_for_update().get(pk=attempt_id, user=user)
        if not attempt.is_open or now >= attempt.deadline:
            log_late_save(attempt, user, answers, now)
            late = attempt.is_open
        else:
            late = None
            items = {i.key: i for i in attempt.items.filter(key__in=list(answers))}
            unknown = set(answers) - set(items)
            if unknown:
                raise ExamError(_("This attempt has no question %(key)s.") % {"key": sorted(unknown)[0]},
                                code="bad_item")
            changed = []
            for key, raw in answers.items():
                item = items[key]
                item.answer, item.saved_at = _clean_answers(item, raw), now
                changed.append(item)
            ExamItem.objects.bulk_update(changed, ["answer", "saved_at"])
            attempt.saves += 1
            attempt.last_saved_at = now
            attempt.save(update_fields=["saves", "last_saved_at"])
            log_event(attempt, EventKind.SAVED, by=user, slots=sorted(answers))
    if late is not None:
        if late:
            close_attempt(attempt_id, AttemptState.CLOSED, now=now)
        elif attempt.close_reason == CloseReason.REMOVED:
            raise removed_error()
        elif attempt.close_reason == CloseReason.STAFF:
            raise ExamError(_("The course staff ended your attempt: this answer was not saved. Everything saved before "
                              "then counts."), code="ended", status=409)
        elif attempt.state == AttemptState.SUBMITTED:
            raise ExamError(_("You have submitted this exam: answers can no longer change, and this one was not "
                              "saved. What you submitted counts."), code="submitted", status=409)
        raise ExamError(_("Time is up: the exam closed at %(deadline)s, and this answer was not saved. "
                          "Everything saved before then counts.") % {"deadline": when(attempt.deadline)},
                        code="closed", status=409)
    return now, attempt.deadline


def autosave(exam_id: int, user, answers: Mapping[str, Mapping], now: datetime | None = None
             ) -> tuple[datetime, datetime] | None:
    """The autosave of the attempt page: save_answers for `user`'s attempt at exam `exam_id`, in
    the fewest statements (an exam's hot path: every student, every few seconds).

    One UPDATE both checks that the attempt is open and before its deadline and locks it (as
    save_answers' SELECT ... FOR UPDATE does, so a close or submit waits for it); the items are read
    without their stored variant (only their field names). Returns (saved at, deadline), or None
    when the student has no attempt or is no longer a member of the exam's course. Anything but a plain save in time (late, submitted) is
    save_answers' slow path, with its messages and its log. Raises ExamError as save_answers does.
    """
    from django.db.models import F

    from ..access import is_member_of_exam_course

    now = now or timezone.now()
    if not is_member_of_exam_course(user, exam_id):
        return None  # removed from the course: as for a student with no attempt (the page is a 404 too)
    with transaction.atomic():
        mine = ExamAttempt.objects.filter(exam_id=exam_id, user=user)
        if mine.filter(state=AttemptState.OPEN, deadline__gt=now).update(saves=F("saves") + 1, last_saved_at=now):
            rows = list(ExamItem.objects.filter(attempt__exam_id=exam_id, attempt__user=user, key__in=list(answers))
                        .annotate(field_list=F("data__question__fields"), attempt_deadline=F("attempt__deadline"))
                        .only("pk", "key", "kind", "attempt_id"))
            items = {i.key: i for i in rows}
            unknown = set(answers) - set(items)
            if unknown:
                raise ExamError(_("This attempt has no question %(key)s.") % {"key": sorted(unknown)[0]},
                                code="bad_item")
            for key, raw in answers.items():
                item = items[key]
                names = [f["name"] for f in item.field_list or []]
                ExamItem.objects.filter(pk=item.pk).update(answer=_clean_answers(item, raw, names), saved_at=now)
            if rows:
                AttemptEvent.objects.create(attempt_id=rows[0].attempt_id, kind=EventKind.SAVED, by=user,
                                            data={"slots": sorted(answers)})
                return now, rows[0].attempt_deadline
            # Nothing listed (an empty save): the deadline still answers it.
            return now, mine.values_list("deadline", flat=True).get()
    attempt_id = ExamAttempt.objects.filter(exam_id=exam_id, user=user).values_list("pk", flat=True).first()
    if attempt_id is None:
        return None
    return save_answers(attempt_id, user, answers, now=now)


def submit_attempt(attempt_id: int, user, now: datetime | None = None) -> ExamAttempt:
    """The student submits: the attempt is closed and graded with what was saved. Refused (409) after the deadline
    (the server closed it then, with the same answers)."""
    now = now or timezone.now()
    attempt = ExamAttempt.objects.get(pk=attempt_id, user=user)
    if attempt.is_open and now >= attempt.deadline:
        refresh(attempt, now)
        raise ExamError(_("Time is up: the exam was closed at its deadline with your saved answers."),
                        code="closed", status=409)
    return close_attempt(attempt_id, AttemptState.SUBMITTED, by=user, now=now)


def close_attempt(attempt_id: int, state: AttemptState, by=None, now: datetime | None = None,
                  reason: str = "") -> ExamAttempt:
    """End an open attempt (SUBMITTED by the student, CLOSED at the deadline or earlier for `reason`)
    and grade it. Idempotent. `reason` ("" or a CloseReason: "removed", the student left the course; "staff",
    staff ended it: end_attempt)
    is stored on the attempt (`close_reason`, which names its state) and logged with the event."""
    now = now or timezone.now()
    with transaction.atomic():
        attempt = ExamAttempt.objects.select_for_update().get(pk=attempt_id)
        if not attempt.is_open:
            return attempt
        attempt.state = state
        attempt.ended_at = min(now, attempt.deadline) if state == AttemptState.CLOSED else now
        attempt.close_reason = CloseReason(reason) if reason and state == AttemptState.CLOSED else ""
        attempt.save(update_fields=["state", "ended_at", "close_reason"])
        clock.changed(attempt.pk)
        log_event(attempt, EventKind.SUBMITTED if state == AttemptState.SUBMITTED else EventKind.CLOSED, by=by,
                  **({"reason": reason} if reason else {}))
        grade_attempt(attempt)
    return attempt


def end_attempt(attempt_id: int, by, now: datetime | None = None) -> ExamAttempt:
    """Staff end one student's attempt now (a student caught cheating, an exam that must stop): CLOSED with
    close_reason "staff", graded with what was saved, the student's pages and the site open to them at their
    next request (exam mode ends with it). Raises ExamError (409) once the attempt has ended. An extension
    re-opens it, as any closed attempt (extend_refusal)."""
    if not ExamAttempt.objects.filter(in_progress(now or timezone.now()), pk=attempt_id).exists():
        raise ExamError(_("This attempt has already ended."), code="ended", status=409)
    return close_attempt(attempt_id, AttemptState.CLOSED, by=by, now=now, reason=CloseReason.STAFF)


def end_all_attempts(exam: Exam, by, now: datetime | None = None) -> list[ExamAttempt]:
    """Staff end every attempt of `exam` still running at `now` (an exam that must stop for everyone): each as
    end_attempt does. Students who have not started can still start while the window is open: close the
    window too (the exam's "closes at") to stop that. Returns the attempts ended."""
    now = now or timezone.now()
    running = ExamAttempt.objects.filter(in_progress(now), exam=exam).values_list("pk", flat=True)
    return [close_attempt(pk, AttemptState.CLOSED, by=by, now=now, reason=CloseReason.STAFF) for pk in list(running)]


def close_for_removed_member(course, user, by, now: datetime | None = None) -> list[ExamAttempt]:
    """Close every attempt `user` has open at an exam of `course`, because `by` removed them from the
    course: each is graded with the answers saved so far, and its timeline says why (reason
    "removed"). Returns the attempts closed. Precondition: the membership is being removed (courses.actions)."""
    from ..services import member_attempts_in_progress

    now = now or timezone.now()
    return [close_attempt(a.pk, AttemptState.CLOSED, by=by, now=now, reason="removed")
            for a in member_attempts_in_progress(course, user, now)]


def close_expired(now: datetime | None = None) -> int:
    """Close every open attempt whose deadline has passed (the periodic sweep). Returns how many."""
    now = now or timezone.now()
    ids = list(ExamAttempt.objects.filter(state=AttemptState.OPEN, deadline__lte=now).values_list("pk", flat=True))
    for pk in ids:
        close_attempt(pk, AttemptState.CLOSED, now=now)
    return len(ids)


def submit_kernel(item: ExamItem, user, source: str, choice=None, now: datetime | None = None):
    """Submit a kernel for an exam item through grader's write path, on the exam queue, for the
    package version stored in the item. Raises ExamError after the deadline, with no attempts left or
    once the item is solved where the student has been told so (exams.core.kernel_state), and grader's BadRequestError/RateLimitError for a source that cannot be graded (no attempt used)."""
    from grader import actions as grader_actions
    from problems.models import ProblemVersion

    now = now or timezone.now()
    attempt = refresh(item.attempt, now)
    if attempt.user_id != user.pk or item.kind != "kernel":
        raise ExamError(_("Not found."), status=404)
    if not attempt.is_open:
        if attempt.state == AttemptState.SUBMITTED:
            raise ExamError(_("You have submitted this exam: this kernel was not submitted. What you submitted "
                              "counts."), code="submitted", status=409)
        raise ExamError(_("Time is up: the exam is closed, and this kernel was not submitted."), code="closed",
                        status=409)
    exam = attempt.exam
    state = kernel_state(item.data, kernel_outcomes(item), item_feedback(exam.spec, exam.feedback, item.data))
    if state.solved:
        # Only where the student has been told (feedback "verdict" or "full"): refusing one under
        # "none" would tell them. The best attempt counts, so a later one could not earn more.
        raise ExamError(_("This question is solved: your accepted attempt counts, and a later one could not earn "
                          "more."), code="solved", status=409)
    if state.attempts_left <= 0:
        raise ExamError(_("No attempts are left for this question."), code="no_attempts", status=409)
    version = ProblemVersion.objects.select_related("problem").get(pk=item.data["kernel"]["version_id"])
    submission = grader_actions.create_submission(user, version.problem, source, choice,
                                                  item.data["kernel"].get("variant") or {}, version=version,
                                                  exam_item=item)
    with transaction.atomic():
        ExamItem.objects.filter(pk=item.pk).update(answer={"source": source}, saved_at=now)
        log_event(attempt, EventKind.SUBMITTED_KERNEL, by=user, item=item.key, submission=submission.pk)
    return submission


def extend_refusal(attempt: ExamAttempt) -> ExamError | None:
    """Why staff cannot extend `attempt` now, or None when they can: refused once the student submitted it;
    while the student is not in the exam's course (removed from it, which closed the attempt): re-opening
    it would let an outsider answer, so staff re-add them first; and once students see the exam's results
    (exams.release.results_visible: the answer keys and worked solutions are out), since the attempt, closed
    by then, would re-open to be answered after them. The attempt's page offers the extension by this same
    rule (staff_views.attempt_detail); the monitor too (monitor_views)."""
    from ..access import is_member_of_exam_course
    from ..release import results_visible

    if attempt.state == AttemptState.SUBMITTED:
        return ExamError(_("The student has submitted; their attempt cannot be extended."))
    if not is_member_of_exam_course(attempt.user, attempt.exam_id):
        return ExamError(_("%(student)s is not in this course, so their attempt cannot be extended: add them to "
                           "the course again first, then extend their time.") % {"student": attempt.user.username},
                         code="not_in_course", status=409)
    if results_visible(attempt.exam):
        return ExamError(_("Students already see this exam's results and answer keys, so no attempt can be re-opened "
                           "or extended: it could be answered after the keys. To give more time anyway, hold the "
                           "results first (clear the exam's \"results released at\")."),
                         code="results_released", status=409)
    return None


def extend_attempt(attempt_id: int, minutes: int, by) -> ExamAttempt:
    """Give one student more time while the attempt runs (or re-open a closed one, which clears its
    close_reason). Raises ExamError for 0 or more than 1440 minutes, and where extend_refusal says why not."""
    if minutes <= 0 or minutes > 24 * 60:
        raise ExamError(_("Extend by 1 to 1440 minutes."))
    with transaction.atomic():
        attempt = ExamAttempt.objects.select_for_update().get(pk=attempt_id)
        if (refusal := extend_refusal(attempt)) is not None:
            raise refusal
        now = timezone.now()
        base = max(attempt.deadline, now) if attempt.state == AttemptState.CLOSED else attempt.deadline
        attempt.deadline = base + timedelta(minutes=minutes)
        fields = ["deadline"]
        if attempt.state == AttemptState.CLOSED:
            attempt.state, attempt.ended_at, attempt.close_reason = AttemptState.OPEN, None, ""
            fields += ["state", "ended_at", "close_reason"]
        attempt.save(update_fields=fields)
        clock.changed(attempt.pk)
        log_event(attempt, EventKind.EXTENDED, by=by, minutes=minutes, deadline=attempt.deadline.isoformat())
    return attempt
