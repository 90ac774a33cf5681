"""What a student is told about a kernel item while the exam runs: attempts left, solved or not, the
points earned so far and the latest verdict, each only as far as the item's feedback setting lets
the exam tell it.

Scoring (exams.core.scoring) counts the best attempt, and `attempt_points` never grows, so once an
attempt is ACCEPTED no later one can earn more: an item the student knows is solved (feedback
"verdict" or "full") takes no more submissions. With feedback "none" the student cannot know it is
solved, and refusing a submission would tell them: the page says that the best attempt counts, and a
later submission can only leave the score as it is.

What each feedback tells:

- "none": nothing about verdicts (a compile error excepted: it costs no attempt and its compiler
  messages are shown in every mode), so neither solved nor points;
- "verdict": the verdicts' names: solved, and the points of the accepted attempt (its attempt points,
  known from the verdict and its number). Partial credit is not told (it is the share of tests
  passed); where an earlier failed attempt was worth more than the accepted one, its partial credit
  may beat it, and the points are told as "at least". Without partial credit a failed attempt is
  told as 0 points;
- "full": everything the score is: the best points so far, partial credit included.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Mapping, Sequence

from .scoring import ACCEPTED, COMPILE_ERROR, KernelOutcome, attempts_left, score_kernel


class FeedbackMode(enum.StrEnum):
    """What a student learns about a kernel item during the exam (exams.models.Feedback's values)."""

    NONE = "none"  # "submitted" and "graded" only, until the results are released
    VERDICT = "verdict"  # the verdict's name, no test details
    FULL = "full"  # the submission's page, as in practice


def item_feedback(spec: Mapping, exam_feedback: str, item: Mapping) -> FeedbackMode:
    """The feedback of a drawn item (`item`, exams.core.draw's dict): its zone's own setting in the
    exam's template data `spec`, else the exam's `exam_feedback`."""
    zones = spec.get("zones", []) if isinstance(spec, Mapping) else []
    zi = item.get("zone", 0)
    own = zones[zi].get("feedback") if isinstance(zi, int) and 0 <= zi < len(zones) else None
    return feedback_mode(own or exam_feedback)


def feedback_mode(value: str) -> FeedbackMode:
    """`value` as a FeedbackMode; one that no form writes tells the least (NONE)."""
    try:
        return FeedbackMode(value)
    except ValueError:
        return FeedbackMode.NONE


@dataclass(frozen=True)
class KernelItemState:
    """A kernel item as its student may know it now (kernel_state)."""

    attempts: int  # counted attempts allowed
    attempts_left: int  # allowed - counted - still being graded (exams.core.scoring.attempts_left)
    grading: int  # submissions not graded yet
    submitted: int  # submissions in all, compile errors and platform faults included
    latest_verdict: str | None  # the newest graded submission's verdict, where the feedback tells it
    solved: bool | None  # an attempt was ACCEPTED; None where the feedback tells no verdicts
    solved_on: int | None  # the counted attempt (1-based) that was accepted
    points: float | None  # points earned so far as far as the feedback tells; None: not told
    points_at_least: bool  # `points` is a floor: an earlier attempt's partial credit may be more
    max_points: float  # the most the item can earn
    later_worth: float | None  # when solved: the most a later attempt could earn (None: no attempt left)
    can_submit: bool  # the page offers Submit (and the server takes one)


def kernel_state(item: Mapping, outcomes: Sequence[KernelOutcome], feedback: str, is_open: bool = True
                 ) -> KernelItemState:
    """The state of kernel item `item` (a drawn item dict) after `outcomes` (its submissions, oldest
    first) under `feedback` (a FeedbackMode value); `is_open`: the attempt still takes submissions."""
    k = item["kernel"]
    allowed = int(k["attempts"])
    points_list = [float(p) for p in k["attempt_points"]]
    score = score_kernel(item, outcomes)
    left = attempts_left(k, outcomes)
    counted = [o for o in outcomes if o.counts][:allowed]
    solved_on = next((n for n, o in enumerate(counted, 1) if o.verdict == ACCEPTED), None)
    graded = [o for o in outcomes if not o.in_flight]
    latest = graded[-1].verdict if graded else None
    mode = feedback_mode(feedback)

    def worth(n: int) -> float:
        return points_list[min(n, len(points_list)) - 1]

    solved: bool | None = None
    points: float | None = None
    at_least = False
    if mode is FeedbackMode.NONE:
        latest = latest if latest == COMPILE_ERROR else None
    else:
        solved = solved_on is not None
        if mode is FeedbackMode.FULL:
            points = score.points if counted else None
        elif solved:
            points = worth(solved_on)
            at_least = bool(k.get("partial_credit")) and any(worth(n) > points for n in range(1, solved_on))
        elif counted and not k.get("partial_credit"):
            points = 0.0
    later = len(counted) + sum(1 for o in outcomes if o.in_flight)
    later_worth = worth(later + 1) if solved and later < allowed else None
    return KernelItemState(
        attempts=allowed, attempts_left=left, grading=sum(1 for o in outcomes if o.in_flight),
        submitted=len(outcomes), latest_verdict=latest, solved=solved, solved_on=solved_on if solved else None,
        points=points, points_at_least=at_least, max_points=float(item["points"]), later_worth=later_worth,
        can_submit=is_open and left > 0 and not solved)
