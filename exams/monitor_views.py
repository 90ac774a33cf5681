"""The live monitor of a running exam (staff): a page and the part of it that htmx fetches again every
few seconds. Each refresh is two aggregate queries (exams.monitor), whatever the number of students."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from exams.core.monitor import clock_text

from .access import require_staff
from .actions.attempts import end_all_attempts
from .monitor import ago_text, monitored_exam, read_monitor

POLL_S = 5  # seconds between two refreshes of the monitor


def _staff_exam(request, pk: int):
    exam = monitored_exam(pk)
    if exam is None:
        raise Http404
    require_staff(request.user, exam.course)
    return exam


def _context(exam) -> dict:
    now = timezone.now()
    monitor = read_monitor(exam, now)
    rows = [{"m": r, "f": r.facts,
             "left": clock_text(r.seconds_left) if r.seconds_left is not None else "",
             "ago": ago_text(r.saved_ago_s) if r.saved_ago_s is not None else ""} for r in monitor.rows]
    return {"exam": exam, "monitor": monitor, "rows": rows, "counts": monitor.counts, "now": now, "poll_s": POLL_S}


@login_required
@require_GET
def monitor(request, pk: int):
    """Who has started, how far each is, their time left and kernel verdicts; who has not started."""
    exam = _staff_exam(request, pk)
    return render(request, "exams/monitor.html", _context(exam))


@login_required
@require_POST
def end_all(request, pk: int):
    """End every running attempt of the exam now (exams.actions.attempts.end_all_attempts), once the form's box
    confirms it; back to the monitor with how many were ended."""
    exam = _staff_exam(request, pk)
    if request.POST.get("confirm") != "1":
        messages.error(request, _("Tick the box to confirm that every running attempt ends now."))
    else:
        ended = end_all_attempts(exam, request.user)
        if not ended:  # a stale page, or a second press: say so rather than "0 were ended"
            messages.info(request, _("No attempt was running: nothing was ended."))
            return redirect("exams:monitor", pk=exam.pk)
        messages.success(request, ngettext("%(n)d running attempt was ended; it is graded with its saved answers.",
                                           "%(n)d running attempts were ended; each is graded with its saved answers.",
                                           len(ended)) % {"n": len(ended)})
    return redirect("exams:monitor", pk=exam.pk)


@login_required
@require_GET
def monitor_live(request, pk: int):
    """The monitor's body, fetched again every POLL_S seconds while anything can still change."""
    exam = _staff_exam(request, pk)
    return render(request, "exams/_monitor.html", _context(exam))
