"""An attempt's timeline as staff read it: each event with the questions it names as the student saw
them (their number and title on the student's paper, not the template's slot keys "z0.p1"), the
submission, time or totals it concerns, in the reader's language (templates/exams/_timeline.html).

Events store slot keys and ids (exams.actions.events.log_event); this reads them against the attempt's
items. A late save's keys come from the request as sent, so a key the attempt has no question for is
shown as such, quoted and cut short, never as if it were a question.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from .models import EventKind

MAX_UNKNOWN_KEY_CHARS = 24  # a foreign key from a crafted save is quoted this far
MAX_UNKNOWN_KEYS = 3


@dataclass(frozen=True)
class QuestionRef:
    """A question of the attempt as the student's paper names it."""

    number: int  # 1-based, its place on the student's paper
    title: str  # its title in the reader's language
    kernel: bool = False  # a kernel question (what is saved for it is a draft, never graded)


@dataclass
class TimelineRow:
    """One event, ready for the template: what happened (`label`), when, by whom, and what it concerns."""

    at: datetime
    kind: str  # an EventKind value
    label: str  # the event's name in the reader's language
    by: str = ""  # the staff member who did it ("" when the student or the server did)
    questions: list[QuestionRef] = field(default_factory=list)  # the attempt's questions it names, by number
    unknown_keys: list[str] = field(default_factory=list)  # keys of a save that name no question (quoted, cut)
    more_unknown: int = 0  # how many more keys of a save were left out (not stored, or past MAX_UNKNOWN_KEYS)
    submission_id: int | None = None  # a kernel submission it made
    submission_verdict: str = ""  # that submission's verdict now ("" while it is graded or when it is gone)
    detached: list[int] = field(default_factory=list)  # a reset: the submissions it took off the question
    minutes: int | None = None  # an extension: minutes added
    deadline: datetime | None = None  # an extension: the new deadline
    old_total: float | None = None  # a regrade: the total before
    new_total: float | None = None  # a regrade: the total after


def _cut(key: str) -> str:
    key = str(key)
    return key if len(key) <= MAX_UNKNOWN_KEY_CHARS else key[:MAX_UNKNOWN_KEY_CHARS - 1] + "…"


def item_titles(rows: list[dict]) -> dict[str, QuestionRef]:
    """{slot key: QuestionRef} from the attempt page's item rows (exams.views._item_row)."""
    out = {}
    for r in rows:
        title = r["q"]["title"] if r.get("q") else r.get("title", "")
        out[r["key"]] = QuestionRef(r["number"], title, r.get("kind") == "kernel")
    return out


def timeline(attempt, refs: dict[str, QuestionRef]) -> list[TimelineRow]:
    """The attempt's events, oldest first, as TimelineRows; `refs` names its questions (item_titles)."""
    from grader.models import Submission

    events = list(attempt.events.select_related("by"))
    ids = [e.data.get("submission") for e in events if isinstance(e.data.get("submission"), int)]
    verdicts = dict(Submission.objects.filter(pk__in=ids).values_list("pk", "verdict"))
    out = []
    for e in events:
        data = e.data if isinstance(e.data, dict) else {}
        row = TimelineRow(at=e.at, kind=e.kind, label=EventKind(e.kind).label if e.kind in EventKind.values else e.kind,
                          by=e.by.get_username() if e.by_id and e.by_id != attempt.user_id and e.by else "")
        keys = data.get("slots") if isinstance(data.get("slots"), list) else (
            [data["item"]] if isinstance(data.get("item"), str) else [])
        known = sorted({refs[k] for k in keys if isinstance(k, str) and k in refs}, key=lambda q: q.number)
        unknown = [_cut(k) for k in keys if not (isinstance(k, str) and k in refs)]
        row.questions, row.unknown_keys = known, unknown[:MAX_UNKNOWN_KEYS]
        if e.kind == EventKind.SAVED and known and any(q.kernel for q in known):
            # An autosave of a kernel's editor is a draft: it is not a submission and is never graded.
            row.label = _("Draft saved") if all(q.kernel for q in known) else _("Answers and a kernel draft saved")
        # A late save's event keeps a few of its keys and how many it had (exams.actions.attempts.late_save_summary).
        dropped = data["keys"] - len(keys) if isinstance(data.get("keys"), int) else 0
        if e.kind == EventKind.CLOSED and data.get("reason") == "removed":
            row.label = _("Closed: the student was removed from the course")
        elif e.kind == EventKind.CLOSED and data.get("reason") == "staff":
            row.label = _("Closed early by staff")
        row.more_unknown = max(0, len(unknown) - MAX_UNKNOWN_KEYS) + max(0, dropped)
        if isinstance(data.get("submission"), int):
            row.submission_id = data["submission"]
            row.submission_verdict = verdicts.get(row.submission_id) or ""
        old = data.get("old")
        if e.kind == EventKind.RESET and isinstance(old, dict):
            row.detached = [i for i in old.get("submissions") or [] if isinstance(i, int)]
        if e.kind == EventKind.EXTENDED:
            row.minutes = data.get("minutes") if isinstance(data.get("minutes"), int) else None
            row.deadline = parse_datetime(data["deadline"]) if isinstance(data.get("deadline"), str) else None
        if e.kind == EventKind.REGRADED and isinstance(data.get("old"), (int, float)):
            row.old_total, row.new_total = float(data["old"]), float(data.get("new") or 0)
        out.append(row)
    return out
