"""Staff's reset of one student's question: a fresh variant (a new seed, or the kernel's current version), the
saved answer cleared, the kernel's attempts given back; refused where the student could not answer it
(reset_refusal). Logged in the attempt's timeline."""
from __future__ import annotations

import logging

from django.db import transaction
from django.utils.translation import gettext as _

from exams.core.draw import DrawError, redraw_item
from grader import live

from ..catalogue import DbCatalogue
from ..errors import ExamError
from ..models import AttemptState, EventKind, ExamAttempt, ExamItem
from .events import log_event
from .grading import grade_attempt
from .scheduling import spec_of

log = logging.getLogger(__name__)


def reset_refusal(attempt: ExamAttempt) -> ExamError | None:
    """Why staff cannot reset a question of `attempt` now, or None when they can. Refused: while its student
    is not in the course, whatever the attempt's state (add them again first, as for an extension; a
    submitted attempt's reset changed a released score of a removed student); once back, while the attempt
    is still the one their removal closed (ExamAttempt.closed_for_removal: extend their time first, which
    re-opens it); and once the student submitted it, since a fresh variant could not be answered any more
    (no extension re-opens a submitted attempt) and would score nothing. The attempt's page offers the
    reset buttons by this same rule (staff_views.attempt_detail)."""
    from ..access import is_member_of_exam_course

    student = attempt.user.get_username()
    if not is_member_of_exam_course(attempt.user, attempt.exam_id):
        return ExamError(_("%(student)s is not in this course, so their questions cannot be reset: add them to the "
                           "course again first, then extend their time and reset the question.") % {"student": student},
                         code="not_in_course", status=409)
    if attempt.closed_for_removal:
        return ExamError(_("%(student)s's attempt was closed when they were removed from the course, so its questions "
                           "cannot be reset: extend their time first, which re-opens it.") % {"student": student},
                         code="removed", status=409)
    if attempt.state == AttemptState.SUBMITTED:
        return ExamError(_("%(student)s submitted this attempt, so a question reset now could not be answered and "
                           "would score nothing: their answers stand.") % {"student": student},
                         code="submitted", status=409)
    return None


def reset_item(item_id: int, by) -> ExamItem:
    """Give one student a fresh variant of one question: new seed (or the kernel's current version),
    saved answer cleared, kernel attempts reset (earlier submissions are detached). Logged.

    Raises ExamError, changing nothing: as reset_refusal says (the student not in the course, the attempt
    closed by their removal, or submitted: the rule the attempt's page offers the buttons by, so a crafted
    POST is refused as the page would be), or when no new variant can be drawn (the template or its problems
    changed since: "cannot_redraw")."""
    with transaction.atomic():
        item = ExamItem.objects.select_for_update().select_related("attempt__exam").get(pk=item_id)
        attempt = item.attempt
        refusal = reset_refusal(attempt)
        if refusal is not None:
            raise refusal
        others = [o.data for o in attempt.items.exclude(pk=item.pk)]  # a fresh variant repeats none of them
        try:
            new = redraw_item(spec_of(attempt.exam), item.data, attempt.exam.secret, attempt.user_id,
                              DbCatalogue(attempt.exam.course), attempt.exam.course.target_cc, others)
        except DrawError as exc:  # the template or its problems changed since the draw: nothing is changed
            log.warning("exam %s: cannot redraw item %s of attempt %s: %s", attempt.exam_id, item.key, attempt.pk, exc)
            raise ExamError(_("Question %(n)d cannot be drawn again: what it was drawn from is no longer in the exam's "
                              "template or the course. Nothing was changed.") % {"n": item.number},
                            code="cannot_redraw", status=409) from None
        old = {"generation": item.data.get("generation", 0),
               "seed": item.data.get("question", {}).get("seed"),
               "submissions": list(item.submissions.values_list("pk", flat=True))}
        item.submissions.update(exam_item=None)
        live.changed(*old["submissions"])
        item.data, item.answer, item.saved_at, item.points, item.status = new, {}, None, None, ""
        item.save(update_fields=["data", "answer", "saved_at", "points", "status"])
        log_event(attempt, EventKind.RESET, by=by, item=item.key, old=old)
        if not attempt.is_open:
            grade_attempt(attempt)
    return item
