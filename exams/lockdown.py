"""Exam mode, the shell around exams.core.lockdown: read whether a student's attempt in progress closes
the rest of the site (one query, kept on the request), answer a closed page, and tell the site menu.

The middleware (exams.middleware) and the JSON API (grader.api, through exams.services) ask here; the
policy itself (which routes stay open) is exams.core.lockdown's. The lock ends with the attempt: it is
read afresh on every request, so a submit, a close at the deadline or a close by staff opens the site
at the student's next request, and an extension keeps it closed.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib import messages
from django.db.models import Exists, OuterRef
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from exams.core.lockdown import InProgress, Lock

from .access import STAFF
from .actions.attempts import in_progress
from .errors import ExamError
from .models import Exam, ExamAttempt

NO_LOCK = Lock()
_CACHE_ATTR = "_exam_lock"  # the request's ReadLock, once read


@dataclass(frozen=True)
class ReadLock:
    """A lock as read for one request: the policy's Lock and what the menu says of the locking exam."""

    lock: Lock
    titles: dict  # exam id -> the Exam's (title, spec's title dict), to name it in the request's language

    def menu(self) -> LockedExam | None:
        """The locking exam as the site menu shows it, or None while the site is open."""
        locking = self.lock.locking
        if locking is None:
            return None
        title, spec_title = self.titles[locking.exam_id]
        # Exam.title_in's rule (a title typed by the instructor is theirs in every language), on an
        # unsaved Exam holding only what it reads.
        name = Exam(title=title, spec={"title": spec_title}).localized_title
        return LockedExam(locking.exam_id, name, reverse("exams:attempt", args=[locking.exam_id]), locking.deadline)


@dataclass(frozen=True)
class LockedExam:
    exam_id: int
    title: str  # in the request's language
    url: str  # the attempt page
    deadline: datetime


def read_lock(user, now: datetime | None = None, submission_id: int | None = None) -> ReadLock:
    """`user`'s attempts in progress at `now` (exams.actions.attempts.in_progress), soonest deadline
    first, leaving out those at a course where they are a TA or an instructor (staff testing their own
    exam are never locked); with `submission_id`, whether each attempt's items own that submission.
    One query. Superusers and anonymous users are never locked: no query."""
    if not getattr(user, "is_authenticated", False) or user.is_superuser:
        return ReadLock(NO_LOCK, {})
    from courses.models import Membership
    from grader.models import Submission

    now = now or timezone.now()
    as_staff = Membership.objects.filter(user_id=OuterRef("user_id"), course_id=OuterRef("exam__course_id"),
                                         role__in=STAFF)
    rows = ExamAttempt.objects.filter(in_progress(now), ~Exists(as_staff), user=user)
    if submission_id is not None:
        rows = rows.annotate(owns=Exists(Submission.objects.filter(pk=submission_id,
                                                                   exam_item__attempt_id=OuterRef("pk"))))
    fields = ["exam_id", "deadline", "exam__lockdown", "exam__title", "exam__spec__title"]
    found = list(rows.order_by("deadline", "pk").values_list(*fields, *(["owns"] if submission_id is not None else [])))
    lock = Lock(tuple(InProgress(r[0], r[1], r[2], bool(r[5]) if len(r) > 5 else False) for r in found))
    return ReadLock(lock, {r[0]: (r[3], r[4]) for r in found})


def lock_for(request, submission_id: int | None = None) -> ReadLock:
    """read_lock for the request's user, read once per request (the menu asks again for free).
    `submission_id`: the submission the request's route names (only the first reading takes it)."""
    cached = getattr(request, _CACHE_ATTR, None)
    if cached is None:
        cached = read_lock(request.user, submission_id=submission_id)
        setattr(request, _CACHE_ATTR, cached)
    return cached


def closed_message() -> str:
    return _("The rest of the site is closed while your exam is in progress.")


class ExamInProgressError(ExamError):
    """A request for a page or endpoint outside the exam whose attempt is in progress (403), with the
    attempt page's address for the client (`exam_url`)."""

    http_status = 403

    def __init__(self, exam_url: str):
        super().__init__(closed_message(), code="exam_in_progress", status=403)
        self.exam_url = exam_url

    def data(self) -> dict:
        return {"code": self.code, "exam_url": self.exam_url}


def _wants_json(request) -> bool:
    """A script's request: a JSON body, or JSON preferred to HTML in Accept ("*/*" prefers HTML)."""
    if request.content_type == "application/json":
        return True
    return request.get_preferred_type(["text/html", "application/json"]) == "application/json"


# The page a login lands on (settings.LOGIN_REDIRECT_URL): sent on to the attempt without the message, which
# would read as a refusal of something the student did not ask for.
LANDING = "problems:list"


def _say_closed(request) -> None:
    """Queue the "closed" message for the attempt page, once however many closed pages were asked for
    before it shows, and not for the landing page a login goes to."""
    match = getattr(request, "resolver_match", None)
    if match is not None and match.view_name == LANDING and not request.GET:
        return
    text = str(closed_message())
    storage = messages.get_messages(request)
    queued = any(str(m.message) == text for m in storage)
    storage.used = False  # looking at the queue does not consume it
    if not queued:
        messages.info(request, text)


def refusal(request, locking: InProgress) -> HttpResponse:
    """The answer to a closed page: a redirect to the attempt page with the message; 403 JSON for a
    script ({"ok": false, "error", "code": "exam_in_progress", "exam_url"}); 403 with HX-Redirect to
    the attempt for an htmx request (which htmx follows without swapping the page in)."""
    url = reverse("exams:attempt", args=[locking.exam_id])
    if _wants_json(request):
        error = ExamInProgressError(url)
        return JsonResponse({"ok": False, "error": str(error), **error.data()}, status=error.http_status)
    _say_closed(request)
    if getattr(request, "htmx", False):
        response = HttpResponse(status=403)
        response["HX-Redirect"] = url
        return response
    return redirect(url)


def api_refusal(user) -> ExamInProgressError | None:
    """The error the JSON API answers `user` with while their attempt closes the site (every API
    endpoint is outside the exam), else None. The API asks once it has authenticated the request, by
    token or session."""
    locking = read_lock(user).lock.locking
    return None if locking is None else ExamInProgressError(reverse("exams:attempt", args=[locking.exam_id]))
