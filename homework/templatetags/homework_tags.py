"""The problem-set dashboard's students x items matrix, written in Python: at 500 students and a
dozen items it is 6,000 cells, and a template loop resolves several variables and filters per cell
(bench/dashboard_bench.py times the page)."""
from __future__ import annotations

from django import template
from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from accounts.core.times import zone_abbreviation
from homework.core.standing import ItemStatus

register = template.Library()

SYMBOLS = {ItemStatus.SOLVED: "✓", ItemStatus.SOLVED_LATE: "◷", ItemStatus.TRIED: "✗", ItemStatus.NOT_STARTED: "·"}
CSS = {ItemStatus.SOLVED: "c-solved", ItemStatus.SOLVED_LATE: "c-late", ItemStatus.TRIED: "c-tried",
       ItemStatus.NOT_STARTED: "c-none"}


@register.simple_tag
def set_matrix(d) -> str:
    """The matrix's <tbody>: a row per student of `d` (homework.dashboard.SetDashboard: the username and
    the student ID they gave), a cell per
    item: its status as a class (CSS) and a symbol, the attempts, and for a solved item the time of
    the first ACCEPTED (or right answer) in the active time zone as the cell's title. Kept short: 500
    students and 40 items are 20,000 cells."""
    solved_at = escape(_("first solved %(at)s"))
    zone = timezone.get_current_timezone()
    out = ["<tbody>"]
    ids = getattr(d, "student_ids", {})
    for username, row in d.rows:
        sid = ids.get(username)
        sid = f' <span class="muted small student-id">{escape(sid)}</span>' if sid else ""
        out.append(f'<tr><th scope="row">{escape(username)}{sid}</th>')
        for c in row:
            text = SYMBOLS[c.status] + (f" {c.attempts}" if c.attempts else "")
            if c.first_solved_at is not None:
                # "YYYY-MM-DD HH:MM KST", as the `when` filter writes it (accounts.core.times), without
                # strftime, which takes twice as long (12,000 solved cells).
                local = c.first_solved_at.astimezone(zone)
                at = solved_at % {"at": f"{local.isoformat(' ', 'minutes')[:16]} {zone_abbreviation(local)}"}
                out.append(f'<td class="{CSS[c.status]}" title="{at}">{text}</td>')
            else:
                out.append(f'<td class="{CSS[c.status]}">{text}</td>')
        out.append("</tr>")
    out.append("</tbody>")
    return mark_safe("".join(out))
