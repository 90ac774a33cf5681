"""The page (or JSON answer) for a request that failed Django's CSRF check (settings.CSRF_FAILURE_VIEW).

A CSRF failure on WarpDrill almost always means the page was open for a long time or the session
changed under it (a log-in in another tab renews the token). The student needs to know that nothing
was saved and that a reload fixes it; the exam page's autosave needs a machine-readable code so that
it can tell this 403 apart from a refusal of the save itself.
"""
from django.http import JsonResponse
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

#: The `code` of the JSON answer; static/js/exam.js keys on it.
CSRF_CODE = "csrf"


def wants_json(request) -> bool:
    """True when the caller is a script (a JSON body or an Accept of JSON), not a page load."""
    return (request.content_type == "application/json"
            or "application/json" in request.headers.get("Accept", ""))


def csrf_failure(request, reason: str = ""):
    """403 for a failed CSRF check: {"ok": false, "code": "csrf", "error"} to a script, else a translated
    page in the site's layout. `reason` is Django's English diagnosis; it is not shown (it says nothing a
    student can act on) but the page keeps it in an HTML comment for whoever reads the source."""
    message = _("This page was open for a long time, or your session changed (for example you logged in again "
                "in another tab), so this request was refused and nothing was saved. Reload the page and try again.")
    if wants_json(request):
        return JsonResponse({"ok": False, "code": CSRF_CODE, "error": message}, status=403)
    # Back to the page the form was on (a POST-only URL would answer a reload with 405).
    back = request.headers.get("Referer", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure()):
        back = "/"
    return render(request, "403_csrf.html", {"message": message, "reason": reason, "back": back}, status=403)
