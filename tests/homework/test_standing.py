"""homework.core.standing: one rule for a student's status on an item, and a column's counts (no database)."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from homework.core.standing import EMPTY, ItemStatus, classify, cell, is_stuck, item_counts

DUE = datetime(2026, 12, 1, 23, 59, tzinfo=timezone.utc)


def test_a_first_right_answer_by_the_due_date_solves_and_after_it_solves_late():
    assert classify(DUE, True, DUE) is ItemStatus.SOLVED  # at the due date itself: in time
    assert classify(DUE + timedelta(seconds=1), True, DUE) is ItemStatus.SOLVED_LATE
    assert classify(None, True, DUE) is ItemStatus.TRIED
    assert classify(None, False, DUE) is ItemStatus.NOT_STARTED


def test_a_column_counts_each_status_and_the_median_attempts_of_the_solvers():
    column = [cell(3, DUE - timedelta(hours=1), 0, 0, None, DUE), cell(1, DUE + timedelta(hours=1), 1, 1, DUE, DUE),
              cell(6, None, 2, 0, DUE, DUE), EMPTY]
    counts = item_counts(column)
    assert (counts.solved, counts.solved_late, counts.tried, counts.not_started) == (1, 1, 1, 1)
    assert counts.after_due == 3 and counts.median_attempts == 2
    assert [is_stuck(c) for c in column] == [False, False, True, False]
    assert item_counts([EMPTY]).median_attempts is None


def test_a_window_counts_from_its_opening_to_its_close_and_solves_late_after_the_due_date():
    """A set due DUE with late work until a day later: right answers before the opening or after the
    close count for nothing; one between the due date and the close solves late."""
    from homework.core.standing import Phase, Window, closes_at

    opens, late = DUE - timedelta(days=2), DUE + timedelta(days=1)
    window = Window(opens, DUE, closes_at(DUE, late, late_counts=True))
    assert window.late_until == late
    assert [window.phase(t) for t in (opens - timedelta(seconds=1), opens, DUE, DUE + timedelta(seconds=1), late,
                                      late + timedelta(seconds=1))] == [
        Phase.NOT_OPEN, Phase.OPEN, Phase.OPEN, Phase.LATE, Phase.LATE, Phase.CLOSED]
    assert window.status([DUE + timedelta(hours=1)], [DUE + timedelta(hours=1)]) is ItemStatus.SOLVED_LATE
    assert window.status([opens - timedelta(hours=1), late + timedelta(hours=1)],
                         [opens - timedelta(hours=1), DUE]) is ItemStatus.TRIED
    assert window.status([], [late + timedelta(hours=1)]) is ItemStatus.NOT_STARTED
    # No late work (or a late deadline not after the due date): the window closes at the due date.
    assert closes_at(DUE, late, late_counts=False) == DUE and closes_at(DUE, DUE, late_counts=True) == DUE
    strict = Window(opens, DUE, DUE)
    assert strict.late_until is None and strict.phase(DUE + timedelta(seconds=1)) is Phase.CLOSED
