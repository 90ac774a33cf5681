"""ExamLockdownMiddleware: while a student's attempt is in progress in an exam that closes the rest of the
site (Exam.lockdown), every page outside that exam answers with a redirect to the attempt (a script: 403
JSON). exams.core.lockdown decides which routes stay open; exams.lockdown reads the lock and answers.

Cheap by construction: an open route (signing in, the language, the attempt's autosave and clock) is
decided from its name alone, before the session or the user is read; any other route costs one query
for a signed-in user (none for an anonymous one), kept on the request for the menu. A polled live row
(grader.live's 304s with no SQL) is checked after its view, only when the view did not answer 304.
"""
from __future__ import annotations

from exams.core.lockdown import Kind, allowed, route_of

from .lockdown import lock_for, refusal

_DEFERRED_ATTR = "_exam_lock_deferred"  # (route, kwargs) of a poll, checked after its view


class ExamLockdownMiddleware:
    """Close the site outside the exam to a student whose attempt is in progress (see the module)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        deferred = getattr(request, _DEFERRED_ATTR, None)
        if deferred is not None and response.status_code != 304:
            return self._check(request, *deferred) or response
        return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        """None (the view runs), or the refusal of a closed page. Needs request.resolver_match (set
        before process_view) and, for a checked route, the session and auth middleware before this."""
        match = request.resolver_match
        route = route_of(match.view_name if match is not None else "")
        if route.kind in (Kind.OPEN, Kind.MACHINERY, Kind.API):
            return None  # the API checks with its own user (grader.api: token or session)
        if route.poll:
            setattr(request, _DEFERRED_ATTR, (route, view_kwargs))
            return None
        return self._check(request, route, view_kwargs)

    @staticmethod
    def _check(request, route, kwargs):
        if not request.user.is_authenticated:
            return None
        submission_id = kwargs.get("pk") if route.kind is Kind.SUBMISSION else None
        lock = lock_for(request, submission_id=submission_id).lock
        if allowed(route, lock, kwargs):
            return None
        return refusal(request, lock.locking)
