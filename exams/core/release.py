"""When students see an exam's results (scores, answer keys, worked solutions, full kernel verdicts).

Two conditions, both needed: the release time has come, and no student can still answer the exam: no
attempt runs, and no student who has not started may still start (their window, the exam's or their
accommodation's own, is open). An instructor who releases while a student with extra time (an extension
or an accommodation) is still answering, or before a student with a later window has started, would
otherwise show the others the keys to the questions that student is yet to answer; the results wait,
held, until the last running attempt's deadline and the last open window's close.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Sequence


@dataclass(frozen=True)
class ResultsRelease:
    """What students may see of an exam's results at one moment (results_release)."""

    released: bool  # the exam's release time is set and has come
    running: int  # attempts still running: started, not ended, before their deadline
    last_ends_at: datetime | None  # the latest of those deadlines and of the waiting students' window closes
    waiting: int = 0  # students who have not started and whose window is still open

    @property
    def held(self) -> bool:
        """Released, but kept from students until the running attempts end and the open windows close."""
        return self.released and (self.running > 0 or self.waiting > 0)

    @property
    def visible(self) -> bool:
        """Students may see their results now."""
        return self.released and self.running == 0 and self.waiting == 0


def results_release(release_at: datetime | None, running_deadlines: Sequence[datetime], now: datetime,
                    unstarted_closes: Sequence[datetime] = ()) -> ResultsRelease:
    """The results' state at `now` (aware). `release_at`: the exam's release time (None: not released);
    `running_deadlines`: the deadline of every attempt still open (not submitted, not closed; its
    deadline includes extensions and accommodations); `unstarted_closes`: for each student who has not
    started, when their window closes (their accommodation's, else the exam's). A deadline or a close at
    or before `now` has ended."""
    deadlines = [d for d in running_deadlines if d > now]
    closes = [c for c in unstarted_closes if c > now]
    return ResultsRelease(released=release_at is not None and now >= release_at, running=len(deadlines),
                          last_ends_at=max(deadlines + closes, default=None), waiting=len(closes))


def held_after(release_at: datetime | None, running_deadlines: Sequence[datetime], now: datetime,
               unstarted_closes: Sequence[datetime] = ()) -> ResultsRelease | None:
    """For staff setting a release time: the running attempts and the open windows that end after
    `release_at` (a ResultsRelease of them, as results_release would count them at that time), or None
    when the release is not set or nothing outlasts it (students will see results at it)."""
    if release_at is None:
        return None
    state = results_release(release_at, running_deadlines, max(now, release_at), unstarted_closes)
    return state if state.held else None
