"""Practice with generated questions: the one write path for variants and attempts.

Thin Django shell over practice.core.questions and practice.core.answers:
- `next_variant` / `get_or_create_variant`: a student's variant per (family, slot) is created once,
  storing the generated params, the answer key and the generator version; asking again gives the
  same variant back (the unique constraint settles concurrent requests).
- `submit_answer`: parses the response; an unparseable answer is returned with its errors and stores
  nothing (it costs no attempt); a parsed one is graded against the STORED key and saved.
- `reveal` / `key_shown`: the key and worked solution are shown only after a right answer, after
  PRACTICE_TRIES wrong ones, or when the student gives up; an answer given after that is marked
  `after_reveal` and never counts as solved (issue #13: one wrong try used to show the key, and
  typing it back counted the question solved).
"""
from __future__ import annotations

import enum
import secrets
from dataclasses import dataclass, field
from typing import Any, Mapping

from django.db import IntegrityError, transaction
from django.db.models import Count
from django.utils import timezone

from .core.answers import AnswerFormatError, Field, Grade, grade, parse_response
from .core.questions import DIFFICULTIES, Question, Topic, families_for, family
from .models import QuestionAttempt, QuestionVariant

PRACTICE_SLOT = "practice-{n}"  # practice slots are numbered per student; exams will use their own slot names
MIXED = "mixed"
PRACTICE_TRIES = 3  # wrong answers after which the key is shown (the question is then no longer solvable)


class PracticeError(ValueError):
    """A practice request that cannot be served (unknown topic or difficulty); the message is user-safe."""


def question_for(variant: QuestionVariant) -> Question:
    """The variant's question rebuilt from its stored params (the stored answer key stays authoritative)."""
    params = dict(variant.params)
    params.setdefault("difficulty", variant.difficulty)
    return family(variant.family).build(params, seed=variant.seed)


@transaction.atomic
def get_or_create_variant(user, family_id: str, slot: str, difficulty: int = 1, seed: int | None = None,
                          target_cc: str | None = None) -> QuestionVariant:
    """The student's variant of `family_id` in `slot`, generating and storing it the first time.

    `target_cc` (a course's target GPU, "8.6") makes occupancy families draw a GPU of that compute
    capability. Precondition: family_id names a family (UnknownFamilyError otherwise), difficulty is 1..3.
    """
    existing = QuestionVariant.objects.filter(user=user, family=family_id, slot=slot).first()
    if existing:
        return existing
    fam = family(family_id)
    seed = secrets.randbits(48) if seed is None else seed
    q = fam.generate(seed, difficulty, target_cc or None)
    try:
        with transaction.atomic():
            return QuestionVariant.objects.create(
                user=user, family=family_id, generator_version=fam.version, difficulty=difficulty, seed=seed,
                slot=slot, params=q.params, answer=q.answer_key(),
            )
    except IntegrityError:  # another request created it first
        return QuestionVariant.objects.get(user=user, family=family_id, slot=slot)


def next_variant(user, topic: str, difficulty: int) -> QuestionVariant:
    """A new practice question for `topic` (or "mixed"): the family the student has practised least."""
    if difficulty not in DIFFICULTIES:
        raise PracticeError(f"Difficulty must be one of {', '.join(map(str, DIFFICULTIES))}.")
    if topic == MIXED:
        candidates = families_for(None)
    else:
        try:
            candidates = families_for(Topic(topic))
        except ValueError:
            raise PracticeError(f"Unknown topic {topic!r}.") from None
    counts = dict(QuestionVariant.objects.filter(user=user, family__in=[f.id for f in candidates])
                  .values_list("family").annotate(n=Count("id")))
    least = min(counts.get(f.id, 0) for f in candidates)
    pool = [f for f in candidates if counts.get(f.id, 0) == least]
    chosen = pool[secrets.randbelow(len(pool))]
    n = QuestionVariant.objects.filter(user=user, slot__startswith="practice-").count() + 1
    return get_or_create_variant(user, chosen.id, PRACTICE_SLOT.format(n=n), difficulty)


@dataclass
class AnswerOutcome:
    """What happened to one submitted answer."""

    errors: list[AnswerFormatError] = field(default_factory=list)  # non-empty: nothing was graded or stored
    grade: Grade | None = None
    attempt: QuestionAttempt | None = None

    @property
    def graded(self) -> bool:
        return self.grade is not None


def answer_fields(variant: QuestionVariant) -> list[Field]:
    return [Field.from_dict(d) for d in variant.answer["fields"]]


def submit_answer(variant: QuestionVariant, raw: Mapping[str, Any]) -> AnswerOutcome:
    """Parse, grade against the stored key, and store the attempt (only when every field parsed)."""
    fields = answer_fields(variant)
    values, errors = parse_response(fields, raw)
    if errors:
        return AnswerOutcome(errors=errors)
    result = grade(fields, variant.answer["values"], values)
    with transaction.atomic():
        locked = QuestionVariant.objects.select_for_update().get(pk=variant.pk)  # two tabs: one order
        attempt = QuestionAttempt.objects.create(variant=locked, response=values, correct=result.correct,
                                                 after_reveal=locked.revealed_at is not None)
        wrong = locked.attempts.filter(correct=False, after_reveal=False).count()
        if locked.revealed_at is None and (result.correct or wrong >= PRACTICE_TRIES):
            locked.revealed_at = timezone.now()
            locked.save(update_fields=["revealed_at"])
    variant.revealed_at = locked.revealed_at
    return AnswerOutcome(grade=result, attempt=attempt)


def reveal(variant: QuestionVariant) -> QuestionVariant:
    """The student gives up: show the key and worked solution from now on (idempotent).

    Later answers are stored with after_reveal=True and do not count as solved.
    """
    QuestionVariant.objects.filter(pk=variant.pk, revealed_at__isnull=True).update(revealed_at=timezone.now())
    variant.refresh_from_db(fields=["revealed_at"])
    return variant


def key_shown(variant: QuestionVariant) -> bool:
    """Whether the answer key and worked solution may be shown to the student now."""
    return variant.revealed_at is not None


class KeyShownBecause(enum.StrEnum):
    """Why a question's answer key is shown; the page says the matching sentence."""

    SOLVED = "solved"  # a right answer was given before the key was shown: the question counts as solved
    TRIES = "tries"  # PRACTICE_TRIES wrong answers were given: the key was shown, nothing was solved
    ASKED = "asked"  # the student pressed "Show the answer" before solving it


def why_key_shown(variant: QuestionVariant) -> KeyShownBecause | None:
    """Why the key of `variant` is shown now (None while it is hidden), from its stored attempts.

    Attempts given before `revealed_at` decide: one right answer among them is SOLVED; otherwise
    PRACTICE_TRIES wrong ones is TRIES; otherwise the student asked (ASKED).
    """
    if variant.revealed_at is None:
        return None
    before = [a for a in variant.attempts.all() if not a.after_reveal]
    if any(a.correct for a in before):
        return KeyShownBecause.SOLVED
    if sum(1 for a in before if not a.correct) >= PRACTICE_TRIES:
        return KeyShownBecause.TRIES
    return KeyShownBecause.ASKED


def tries_left(variant: QuestionVariant) -> int:
    """Wrong answers the student may still give before the key is shown (0 once it is)."""
    if variant.revealed_at is not None:
        return 0
    return max(0, PRACTICE_TRIES - variant.attempts.filter(correct=False, after_reveal=False).count())
