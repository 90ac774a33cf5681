"""exams.core.release: results show once released and no attempt can still be answered."""
from datetime import datetime, timedelta, timezone

from exams.core.release import held_after, results_release

NOW = datetime(2026, 12, 5, 4, 0, tzinfo=timezone.utc)


def test_released_with_nothing_running_is_visible():
    """A release time that has come, and every attempt ended: students see their results."""
    state = results_release(NOW - timedelta(minutes=1), [NOW - timedelta(seconds=1)], NOW)
    assert state.visible and not state.held and state.running == 0 and state.last_ends_at is None


def test_a_running_attempt_holds_released_results_until_its_deadline():
    """B's extension until 04:33 holds the results from every student until then, and no longer."""
    b, c = NOW + timedelta(minutes=33), NOW + timedelta(minutes=10)
    held = results_release(NOW - timedelta(minutes=1), [c, b], NOW)
    assert held.held and not held.visible and held.running == 2 and held.last_ends_at == b
    assert results_release(NOW - timedelta(minutes=1), [c, b], b).visible  # a deadline that has come has ended


def test_not_released_is_neither_visible_nor_held():
    for release_at in (None, NOW + timedelta(hours=1)):
        state = results_release(release_at, [NOW + timedelta(minutes=5)], NOW)
        assert not state.visible and not state.held


def test_held_after_counts_the_attempts_that_outlast_the_release_time():
    """The instructor's warning: only attempts still running at the release time hold the results."""
    ends = [NOW + timedelta(minutes=10), NOW + timedelta(minutes=40)]
    assert held_after(None, ends, NOW) is None
    assert held_after(NOW + timedelta(hours=1), ends, NOW) is None
    later = held_after(NOW + timedelta(minutes=20), ends, NOW)
    assert later.running == 1 and later.last_ends_at == ends[1]
    now = held_after(NOW - timedelta(minutes=5), ends, NOW)
    assert now.running == 2 and now.last_ends_at == ends[1]


def test_a_student_who_may_still_start_holds_released_results_until_their_window_closes():
    """Nobody is answering, but carol has not started and her window (an accommodation's, to 06:00) is open:
    the keys would reach her before she starts. The results wait for her window, then show."""
    window = NOW + timedelta(hours=2)
    held = results_release(NOW - timedelta(minutes=1), [], NOW, [window])
    assert held.held and not held.visible and held.waiting == 1 and held.running == 0 and held.last_ends_at == window
    assert results_release(NOW - timedelta(minutes=1), [], window, [window]).visible
    later = held_after(NOW + timedelta(minutes=30), [], NOW, [window, NOW + timedelta(minutes=10)])
    assert later.waiting == 1 and later.last_ends_at == window
