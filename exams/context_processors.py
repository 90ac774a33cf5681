"""Template context of the exams app on every page (settings.TEMPLATES' context_processors)."""
from __future__ import annotations

from functools import partial


def _locked_exam(request):
    from .lockdown import lock_for

    if not request.user.is_authenticated:
        return None
    return lock_for(request).menu()


def exam_lock(request) -> dict:
    """`exam_lock`: the exam whose attempt closes the rest of the site to the reader (exams.lockdown.
    LockedExam: title, url of the attempt, deadline), or None. The site menu shows only it then. Read
    only where a template uses it (a callable), at most once per request (the middleware's reading)."""
    return {"exam_lock": partial(_locked_exam, request)}
