"""The live monitor of a running exam, for staff: each started attempt's progress (answered items, the
last autosave, time left, kernel submissions being graded and their verdicts), who has not started,
and the counts of each. Plain data in, dataclasses out; the clock (`now`) comes from the caller."""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from datetime import datetime
from typing import Mapping, Sequence

# The verdicts as the monitor lists them: the best first, the platform's fault last.
VERDICT_ORDER = ("ACCEPTED", "WRONG_ANSWER", "COMPILE_ERROR", "RUNTIME_ERROR", "TIME_LIMIT", "DEADLOCK",
                 "SYNC_ERROR", "MEMORY_ERROR", "INTERNAL_ERROR")


class Phase(enum.StrEnum):
    """Where a started attempt is, as the monitor shows it."""

    IN_PROGRESS = "in_progress"  # open, before its deadline
    TIME_UP = "time_up"  # open past its deadline: the server closes it at the next access or sweep
    SUBMITTED = "submitted"  # the student submitted
    CLOSED = "closed"  # the server closed it at its deadline
    REMOVED = "removed"  # closed early: staff removed the student from the course
    ENDED = "ended"  # closed early: staff ended the attempt


@dataclass(frozen=True)
class AttemptFacts:
    """One started attempt as the monitor's aggregate query reads it."""

    attempt_id: int
    username: str
    state: str  # exams.models.AttemptState's value: "open", "submitted" or "closed"
    started_at: datetime
    deadline: datetime
    ended_at: datetime | None
    last_saved_at: datetime | None  # the last autosave (None: nothing saved yet)
    items: int  # the attempt's items
    answered: int  # questions with a field filled in, kernel items with a submission
    grading: int  # kernel submissions not graded yet
    verdicts: Mapping[str, int] = field(default_factory=dict)  # graded kernel submissions per verdict
    close_reason: str = ""  # exams.models.CloseReason's value for an attempt closed early ("removed"), else ""


@dataclass(frozen=True)
class MonitorRow:
    facts: AttemptFacts
    phase: Phase
    seconds_left: int | None  # IN_PROGRESS: whole seconds to the deadline; else None
    saved_ago_s: int | None  # whole seconds since the last autosave; None when nothing was saved
    verdicts: list[tuple[str, int]]  # (verdict, how many), in VERDICT_ORDER, the ones that occur

    @property
    def ended(self) -> bool:
        return self.phase in (Phase.SUBMITTED, Phase.CLOSED, Phase.REMOVED, Phase.ENDED)


@dataclass(frozen=True)
class Counts:
    not_started: int
    in_progress: int  # IN_PROGRESS and TIME_UP
    submitted: int
    closed: int  # closed at the deadline
    removed: int = 0  # closed because the student was removed from the course
    ended: int = 0  # closed early by staff


@dataclass(frozen=True)
class Monitor:
    rows: list[MonitorRow]  # in progress first (least time left first), then the ended ones; by name within
    not_started: list[str]  # usernames of the course's students with no attempt, sorted
    counts: Counts
    live: bool  # something can still change: the exam's window is open, or an attempt is open or grading


def _phase(f: AttemptFacts, now: datetime) -> Phase:
    if f.state == "submitted":
        return Phase.SUBMITTED
    if f.state == "closed":
        return {"removed": Phase.REMOVED, "staff": Phase.ENDED}.get(f.close_reason, Phase.CLOSED)
    return Phase.IN_PROGRESS if now < f.deadline else Phase.TIME_UP


def _seconds(later: datetime, earlier: datetime) -> int:
    return max(0, int((later - earlier).total_seconds()))


def build_monitor(attempts: Sequence[AttemptFacts], not_started: Sequence[str], now: datetime,
                  window_closes: datetime) -> Monitor:
    """The monitor at `now` of an exam whose window closes at `window_closes` (the latest close of any
    student's window), from its started attempts and the usernames of the students with none."""
    rows = []
    for f in attempts:
        phase = _phase(f, now)
        rows.append(MonitorRow(
            f, phase, _seconds(f.deadline, now) if phase is Phase.IN_PROGRESS else None,
            _seconds(now, f.last_saved_at) if f.last_saved_at else None,
            [(v, f.verdicts[v]) for v in VERDICT_ORDER if f.verdicts.get(v)]))
    rows.sort(key=lambda r: (r.ended, r.seconds_left if r.seconds_left is not None else -1, r.facts.username))
    counts = Counts(len(not_started), sum(1 for r in rows if not r.ended),
                    sum(1 for r in rows if r.phase is Phase.SUBMITTED), sum(1 for r in rows if r.phase is Phase.CLOSED),
                    sum(1 for r in rows if r.phase is Phase.REMOVED), sum(1 for r in rows if r.phase is Phase.ENDED))
    live = now < window_closes or any(not r.ended or r.facts.grading for r in rows)
    return Monitor(rows, sorted(not_started), counts, live)


def clock_text(seconds: int) -> str:
    """Whole seconds as the exam's clock writes them: "0:58:18", "12:05:00"."""
    seconds = max(0, int(seconds))
    return f"{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"


def age_parts(seconds: int) -> tuple[int, int, int]:
    """(hours, minutes, seconds) of an age in whole seconds; the caller says "12 s ago" or "1 h 5 min ago"."""
    seconds = max(0, int(seconds))
    return seconds // 3600, seconds % 3600 // 60, seconds % 60
