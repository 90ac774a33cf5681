"""Scores back to the LMS through Assignment and Grade Services (pylti1p3's AssignmentsGradesService).

A link to an exam sends each student's attempt total once the exam's results are released and shown to
students (exams.release: not while an attempt runs or a student may still start); a link to
a problem set sends the number of items solved (on time, or late while late work counts). Scores go to
the platform's line item for the link when its launch named one (Canvas, Moodle with a grade item),
else to a line item WarpDrill finds or creates by tag ("warpdrill-exam-<id>", "warpdrill-set-<id>").
Only students who launched from this platform have an LMS user id, so only they get scores.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django.utils import timezone
from django.utils.translation import gettext as _
from pylti1p3.assignments_grades import AssignmentsGradesService
from pylti1p3.exception import LtiException, LtiServiceException
from pylti1p3.grade import Grade
from pylti1p3.lineitem import LineItem
from pylti1p3.service_connector import ServiceConnector

from accounts.timezones import when
from courses.models import Membership, Role
from exams.release import release_state, results_visible

from .models import LtiUser, ResourceLink
from .toolconf import registration_of


class SyncError(Exception):
    """Scores could not be sent (no grade service, or the platform refused); the message says why."""


@dataclass(frozen=True)
class Score:
    """One student's score: the LMS user id (`sub`), points given and the maximum."""

    sub: str
    given: float
    maximum: float
    completed: bool = True


@dataclass
class SyncReport:
    sent: int = 0
    lineitem: str = ""
    skipped: list[str] = field(default_factory=list)  # why some students got nothing


def _subs(link: ResourceLink) -> dict[int, str]:
    """{user id: LMS user id} of the course's students who launched from the link's platform."""
    students = Membership.objects.filter(course=link.course, role=Role.STUDENT).values_list("user_id", flat=True)
    return dict(LtiUser.objects.filter(platform=link.platform, user_id__in=students).values_list("user_id", "sub"))


def scores(link: ResourceLink, now=None) -> tuple[list[Score], float, str]:
    """(scores, the line item's maximum, its label: the exam's or set's title in the course's default
    language) of a graded link; no scores for an exam whose results are not released yet."""
    from courses.language import course_language

    now = now or timezone.now()
    subs = _subs(link)
    lang = course_language(link.course)  # the LMS's students read the label: the course's language
    if link.exam_id:
        exam = link.exam
        attempts = list(exam.attempts.filter(user_id__in=subs, total__isnull=False).exclude(state="open"))
        maximum = max([a.max_total for a in attempts] or [0.0]) or 1.0
        label = exam.title_in(lang)
        if not results_visible(exam, now):  # not released, or held while a student may still answer
            return [], maximum, label
        return [Score(subs[a.user_id], float(a.total), float(a.max_total or maximum)) for a in attempts], maximum, label
    if link.problem_set_id:
        from django.contrib.auth.models import User

        from homework.services import ItemStatus, item_rows

        problem_set = link.problem_set
        maximum = float(problem_set.items.count()) or 1.0
        out = []
        for user in User.objects.filter(pk__in=subs):
            rows = item_rows(problem_set, user)
            solved = sum(1 for r in rows if r.status in (ItemStatus.SOLVED, ItemStatus.SOLVED_LATE))
            out.append(Score(subs[user.pk], float(solved), maximum, completed=solved == len(rows)))
        return out, maximum, problem_set.title_in(lang)
    return [], 1.0, ""


def sync_link(link: ResourceLink, requests_session=None, now=None) -> SyncReport:
    """Send `link`'s scores to its platform; returns what was sent. Records the time and outcome on the
    link. Raises SyncError when the link has no grade service or the platform refuses a call."""
    now = now or timezone.now()
    if not link.graded:
        raise SyncError(_("This LMS link does not take grades (it opens a course, or the LMS gave no score scope)."))
    if link.exam_id and (state := release_state(link.exam, now)).held:
        # The LMS shows students their scores: they wait with the results (exams.release), and the
        # release sweep sends them once nothing holds them (no time recorded: the link stays due).
        said = _("Not sent: the exam's results are held until every student's time ends (%(time)s); "
                 "the scores are sent then.") % {"time": when(state.last_ends_at)}
        _record(link, None, said)
        raise SyncError(said)
    items, maximum, label = scores(link, now)
    service = AssignmentsGradesService(ServiceConnector(registration_of(link.platform), requests_session), link.ags)
    report = SyncReport()
    try:
        lineitem = _lineitem(link, service, maximum, label)
        report.lineitem = lineitem.get_id() or ""
        for score in items:
            grade = (Grade().set_user_id(score.sub).set_score_given(score.given).set_score_maximum(score.maximum)
                     .set_timestamp(now.isoformat(timespec="milliseconds").replace("+00:00", "Z"))
                     .set_activity_progress("Completed" if score.completed else "InProgress")
                     .set_grading_progress("FullyGraded"))
            service.put_grade(grade, lineitem)
            report.sent += 1
    except LtiServiceException as exc:
        _record(link, None, _("refused by the LMS: %(error)s") % {"error": str(exc)[:300]})
        raise SyncError(_("The LMS refused the scores: %(error)s") % {"error": str(exc)[:300]}) from None
    except LtiException as exc:
        _record(link, None, str(exc)[:300])
        raise SyncError(str(exc)) from None
    _record(link, now, _("%(n)d scores sent") % {"n": report.sent}, lineitem=report.lineitem)
    return report


def _lineitem(link: ResourceLink, service: AssignmentsGradesService, maximum: float, label: str) -> LineItem:
    if link.lineitem_url:
        return LineItem({"id": link.lineitem_url, "scoreMaximum": maximum, "label": label})
    tag = f"warpdrill-exam-{link.exam_id}" if link.exam_id else f"warpdrill-set-{link.problem_set_id}"
    wanted = (LineItem().set_tag(tag).set_label(label or tag).set_score_maximum(maximum)
              .set_resource_id(tag).set_resource_link_id(link.resource_link_id))
    return service.find_or_create_lineitem(wanted, find_by="tag")


def _record(link: ResourceLink, now, report: str, lineitem: str = "") -> None:
    """Store the outcome; `now` None for a failure, which keeps the last good time (so the release
    sweep tries again)."""
    fields = {"last_sync_report": report[:500]}
    if now is not None:
        fields["last_synced_at"] = now
    if lineitem and not link.lineitem_url:
        fields["lineitem_url"] = lineitem[:500]
    ResourceLink.objects.filter(pk=link.pk).update(**fields)
    for name, value in fields.items():
        setattr(link, name, value)


def links_due_for_release(now=None):
    """Exam links whose results were released since their last sending (or never sent)."""
    from django.db.models import F, Q

    now = now or timezone.now()
    return (ResourceLink.objects.filter(exam__isnull=False, exam__results_release_at__lte=now, platform__is_active=True)
            .filter(Q(last_synced_at__isnull=True) | Q(last_synced_at__lt=F("exam__results_release_at")))
            .select_related("platform", "exam", "course"))
