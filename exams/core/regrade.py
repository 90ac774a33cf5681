"""Regrading: recompute attempts' scores with new answer keys or new verdicts, as a diff first.

    records = [AttemptRecord(...), ...]                    # what is stored now
    diff = regrade(records, keys_for=rekey_from_generators)  # nothing is written
    diff.changes -> who changes from what to what; diff.scores -> the new ExamScore per attempt

The shell shows `diff` and, when the instructor confirms, stores `diff.scores` (exams/actions/grading.py).
Kernel items take whatever outcomes the record carries, so re-judged submissions' new verdicts
are part of the diff as soon as they are stored.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

from .families import family
from .scoring import ExamScore, KernelOutcome, score_exam


@dataclass
class AttemptRecord:
    """One attempt as stored: its items, saved answers, kernel outcomes and current item points."""

    attempt_id: int
    student: str  # how the diff names the student (a username)
    items: list[dict]
    answers: dict[str, dict[str, str]]
    kernel_outcomes: dict[str, list[KernelOutcome]] = field(default_factory=dict)
    old_points: dict[str, float] = field(default_factory=dict)  # item key -> points stored now


@dataclass(frozen=True)
class ItemChange:
    key: str
    number: int
    old: float
    new: float


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
    changes: list[AttemptChange]  # only attempts whose points change, in the records' order
    scores: dict[int, ExamScore]  # every record's new score (apply stores these)
    rekeyed: dict[str, int] = field(default_factory=dict)  # item key -> how many variants got a new key

    @property
    def unchanged(self) -> int:
        return len(self.scores) - len(self.changes)


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


def regrade(records: Sequence[AttemptRecord],
            keys_for: Callable[[Mapping], Mapping | None] | None = None) -> RegradeDiff:
    """Recompute every record's score. `keys_for(item)` may return new answer values for a question
    item (None: keep its stored key). Pure: nothing is changed; the diff lists each attempt whose
    points change, with the items that change."""
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
        score = score_exam(rec.items, rec.answers, rec.kernel_outcomes, keys)
        scores[rec.attempt_id] = score
        numbers = {i["key"]: i["number"] for i in rec.items}
        item_changes = [ItemChange(s.key, numbers[s.key], float(rec.old_points.get(s.key, 0.0)), s.points)
                        for s in score.items if abs(s.points - float(rec.old_points.get(s.key, 0.0))) > 1e-9]
        if item_changes:
            old_total = round(sum(float(v) for v in rec.old_points.values()), 4)
            changes.append(AttemptChange(rec.attempt_id, rec.student, old_total, score.total, item_changes))
    return RegradeDiff(changes, scores, rekeyed)
