"""Exam mode: which pages a student may open while an attempt of theirs is in progress in an exam that
closes the rest of the site (Exam.lockdown). Plain Python: the shell (exams/lockdown.py) reads the
attempts and the route, this decides.

A route is named as Django resolves it ("exams:attempt", "grader:submission", "login"); every route
is in one of the closed set of kinds below, and one not listed is CLOSED: a page added to the site
later is closed during an exam until someone decides otherwise here.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime
from typing import Mapping


class Kind(enum.Enum):
    """How a route is treated while the site is locked."""

    OPEN = "open"  # never locked, never checked: signing in and out, the language, the account page
    # The attempt page's autosave and clock: they answer for the requester's own attempt only, with no SQL
    # (exams.fastsave, exams.clock), so they are never checked.
    MACHINERY = "machinery"
    EXAM = "exam"  # a student page of the exam kwargs["pk"]: open for an exam whose attempt is in progress
    SUBMISSION = "submission"  # a submission's page: open for a submission of an attempt in progress
    API = "api"  # the JSON API: checked by the API view once it knows the user (a token's, or the session's)
    CLOSED = "closed"  # everything else


@dataclass(frozen=True)
class Route:
    kind: Kind
    # Polled by htmx with a conditional GET that the live cache answers 304 with no SQL before the
    # view reads the user (grader.live): checked after the view, only when it did not answer 304.
    poll: bool = False


OPEN = Route(Kind.OPEN)
CLOSED = Route(Kind.CLOSED)

# The allowlist. Static files (WhiteNoise) and /healthz, /readyz, /metrics (ops.middleware) are
# answered before any route is resolved, so they are never checked either.
ROUTES: dict[str, Route] = {
    # Signing in and out (an LTI launch is a sign-in: where it leads is checked in turn).
    "login": OPEN, "logout": OPEN, "lti:login": OPEN, "lti:launch": OPEN, "lti:jwks": OPEN,
    # The account page and the password pages it links to.
    "account": OPEN, "password_change": OPEN, "password_change_done": OPEN,
    "password_reset_confirm": OPEN, "password_reset_complete": OPEN,
    # The language switch (Django's set_language). The site mounts no JavaScript catalogue (jsi18n).
    "set_language": OPEN,
    # The attempt page's own requests, every few seconds (exams.clock, exams.fastsave).
    "exams:save": Route(Kind.MACHINERY), "exams:state": Route(Kind.MACHINERY),
    # The exam's student pages: its page, Start (Continue), the attempt, Submit, the kernel items
    # (editor and submission, the Submit row, each submission's live row), the result.
    "exams:exam": Route(Kind.EXAM), "exams:start": Route(Kind.EXAM), "exams:attempt": Route(Kind.EXAM),
    "exams:submit": Route(Kind.EXAM), "exams:kernel": Route(Kind.EXAM), "exams:kernel_state": Route(Kind.EXAM),
    "exams:kernel_live": Route(Kind.EXAM, poll=True), "exams:result": Route(Kind.EXAM),
    # A kernel item's submission page, linked from the item where the exam shows the full result.
    "grader:submission": Route(Kind.SUBMISSION), "grader:submission-writemap": Route(Kind.SUBMISSION),
    "grader:submission-live": Route(Kind.SUBMISSION, poll=True),
    # Closed, but polled: checked after the view (a page left open before the exam keeps its 304s).
    "playground:run-live": Route(Kind.CLOSED, poll=True),
}
API_NAMESPACE = "api"


def route_of(view_name: str) -> Route:
    """The route named `view_name` (ResolverMatch.view_name: "namespace:name", or for an unnamed
    route "namespace:dotted.path.of.view"): its entry in ROUTES, API for the JSON API's namespace,
    else CLOSED."""
    if view_name in ROUTES:
        return ROUTES[view_name]
    if view_name.split(":", 1)[0] == API_NAMESPACE and ":" in view_name:
        return Route(Kind.API)
    return CLOSED


@dataclass(frozen=True)
class InProgress:
    """One attempt of the student in progress (exams.actions.attempts.in_progress), taken as a student:
    an attempt of a course the user is staff of is never read."""

    exam_id: int
    deadline: datetime  # the attempt's deadline (aware)
    closes_site: bool  # its exam's Exam.lockdown
    owns_submission: bool = False  # the submission the request names answers one of this attempt's items


@dataclass(frozen=True)
class Lock:
    """What the lock check read for one user and request: their attempts in progress, soonest deadline first."""

    attempts: tuple[InProgress, ...] = ()

    @property
    def locking(self) -> InProgress | None:
        """The attempt that closes the site (the soonest to end, if several do), or None: the site is open."""
        return next((a for a in self.attempts if a.closes_site), None)

    @property
    def exam_ids(self) -> frozenset[int]:
        """The exams with an attempt in progress: their pages stay open, whichever of them locks."""
        return frozenset(a.exam_id for a in self.attempts)


def allowed(route: Route, lock: Lock, kwargs: Mapping) -> bool:
    """Whether a request for `route` (with the URL's `kwargs`) is served while `lock` holds. An API
    route is refused here: the API view asks with its own user (exams.lockdown.api_refusal)."""
    if lock.locking is None or route.kind in (Kind.OPEN, Kind.MACHINERY):
        return True
    if route.kind is Kind.EXAM:
        return kwargs.get("pk") in lock.exam_ids
    if route.kind is Kind.SUBMISSION:
        return any(a.owns_submission for a in lock.attempts)
    return False
