"""The live monitor's core (exams.core.monitor): phases, time left, the age of the last autosave,
the counts, the order of the rows and when the page stops updating itself."""
from datetime import datetime, timedelta, timezone

from exams.core.monitor import AttemptFacts, Phase, age_parts, build_monitor, clock_text

NOW = datetime(2026, 12, 5, 11, 0, tzinfo=timezone.utc)


def facts(name, state="open", left_s=600, saved_s=None, grading=0, verdicts=None, attempt_id=1):
    return AttemptFacts(attempt_id, name, state, NOW - timedelta(minutes=20), NOW + timedelta(seconds=left_s),
                        None if state == "open" else NOW - timedelta(minutes=1),
                        NOW - timedelta(seconds=saved_s) if saved_s is not None else None, 4, 2, grading,
                        verdicts or {})


def test_phases_time_left_and_the_last_autosave():
    m = build_monitor([facts("ann", left_s=125, saved_s=12), facts("bo", left_s=-3), facts("cy", "submitted"),
                       facts("di", "closed")], ["zed", "eve"], NOW, NOW + timedelta(hours=1))
    by = {r.facts.username: r for r in m.rows}
    assert (by["ann"].phase, by["ann"].seconds_left, by["ann"].saved_ago_s) == (Phase.IN_PROGRESS, 125, 12)
    assert by["bo"].phase is Phase.TIME_UP and by["bo"].seconds_left is None  # closed at the next sweep
    assert by["cy"].phase is Phase.SUBMITTED and by["di"].phase is Phase.CLOSED and by["cy"].saved_ago_s is None
    assert (m.counts.not_started, m.counts.in_progress, m.counts.submitted, m.counts.closed) == (2, 2, 1, 1)
    assert m.not_started == ["eve", "zed"]


def test_rows_in_progress_first_least_time_left_first_then_the_ended_by_name():
    m = build_monitor([facts("zoe", "submitted"), facts("amy", left_s=900), facts("ben", left_s=60),
                       facts("cal", "closed"), facts("dan", left_s=-1)], [], NOW, NOW)
    assert [r.facts.username for r in m.rows] == ["dan", "ben", "amy", "cal", "zoe"]


def test_verdicts_in_a_fixed_order_and_only_those_that_occur():
    m = build_monitor([facts("ann", verdicts={"WRONG_ANSWER": 2, "ACCEPTED": 1, "COMPILE_ERROR": 0})], [], NOW, NOW)
    assert m.rows[0].verdicts == [("ACCEPTED", 1), ("WRONG_ANSWER", 2)]


def test_the_monitor_stops_updating_once_nothing_can_change():
    """While the window is open, or an attempt is open or a kernel is being graded, it updates itself."""
    ended = [facts("ann", "submitted"), facts("bo", "closed")]
    assert build_monitor(ended, [], NOW, NOW + timedelta(minutes=1)).live  # someone may still start
    assert not build_monitor(ended, ["eve"], NOW, NOW - timedelta(minutes=1)).live
    assert build_monitor([facts("ann", "submitted", grading=1)], [], NOW, NOW - timedelta(minutes=1)).live
    assert build_monitor([facts("ann", left_s=30)], [], NOW, NOW - timedelta(minutes=1)).live  # an extension


def test_clock_and_age_texts():
    assert clock_text(3498) == "0:58:18" and clock_text(43500) == "12:05:00" and clock_text(-5) == "0:00:00"
    assert age_parts(12) == (0, 0, 12) and age_parts(3905) == (1, 5, 5)


def test_an_attempt_closed_because_the_student_was_removed_has_its_own_phase_and_count():
    """It has ended (listed with the ended rows) but was not closed at the deadline: counted apart."""
    removed = AttemptFacts(2, "rex", "closed", NOW - timedelta(minutes=20), NOW + timedelta(minutes=10),
                           NOW - timedelta(minutes=2), None, 4, 1, 0, {}, close_reason="removed")
    m = build_monitor([removed, facts("di", "closed"), facts("ann")], [], NOW, NOW + timedelta(hours=1))
    by = {r.facts.username: r for r in m.rows}
    assert by["rex"].phase is Phase.REMOVED and by["rex"].ended and by["di"].phase is Phase.CLOSED
    assert (m.counts.in_progress, m.counts.closed, m.counts.removed) == (1, 1, 1)
    assert [r.facts.username for r in m.rows] == ["ann", "di", "rex"]
