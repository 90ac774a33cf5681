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
