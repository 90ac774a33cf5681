"""The regrade diff with re-judged kernel submissions (exams.core.regrade): new verdicts count where
they were graded again, a platform fault never lowers a score and shows as not re-judged, and the diff
says per student and item from what to what. No database."""
from exams.core.regrade import AttemptRecord, Rejudged, regrade, rejudged_outcomes
from exams.core.scoring import KernelOutcome
from grader.core.rejudge import RejudgeState

from .test_core_scoring import k_item, q_item, right_answer

WA = KernelOutcome("WRONG_ANSWER", 1, 2, 11)
AC = KernelOutcome("ACCEPTED", 2, 2, 12)


def rec(attempt_id, student, outcomes, old_points, rejudged, items=None):
    return AttemptRecord(attempt_id, student, items or [k_item()], {}, {"z1.p0": outcomes}, old_points, rejudged)


def test_a_fixed_package_turns_a_wrong_answer_into_accepted():
    """alice's first attempt (10 points possible) was WRONG_ANSWER and her second ACCEPTED (7): re-judged
    against v2 the first is ACCEPTED, so the item gets 10; the diff names the submission, both verdicts,
    both points, both totals and the version the new verdict came from."""
    rejudged = {11: Rejudged(RejudgeState.CHANGED, KernelOutcome("ACCEPTED", 2, 2), 2),
                12: Rejudged(RejudgeState.SAME, KernelOutcome("ACCEPTED", 2, 2), 2)}
    diff = regrade([rec(1, "alice", [WA, AC], {"z1.p0": 7.0}, rejudged)])
    [change] = diff.changes
    assert (change.student, change.old_total, change.new_total) == ("alice", 7.0, 10.0)
    [item] = change.items
    assert (item.key, item.old, item.new) == ("z1.p0", 7.0, 10.0)
    [v] = item.verdicts  # the SAME one with the same tests is not listed
    assert (v.submission_id, v.attempt, v.old, v.new, v.state, v.version) == (
        11, 1, "WRONG_ANSWER", "ACCEPTED", RejudgeState.CHANGED, 2)
    assert (v.old_tests, v.new_tests) == ((1, 2), (2, 2))
    assert diff.scores[1].total == 10.0


def test_internal_error_while_re_judging_never_lowers_a_score():
    """An ACCEPTED submission whose copy ended INTERNAL_ERROR keeps its verdict and its points; the
    diff lists it as not re-judged (so the instructor sees it) with no points change."""
    rejudged = {12: Rejudged(RejudgeState.NOT_REJUDGED, KernelOutcome("INTERNAL_ERROR"), 2)}
    diff = regrade([rec(1, "alice", [AC], {"z1.p0": 10.0}, rejudged)])
    [change] = diff.changes
    [item] = change.items
    assert (item.old, item.new, change.old_total, change.new_total) == (10.0, 10.0, 10.0, 10.0)
    assert not item.points_change and diff.points_changes == []
    [v] = item.verdicts
    assert (v.old, v.new, v.state, v.new_tests) == ("ACCEPTED", "", RejudgeState.NOT_REJUDGED, None)


def test_pending_copies_keep_the_old_outcome_and_are_not_listed():
    outcomes, shown = rejudged_outcomes([WA, AC], {11: Rejudged(RejudgeState.PENDING, None, 2)})
    assert outcomes == [WA, AC] and shown == ()
    assert regrade([rec(1, "alice", [WA, AC], {"z1.p0": 7.0}, {11: Rejudged(RejudgeState.PENDING)})]).changes == []


def test_same_verdict_with_other_tests_moves_partial_credit_and_is_listed():
    partial = k_item(partial=True)
    rejudged = {11: Rejudged(RejudgeState.SAME, KernelOutcome("WRONG_ANSWER", 0, 2), 1)}
    diff = regrade([rec(1, "bob", [WA], {"z1.p0": 5.0}, rejudged, items=[partial])])
    [item] = diff.changes[0].items
    assert (item.old, item.new) == (5.0, 0.0)
    [v] = item.verdicts
    assert (v.old, v.new, v.state, v.old_tests, v.new_tests) == (
        "WRONG_ANSWER", "WRONG_ANSWER", RejudgeState.SAME, (1, 2), (0, 2))


def test_a_verdict_change_worth_no_points_is_listed_and_others_are_unchanged():
    """WRONG_ANSWER -> MEMORY_ERROR scores 0 both ways but is listed; an attempt with nothing
    re-judged is counted unchanged; question items and totals still add up."""
    q = q_item()
    items = [q, k_item()]
    answers = {"z0.p0": right_answer(q)}
    rejudged = {11: Rejudged(RejudgeState.CHANGED, KernelOutcome("MEMORY_ERROR", 0, 2), 2)}
    recs = [AttemptRecord(1, "alice", items, answers, {"z1.p0": [WA]}, {"z0.p0": 4.0, "z1.p0": 0.0}, rejudged),
            AttemptRecord(2, "bob", items, answers, {"z1.p0": [AC]}, {"z0.p0": 4.0, "z1.p0": 10.0}, rejudged)]
    diff = regrade(recs)
    assert [c.student for c in diff.changes] == ["alice"] and diff.unchanged == 1
    [item] = diff.changes[0].items
    assert (item.old, item.new, [v.new for v in item.verdicts]) == (0.0, 0.0, ["MEMORY_ERROR"])
    assert diff.scores[2].total == 14.0


def test_fingerprint_follows_the_changes():
    base = {11: Rejudged(RejudgeState.CHANGED, KernelOutcome("ACCEPTED", 2, 2), 2)}
    one = regrade([rec(1, "alice", [WA], {"z1.p0": 0.0}, base)])
    same = regrade([rec(1, "alice", [WA], {"z1.p0": 0.0}, base)])
    other = regrade([rec(1, "alice", [WA], {"z1.p0": 0.0},
                         {11: Rejudged(RejudgeState.CHANGED, KernelOutcome("ACCEPTED", 2, 2), 3)})])
    assert one.fingerprint() == same.fingerprint() != other.fingerprint()
    data = one.to_dict()
    assert data["changes"][0]["items"][0]["verdicts"][0]["state"] == "changed"
