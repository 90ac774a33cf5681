"""Regrading: recompute attempts' scores with new answer keys or new verdicts, as a diff first.

    records = [AttemptRecord(...), ...]                    # what is stored now
    diff = regrade(records, keys_for=rekey_from_generators)  # nothing is written
    diff.changes -> who changes from what to what; diff.scores -> the new ExamScore per attempt

The shell shows `diff` and, when the instructor confirms, stores `diff.scores` (exams/actions/regrades.py).

Kernel items score their submissions' stored outcomes, except where a record carries `rejudged`
outcomes: submissions graded again for this regrade (shadow copies, grader.core.rejudge), judged
against the problem's current version or the one each was graded on. A re-judged submission counts
with its new verdict when it was graded again (SAME or CHANGED); one whose copy ended INTERNAL_ERROR
(the platform's fault) or is still being graded keeps its old verdict, so a fault can never lower a
score: the diff lists it as "not re-judged". The diff names, per student and item, each submission's
old and new verdict with the version the new one came from, the item's old and new points, and the
attempt's old and new total.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field, replace
from typing import Callable, Mapping, Sequence

from grader.core.rejudge import RejudgeState, applies

from .families import family
from .scoring import ExamScore, KernelOutcome, score_exam


@dataclass(frozen=True)
class Rejudged:
    """A kernel submission graded again for a regrade, as scoring and the diff read it."""

    state: RejudgeState  # grader.core.rejudge's reading of the old verdict and the copy
    outcome: KernelOutcome | None = None  # the copy's verdict and tests once graded (None while pending)
    version: int | None = None  # the package version number the copy was judged against


@dataclass(frozen=True)
class VerdictChange:
    """One re-judged submission of an item, from what to what."""

    submission_id: int
    attempt: int  # 1-based, the submission's place among the item's submissions
    old: str  # the verdict stored now
    new: str  # the verdict graded again ("" when not re-judged or pending)
    state: RejudgeState
    version: int | None = None  # the package version number the new verdict came from
    old_tests: tuple[int, int] = (0, 0)  # (passed, in all) before
    new_tests: tuple[int, int] | None = None  # (passed, in all) graded again; None when not re-judged

@dataclass
class AttemptRecord:
    """One attempt as stored: its items, saved answers, kernel outcomes and current item points."""

    attempt_id: int
    student: str  # how the diff names the student (a username)
    items: list[dict]
    answers: dict[str, dict[str, str]]
    kernel_outcomes: dict[str, list[KernelOutcome]] = field(default_factory=dict)
    old_points: dict[str, float] = field(default_factory=dict)  # item key -> points stored now
    rejudged: dict[int, Rejudged] = field(default_factory=dict)  # submission id -> graded again for this regrade


@dataclass(frozen=True)
class ItemChange:
    """One item of an attempt in the diff: its points before and after, and, for a kernel item, the
    verdicts of its re-judged submissions that change or could not be re-judged."""

    key: str
    number: int
    old: float
    new: float
    verdicts: tuple[VerdictChange, ...] = ()

    @property
    def points_change(self) -> bool:
        return abs(self.new - self.old) > 1e-9


@dataclass
class AttemptChange:
    attempt_id: int
    student: str
    old_total: float
    new_total: float
    items: list[ItemChange]

    @property
    def delta(self) -> float:
        return round(self.new_total - self.old_total, 4)


@dataclass
class RegradeDiff:
    changes: list[AttemptChange]  # attempts whose points or verdicts change (or were not re-judged), in order
    scores: dict[int, ExamScore]  # every record's new score (apply stores these)
    rekeyed: dict[str, int] = field(default_factory=dict)  # item key -> how many variants got a new key

    @property
    def unchanged(self) -> int:
        return len(self.scores) - len(self.changes)

    @property
    def points_changes(self) -> list[AttemptChange]:
        """The attempts whose total changes."""
        return [c for c in self.changes if abs(c.new_total - c.old_total) > 1e-9 or any(i.points_change for i in c.items)]

    def to_dict(self) -> dict:
        """The changes as JSON-ready data (what an applied regrade keeps for the record)."""
        return {"changes": [{"attempt_id": c.attempt_id, "student": c.student, "old_total": c.old_total,
                             "new_total": c.new_total,
                             "items": [{**asdict(i), "verdicts": [{**asdict(v), "state": str(v.state)}
                                                                  for v in i.verdicts]} for i in c.items]}
                            for c in self.changes],
                "rekeyed": dict(self.rekeyed), "unchanged": self.unchanged}

    def fingerprint(self) -> str:
        """A short digest of what applying would change (the changes and the new keys): the page sends the
        one it showed, and apply refuses when the diff has moved since."""
        data = self.to_dict()
        data.pop("unchanged")
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def rekey_from_generators(item: Mapping) -> dict | None:
    """The answer a question item's stored params give with the family's CURRENT generator code, or
    None when it equals the stored key (or the item is a kernel, or the family is gone).

    Use after fixing a wrong key in a generator: the student's question (params, prompt) stays as
    shown, only the key is recomputed from the same params."""
    if item.get("kind") != "question":
        return None
    q = item["question"]
    try:
        fam = family(q["family"])
    except KeyError:
        return None
    params = dict(q["params"])
    params.setdefault("difficulty", q["difficulty"])
    new = fam.build(params, seed=q["seed"]).answer
    return None if new == q["answer"] else dict(new)


def rejudged_outcomes(outcomes: Sequence[KernelOutcome], rejudged: Mapping[int, Rejudged]
                      ) -> tuple[list[KernelOutcome], tuple[VerdictChange, ...]]:
    """An item's outcomes with its re-judged submissions' new ones in place, and the verdict changes to
    show: each submission that changes verdict (CHANGED), keeps it with other tests passed (SAME: partial
    credit may move) or could not be re-judged (NOT_REJUDGED: its old outcome stays). Pending ones keep
    their old outcome and are not shown."""
    out, shown = [], []
    for n, o in enumerate(outcomes, start=1):
        r = rejudged.get(o.submission_id) if o.submission_id is not None else None
        if r is None:
            out.append(o)
            continue
        if applies(r.state) and r.outcome is not None:
            out.append(replace(r.outcome, submission_id=o.submission_id))
        else:
            out.append(o)
        before = (o.tests_passed, o.tests_total)
        if r.state is RejudgeState.NOT_REJUDGED or r.outcome is None:
            if r.state is RejudgeState.NOT_REJUDGED:
                shown.append(VerdictChange(o.submission_id, n, o.verdict, "", r.state, r.version, before))
            continue
        after = (r.outcome.tests_passed, r.outcome.tests_total)
        if r.state is RejudgeState.CHANGED or after != before:
            shown.append(VerdictChange(o.submission_id, n, o.verdict, r.outcome.verdict, r.state, r.version,
                                       before, after))
    return out, tuple(shown)


def regrade(records: Sequence[AttemptRecord],
            keys_for: Callable[[Mapping], Mapping | None] | None = None) -> RegradeDiff:
    """Recompute every record's score. `keys_for(item)` may return new answer values for a question
    item (None: keep its stored key); kernel items take their records' `rejudged` outcomes (see the
    module docstring). Pure: nothing is changed; the diff lists each attempt whose points change or
    that has a re-judged submission changing verdict or not re-judged, with those items."""
    changes: list[AttemptChange] = []
    scores: dict[int, ExamScore] = {}
    rekeyed: dict[str, int] = {}
    for rec in records:
        keys = {}
        if keys_for is not None:
            for item in rec.items:
                new = keys_for(item)
                if new is not None:
                    keys[item["key"]] = new
                    rekeyed[item["key"]] = rekeyed.get(item["key"], 0) + 1
        outcomes, verdicts = dict(rec.kernel_outcomes), {}
        if rec.rejudged:
            for key, item_outcomes in rec.kernel_outcomes.items():
                outcomes[key], verdicts[key] = rejudged_outcomes(item_outcomes, rec.rejudged)
        score = score_exam(rec.items, rec.answers, outcomes, keys)
        scores[rec.attempt_id] = score
        numbers = {i["key"]: i["number"] for i in rec.items}
        item_changes = []
        for s in score.items:
            old = float(rec.old_points.get(s.key, 0.0))
            shown = verdicts.get(s.key, ())
            if abs(s.points - old) > 1e-9 or shown:
                item_changes.append(ItemChange(s.key, numbers[s.key], old, s.points, shown))
        if item_changes:
            old_total = round(sum(float(v) for v in rec.old_points.values()), 4)
            changes.append(AttemptChange(rec.attempt_id, rec.student, old_total, score.total, item_changes))
    return RegradeDiff(changes, scores, rekeyed)
