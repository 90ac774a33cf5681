"""Scoring a drawn exam: generated questions by the family's checker, kernels by verdict.

Inputs are the stored items (draw.py's dicts), the saved answers ({item key: {field: text}}) and,
per kernel item, its submissions' outcomes in the order they were made. Outputs are dataclasses
with `to_dict()` for storage.

Kernel rules: only counted attempts count. A submission that is not graded yet is no attempt (it
holds one while it is graded: attempts_left); neither is one graded INTERNAL_ERROR (the platform's
fault) or COMPILE_ERROR: as DOMjudge's default (compile penalty off) and PrairieLearn's "an invalid
answer costs no attempt", a kernel the compiler refuses was never run against a test, and the
compiler's messages, which say nothing of the hidden tests, are shown in every feedback mode. The
rate limit on submissions (grader.actions.check_rate_limit) bounds how often one can be made. The
k-th counted attempt can earn `attempt_points[k-1]`: all of it when ACCEPTED, or with
`partial_credit` that × tests passed / tests; attempts past `attempts` are ignored; the best attempt
counts. `attempt_points` never grows (exams.core.template refuses it), so once an attempt is
ACCEPTED no later one can earn more.
"""
from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, field
from typing import Mapping, Sequence

from .families import Field, grade, parse_response

ACCEPTED = "ACCEPTED"
COMPILE_ERROR = "COMPILE_ERROR"
INTERNAL_ERROR = "INTERNAL_ERROR"
# Verdicts that cost no attempt: not graded yet, the platform's fault, the compiler's refusal.
NOT_AN_ATTEMPT = frozenset({"", INTERNAL_ERROR, COMPILE_ERROR})


class ItemStatus(enum.StrEnum):
    """How an item stands after scoring."""

    UNANSWERED = "unanswered"  # nothing saved (or only empty fields) / no counted submission
    INVALID = "invalid"  # saved text that does not parse as an answer: scores 0
    WRONG = "wrong"  # parsed (or judged) and wrong: 0 points
    PARTIAL = "partial"  # a kernel with partial credit: some tests passed
    CORRECT = "correct"  # full points of the attempt that counted
    PENDING = "pending"  # a kernel submission is still being graded


@dataclass(frozen=True)
class KernelOutcome:
    """One submission to a kernel item, as scoring needs it."""

    verdict: str  # a Verdict value; "" while not graded
    tests_passed: int = 0
    tests_total: int = 0
    submission_id: int | None = None

    @property
    def counts(self) -> bool:
        """A graded verdict other than INTERNAL_ERROR and COMPILE_ERROR: the student's attempt."""
        return self.verdict not in NOT_AN_ATTEMPT

    @property
    def in_flight(self) -> bool:
        """Not graded yet: it holds an attempt until its verdict says whether it is one."""
        return self.verdict == ""


@dataclass
class ItemScore:
    key: str
    points: float
    max_points: float
    status: ItemStatus
    attempts_used: int = 0  # kernels: counted attempts (within the allowed ones)
    best_attempt: int | None = None  # kernels: 1-based index of the counted attempt that scored
    fields: dict[str, bool] = field(default_factory=dict)  # questions: per field right or wrong

    @property
    def correct(self) -> bool:
        return self.status is ItemStatus.CORRECT

    def to_dict(self) -> dict:
        d = asdict(self)
        d["status"] = str(self.status)
        return d


@dataclass
class ExamScore:
    items: list[ItemScore]

    @property
    def total(self) -> float:
        return round(sum(s.points for s in self.items), 4)

    @property
    def max_total(self) -> float:
        return round(sum(s.max_points for s in self.items), 4)

    @property
    def pending(self) -> bool:
        return any(s.status is ItemStatus.PENDING for s in self.items)

    def by_key(self) -> dict[str, ItemScore]:
        return {s.key: s for s in self.items}

    def to_dict(self) -> dict:
        return {"total": self.total, "max_total": self.max_total, "items": [s.to_dict() for s in self.items]}


def score_question(item: Mapping, answer: Mapping[str, str] | None, key: Mapping | None = None) -> ItemScore:
    """Grade a question item's saved answer against its stored key (or `key`, the answer values of a
    regrade). Empty answers are UNANSWERED, unparseable ones INVALID; both score 0."""
    q = item["question"]
    fields = [Field.from_dict(d) for d in q["fields"]]
    expected = key if key is not None else q["answer"]
    points = float(item["points"])
    answer = answer or {}
    if not any(str(answer.get(f.name) or "").strip() for f in fields):
        return ItemScore(item["key"], 0.0, points, ItemStatus.UNANSWERED)
    values, errors = parse_response(fields, answer)
    if errors:
        return ItemScore(item["key"], 0.0, points, ItemStatus.INVALID)
    result = grade(fields, expected, values)
    return ItemScore(item["key"], points if result.correct else 0.0, points,
                     ItemStatus.CORRECT if result.correct else ItemStatus.WRONG, fields=dict(result.fields))


def counted_attempts(outcomes: Sequence[KernelOutcome]) -> int:
    """How many of the outcomes are attempts (graded, not a platform fault)."""
    return sum(1 for o in outcomes if o.counts)


def attempts_left(kernel: Mapping, outcomes: Sequence[KernelOutcome]) -> int:
    """Attempts the student may still make: allowed - counted - those still being graded
    (a submission in the queue may yet count, so it holds its attempt until its verdict)."""
    in_flight = sum(1 for o in outcomes if o.in_flight)
    return max(0, int(kernel["attempts"]) - counted_attempts(outcomes) - in_flight)


def attempt_numbers(outcomes: Sequence[KernelOutcome]) -> list[int | None]:
    """Per outcome (in the order made), the attempt it is, 1-based, as the student counts them: a
    counted attempt and one still being graded (it holds an attempt) take the next number; a
    COMPILE_ERROR or INTERNAL_ERROR takes none (None), so "Attempt 2" is the one that can earn
    `attempt_points[1]`."""
    numbers, n = [], 0
    for o in outcomes:
        if o.counts or o.in_flight:
            n += 1
            numbers.append(n)
        else:
            numbers.append(None)
    return numbers


def score_kernel(item: Mapping, outcomes: Sequence[KernelOutcome]) -> ItemScore:
    """The best counted attempt's points (see the module docstring). PENDING while a submission
    that could still count is being graded and no attempt so far has full points."""
    k = item["kernel"]
    attempt_points = [float(p) for p in k["attempt_points"]]
    max_points = float(item["points"])
    best, best_at, status, used = 0.0, None, ItemStatus.UNANSWERED, 0
    pending = False
    for o in outcomes:
        if o.in_flight:
            pending = pending or used < int(k["attempts"])
            continue
        if not o.counts:
            continue
        if used >= int(k["attempts"]):
            break
        used += 1
        worth = attempt_points[min(used, len(attempt_points)) - 1]
        if o.verdict == ACCEPTED:
            earned, this = worth, ItemStatus.CORRECT
        elif k.get("partial_credit") and o.tests_total:
            earned = round(worth * o.tests_passed / o.tests_total, 4)
            this = ItemStatus.PARTIAL if earned > 0 else ItemStatus.WRONG
        else:
            earned, this = 0.0, ItemStatus.WRONG
        if best_at is None or earned > best:
            best, best_at, status = earned, used, this
    if pending and status is not ItemStatus.CORRECT:
        status = ItemStatus.PENDING
    return ItemScore(item["key"], best, max_points, status, attempts_used=used, best_attempt=best_at)


def score_exam(items: Sequence[Mapping], answers: Mapping[str, Mapping[str, str]],
               kernel_outcomes: Mapping[str, Sequence[KernelOutcome]] | None = None,
               keys: Mapping[str, Mapping] | None = None) -> ExamScore:
    """Score every item. `answers` and `kernel_outcomes` are per item key; `keys` optionally
    replaces the stored answer values of some question items (a regrade)."""
    kernel_outcomes = kernel_outcomes or {}
    keys = keys or {}
    scores = []
    for item in items:
        if item["kind"] == "question":
            scores.append(score_question(item, answers.get(item["key"]), keys.get(item["key"])))
        else:
            scores.append(score_kernel(item, kernel_outcomes.get(item["key"], ())))
    return ExamScore(scores)
