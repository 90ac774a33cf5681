"""Rejudging with a preview, the shared rule: what a submission graded again (a shadow copy, kept
apart from the real submission) says about it, and how far a rejudge has come.

Plain Python, used by both rejudges of the site: an author's rejudge of a problem's submissions
(authoring) and an exam's regrade of its kernel items (exams). Their shells keep, per submission,
the verdict before and the copy graded again (grader.models.RejudgeRecord); this module decides
what the pair means:

    rejudge_state("WRONG_ANSWER", copy_graded=True, copy_verdict="ACCEPTED")  -> RejudgeState.CHANGED
    rejudge_state("WRONG_ANSWER", copy_graded=True, copy_verdict="INTERNAL_ERROR") -> NOT_REJUDGED

A copy that ended INTERNAL_ERROR is the platform's fault, not a verdict on the student's code: it is
never applied, so a rejudge cannot lower anything through a fault; the old verdict stays and the
preview says "not re-judged".
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Iterable

from .verdicts import Verdict


class RejudgeState(enum.StrEnum):
    """Where one submission of a rejudge stands."""

    PENDING = "pending"  # its copy is queued or being graded
    SAME = "same"  # graded again with the verdict it has
    CHANGED = "changed"  # graded again with another verdict: applying gives it that verdict
    NOT_REJUDGED = "not_rejudged"  # its copy ended INTERNAL_ERROR (or could not be made): the old verdict stays


def rejudge_state(old_verdict: str, copy_graded: bool | None, copy_verdict: str = "") -> RejudgeState:
    """The state of a submission whose verdict was `old_verdict` (a Verdict value), given its copy:
    `copy_graded` None when no copy could be made (e.g. its variant is not in the version judged
    against), False while the copy is queued or being graded, True with `copy_verdict` once graded.
    INTERNAL_ERROR over a real verdict is NOT_REJUDGED; over an INTERNAL_ERROR it is SAME."""
    if copy_graded is None:
        return RejudgeState.NOT_REJUDGED
    if not copy_graded:
        return RejudgeState.PENDING
    if copy_verdict == old_verdict:
        return RejudgeState.SAME
    if copy_verdict == Verdict.INTERNAL_ERROR:
        return RejudgeState.NOT_REJUDGED
    return RejudgeState.CHANGED


def applies(state: RejudgeState) -> bool:
    """Whether applying the rejudge gives the submission its copy's verdict, result and version
    (SAME too: the result and the version it was graded on are the copy's then)."""
    return state in (RejudgeState.SAME, RejudgeState.CHANGED)


@dataclass(frozen=True)
class RejudgeProgress:
    """How far a rejudge has come: counts of its submissions by state."""

    total: int  # submissions in the rejudge
    pending: int  # copies still queued or being graded
    changed: int  # graded again with another verdict
    same: int  # graded again with the same verdict
    not_rejudged: int  # platform faults (or no copy): the old verdict stays

    @property
    def done(self) -> int:
        """Submissions whose copy is finished (whatever it said)."""
        return self.total - self.pending

    @property
    def running(self) -> bool:
        return self.pending > 0

    @property
    def percent(self) -> int:
        """Finished share, 0-100, rounded down (100 only when every copy is finished)."""
        return 100 * self.done // self.total if self.total else 100


def progress_of(states: Iterable[RejudgeState]) -> RejudgeProgress:
    """Count `states` (one per submission of a rejudge)."""
    counts = {state: 0 for state in RejudgeState}
    for state in states:
        counts[RejudgeState(state)] += 1
    return RejudgeProgress(sum(counts.values()), counts[RejudgeState.PENDING], counts[RejudgeState.CHANGED],
                           counts[RejudgeState.SAME], counts[RejudgeState.NOT_REJUDGED])
