"""Middleware of the grader app: a user-safe error that escapes a page's view is answered with its own
HTTP status and headers (grader.core.errors), never as Django's 500.

Pages catch the errors they expect (a refused source shows the form again with the reason) and the API
answers every one itself (grader.api.error_response). Whatever else is a WarpDrillError reaches this
one place: a platform fault (PlatformError) is a 503 with Retry-After wherever it happens, a bad request
a 400, each with the headers it declares.
"""
from __future__ import annotations

from django.shortcuts import render
from django.utils.translation import gettext as _

from grader.core.errors import PlatformError, WarpDrillError, http_status_for


def error_text(exc: WarpDrillError) -> str:
    """What a page says about `exc`, in the active language: a platform fault's own text is for the
    worker's log (a sandbox's or compiler's words), so the page says only that the service failed and
    when to try again; any other user-safe error's message is shown as it is."""
    if isinstance(exc, PlatformError):
        return _("The grading service failed (a fault of the platform, not of your code). "
                 "Try again in %(seconds)d seconds.") % {"seconds": exc.RETRY_AFTER_S}
    return str(exc)


def error_page(request, exc: WarpDrillError):
    """The page answering `exc`: its status (http_status_for) and headers (exc.headers())."""
    response = render(request, "grader/error.html", {"error": error_text(exc)}, status=http_status_for(exc))
    for name, value in exc.headers().items():
        response[name] = value
    return response


class ErrorAnswerMiddleware:
    """Answer a WarpDrillError that a page's view raised with `error_page`; leave anything else to Django."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exc):
        """The error page for a WarpDrillError, else None (Django's own handling)."""
        return error_page(request, exc) if isinstance(exc, WarpDrillError) else None
