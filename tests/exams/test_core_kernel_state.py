"""What a student is told about a kernel item during the exam (exams.core.kernel_state): solved, the
points so far and the latest verdict as far as the feedback setting tells them; Submit offered or not."""
import pytest

from exams.core.kernel_state import FeedbackMode, item_feedback, kernel_state
from exams.core.scoring import KernelOutcome

from .test_core_scoring import k_item, ok, wa

ce = KernelOutcome("COMPILE_ERROR")
grading = KernelOutcome("")


def test_verdict_feedback_says_solved_with_the_accepted_attempts_points_and_offers_no_submit():
    """The tester's kernel was ACCEPTED on attempt 2 of 3 ([10, 7, 5]) and the page still offered Submit
    on "your last attempt". The best attempt counts and attempt points never grow, so a third could
    earn at most 5: the item is solved, 7 of 10 points, and takes no more submissions."""
    s = kernel_state(k_item(), [wa(), ok()], FeedbackMode.VERDICT)
    assert (s.solved, s.solved_on, s.points, s.points_at_least, s.max_points) == (True, 2, 7.0, False, 10.0)
    assert s.attempts_left == 1 and not s.can_submit and s.later_worth == 5.0
    assert s.latest_verdict == "ACCEPTED"


def test_verdict_feedback_tells_no_partial_credit():
    """Partial credit is the share of tests passed, which "verdict only" keeps back: a failed attempt's
    points are not told, and an accepted one's are "at least" where an earlier failed attempt was
    worth more (its partial credit may beat them)."""
    item = k_item(partial=True)
    assert kernel_state(item, [wa(3, 4)], FeedbackMode.VERDICT).points is None
    late = kernel_state(item, [wa(3, 4), ok()], FeedbackMode.VERDICT)
    assert (late.points, late.points_at_least) == (7.0, True)
    first = kernel_state(item, [ok()], FeedbackMode.VERDICT)
    assert (first.points, first.points_at_least) == (10.0, False)
    assert kernel_state(k_item(partial=False), [wa(3, 4)], FeedbackMode.VERDICT).points == 0.0


def test_full_feedback_tells_the_best_points_so_far():
    item = k_item(partial=True)
    assert kernel_state(item, [wa(3, 4)], FeedbackMode.FULL).points == 7.5
    s = kernel_state(item, [wa(3, 4), ok()], FeedbackMode.FULL)
    assert (s.solved, s.points, s.points_at_least, s.can_submit) == (True, 7.5, False, False)


def test_no_feedback_tells_nothing_of_verdicts_and_keeps_submit():
    """With "none" the student may not learn that an attempt was accepted, so nothing says it and
    Submit stays (a later attempt cannot lower the best one); a compile error is told in every mode."""
    s = kernel_state(k_item(), [wa(), ok()], FeedbackMode.NONE)
    assert (s.solved, s.points, s.latest_verdict, s.solved_on) == (None, None, None, None)
    assert s.can_submit and s.attempts_left == 1
    assert kernel_state(k_item(), [ok(), ce], FeedbackMode.NONE).latest_verdict == "COMPILE_ERROR"


def test_attempts_left_grading_and_a_closed_attempt():
    s = kernel_state(k_item(), [ce, wa(), grading], FeedbackMode.VERDICT)
    assert (s.attempts_left, s.grading, s.submitted, s.solved, s.latest_verdict) == (1, 1, 3, False, "WRONG_ANSWER")
    assert s.can_submit
    assert not kernel_state(k_item(), [], FeedbackMode.VERDICT, is_open=False).can_submit
    assert not kernel_state(k_item(), [wa(), wa(), wa()], FeedbackMode.VERDICT).can_submit


def test_an_acceptance_past_the_allowed_attempts_does_not_solve():
    s = kernel_state(k_item(), [wa(), wa(), wa(), ok()], FeedbackMode.VERDICT)
    assert s.solved is False and s.points == 0.0


@pytest.mark.parametrize("zone, exam, expected", [
    ({"feedback": "full"}, "none", FeedbackMode.FULL), ({}, "verdict", FeedbackMode.VERDICT),
    ({}, "loud", FeedbackMode.NONE)])
def test_an_items_feedback_is_its_zones_else_the_exams(zone, exam, expected):
    spec = {"zones": [{}, zone]}
    assert item_feedback(spec, exam, k_item()) is expected
