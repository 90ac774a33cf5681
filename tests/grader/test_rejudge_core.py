"""The shared rule of rejudges with a preview (grader.core.rejudge): what a submission's copy graded
again means, and how far a rejudge has come. No database."""
import pytest

from grader.core.rejudge import RejudgeState, applies, progress_of, rejudge_state


@pytest.mark.parametrize("old, graded, new, state", [
    ("WRONG_ANSWER", True, "ACCEPTED", RejudgeState.CHANGED),
    ("ACCEPTED", True, "WRONG_ANSWER", RejudgeState.CHANGED),
    ("WRONG_ANSWER", True, "WRONG_ANSWER", RejudgeState.SAME),
    ("WRONG_ANSWER", False, "", RejudgeState.PENDING),
    ("ACCEPTED", True, "INTERNAL_ERROR", RejudgeState.NOT_REJUDGED),  # a fault is no verdict
    ("INTERNAL_ERROR", True, "INTERNAL_ERROR", RejudgeState.SAME),
    ("INTERNAL_ERROR", True, "ACCEPTED", RejudgeState.CHANGED),
    ("ACCEPTED", None, "", RejudgeState.NOT_REJUDGED),  # no copy could be made
])
def test_rejudge_state(old, graded, new, state):
    assert rejudge_state(old, graded, new) is state


def test_only_verdicts_graded_again_apply():
    """SAME and CHANGED give the submission the copy's verdict; a pending copy or a fault never does."""
    assert [s for s in RejudgeState if applies(s)] == [RejudgeState.SAME, RejudgeState.CHANGED]


def test_progress_counts_each_state():
    progress = progress_of([RejudgeState.PENDING, RejudgeState.CHANGED, RejudgeState.SAME, "not_rejudged",
                            RejudgeState.PENDING])
    assert (progress.total, progress.pending, progress.changed, progress.same, progress.not_rejudged) == (5, 2, 1, 1, 1)
    assert progress.running and progress.done == 3 and progress.percent == 60
    finished = progress_of([RejudgeState.SAME])
    assert not finished.running and finished.percent == 100
    assert progress_of([]).percent == 100 and not progress_of([]).running
