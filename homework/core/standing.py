"""A student's standing on one item of a problem set, and the counts of a set's dashboard.

One rule for every page that tells where work on a set stands: the student's own set page
(homework.services.item_rows), the staff's dashboard (homework.dashboard), a question opened from a
set item (its badge and note) and the course page's "Open now" (due, and late work until when).
Work counts from the set's opening time to the moment it closes (the due date, or the late deadline
when late work counts), both ends included; a right answer (an ACCEPTED kernel, a right answer to a
question before its key was shown) by the due date solves the item, one after it but before the
close solves it late. Which work is counted at all (practice only: no exam work, no validation run,
no platform fault) is grader.access.counted_practice_q's rule.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from statistics import median

STUCK_ATTEMPTS = 5  # this many attempts at one item in the set's window without solving it: stuck


class ItemStatus(StrEnum):
    """A student's standing on one item of a problem set."""

    SOLVED = "solved"  # solved (ACCEPTED, or a correct answer) by the due date
    SOLVED_LATE = "solved_late"  # solved after the due date, while late work still counted
    TRIED = "tried"  # worked on in the set's window, not solved
    NOT_STARTED = "not_started"  # nothing in the set's window


class Phase(StrEnum):
    """Where a set's window stands at one moment."""

    NOT_OPEN = "not_open"  # before the opening time: nothing counts yet
    OPEN = "open"  # from the opening time to the due date: a right answer solves
    LATE = "late"  # after the due date, until the late deadline: a right answer solves late
    CLOSED = "closed"  # after the close: work is graded but counts for nothing


def closes_at(due_at: datetime, late_until: datetime | None, late_counts: bool) -> datetime:
    """When work stops counting: the late deadline when late work counts and it is after the due
    date, else the due date."""
    if late_counts and late_until is not None and late_until > due_at:
        return late_until
    return due_at


@dataclass(frozen=True)
class Window:
    """A set's window: work counts from `opens_at` to `closes_at` (both included); a right answer
    after `due_at` solves late. Aware datetimes."""

    opens_at: datetime
    due_at: datetime
    closes_at: datetime

    @property
    def late_until(self) -> datetime | None:
        """The late deadline when late work counts (after the due date), else None."""
        return self.closes_at if self.closes_at > self.due_at else None

    def counts(self, at: datetime) -> bool:
        """Whether work done at `at` counts for the set."""
        return self.opens_at <= at <= self.closes_at

    def phase(self, now: datetime) -> Phase:
        """Where the window stands at `now`."""
        if now < self.opens_at:
            return Phase.NOT_OPEN
        if now <= self.due_at:
            return Phase.OPEN
        return Phase.LATE if now <= self.closes_at else Phase.CLOSED

    def status(self, times_correct, times_any) -> ItemStatus:
        """The status from the times of every right answer and of every attempt (any order, any
        times: those outside the window are left out)."""
        solved = [t for t in times_correct if self.counts(t)]
        return classify(min(solved) if solved else None, any(self.counts(t) for t in times_any), self.due_at)


def classify(first_solved_at: datetime | None, tried: bool, due: datetime) -> ItemStatus:
    """The status from the first right answer in the set's window (from opening to close; None if
    none) and whether anything was tried in that window."""
    if first_solved_at is not None:
        return ItemStatus.SOLVED if first_solved_at <= due else ItemStatus.SOLVED_LATE
    return ItemStatus.TRIED if tried else ItemStatus.NOT_STARTED


@dataclass(frozen=True)
class Cell:
    """One student's work on one item, counted in the set's window."""

    status: ItemStatus
    attempts: int = 0  # submissions or answers from opening to close
    first_solved_at: datetime | None = None  # the first ACCEPTED (or right answer) in the window
    after_due: int = 0  # submissions or answers after the due date (counted or not)
    late_counted: int = 0  # of those, the ones before the late deadline (late work that counts)
    first_after_due: datetime | None = None


EMPTY = Cell(ItemStatus.NOT_STARTED)


def cell(attempts: int, first_solved_at, after_due: int, late_counted: int, first_after_due, due) -> Cell:
    """A Cell from one (student, item) group's counts (homework.dashboard's GROUP BY)."""
    return Cell(classify(first_solved_at, attempts > 0, due), attempts, first_solved_at, after_due, late_counted,
                first_after_due)


@dataclass(frozen=True)
class ItemCounts:
    """How many of the set's students stand where on one item."""

    solved: int = 0
    solved_late: int = 0
    tried: int = 0
    not_started: int = 0
    after_due: int = 0  # submissions or answers after the due date, by all students
    median_attempts: float | None = None  # attempts of the students who solved it (late or not)


def item_counts(column: list[Cell]) -> ItemCounts:
    """The counts of one item from its column of cells (one per student of the course)."""
    by = {s: 0 for s in ItemStatus}
    for c in column:
        by[c.status] += 1
    solved = [c.attempts for c in column if c.status in (ItemStatus.SOLVED, ItemStatus.SOLVED_LATE)]
    return ItemCounts(by[ItemStatus.SOLVED], by[ItemStatus.SOLVED_LATE], by[ItemStatus.TRIED],
                      by[ItemStatus.NOT_STARTED], sum(c.after_due for c in column),
                      median(solved) if solved else None)


def is_stuck(c: Cell) -> bool:
    """Many attempts in the window (STUCK_ATTEMPTS or more) and the item not solved."""
    return c.status is ItemStatus.TRIED and c.attempts >= STUCK_ATTEMPTS
