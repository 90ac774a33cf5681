"""TopicStats, the per-student, per-topic practice summary the course dashboard reads, equals a
recount of the answers after answering (right, wrong, after the key was shown), deleting a question
and deleting a student; rebuild() gives the same rows; group_progress reads it."""
from __future__ import annotations

from collections import defaultdict

import pytest

from practice import actions as practice
from practice import topic_stats
from practice.core.questions import FAMILIES
from practice.models import QuestionAttempt, QuestionVariant, TopicStats
from practice.progress import group_progress

pytestmark = pytest.mark.django_db


def recount() -> dict:
    """{(user id, topic): {column: n}} counted from every answer."""
    out = defaultdict(lambda: dict.fromkeys(topic_stats.COLUMNS, 0))
    solved = set()
    for a in QuestionAttempt.objects.select_related("variant"):
        row = out[(a.variant.user_id, str(FAMILIES[a.variant.family].topic))]
        row[f"answers_{a.variant.difficulty}"] += 1
        if a.correct and not a.after_reveal and a.variant_id not in solved:
            solved.add(a.variant_id)
            row[f"solved_{a.variant.difficulty}"] += 1
    return dict(out)


def stored() -> dict:
    return {(r["user_id"], r["topic"]): {c: r[c] for c in topic_stats.COLUMNS}
            for r in TopicStats.objects.values("user_id", "topic", *topic_stats.COLUMNS)}


def right(v):
    return {k: str(x) for k, x in v.answer["values"].items()}


def wrong(v):
    """A parseable answer that is not the key: every numeric field one more than its key."""
    return {k: str(x + 1) if isinstance(x, (int, float)) else str(x) for k, x in v.answer["values"].items()}


def test_the_summary_equals_a_recount_after_answers_and_deletions(django_user_model, django_capture_on_commit_callbacks):
    alice, bob = django_user_model.objects.create(username="alice"), django_user_model.objects.create(username="bob")
    a1 = practice.get_or_create_variant(alice, "indexing.grid_stride", "p1", 1)
    practice.submit_answer(a1, wrong(a1))
    practice.submit_answer(a1, right(a1))  # right: solved
    practice.submit_answer(a1, right(a1))  # right again, after the key was shown: an answer, not another solve
    a2 = practice.get_or_create_variant(alice, "indexing.grid_stride", "p2", 3)
    practice.reveal(a2)
    practice.submit_answer(a2, right(a2))  # right after giving up: not solved
    a3 = practice.get_or_create_variant(alice, "occupancy.blocks_per_sm", "p3", 2)
    practice.submit_answer(a3, right(a3))
    b1 = practice.get_or_create_variant(bob, "occupancy.blocks_per_sm", "p1", 2)
    practice.submit_answer(b1, right(b1))
    assert stored() == recount()
    assert stored()[(alice.pk, "indexing")] == {"answers_1": 3, "answers_2": 0, "answers_3": 1,
                                                "solved_1": 1, "solved_2": 0, "solved_3": 0}
    with django_capture_on_commit_callbacks(execute=True):
        QuestionVariant.objects.filter(pk=a3.pk).delete()  # a question and its answers
    assert (alice.pk, "occupancy") not in stored() and stored() == recount()
    with django_capture_on_commit_callbacks(execute=True):
        bob.delete()
    assert stored() == recount() and set(stored()) == {(alice.pk, "indexing")}
    TopicStats.objects.all().delete()
    assert topic_stats.rebuild() == 1 and stored() == recount()


def test_group_progress_counts_each_student_once_per_topic_and_difficulty(django_user_model):
    alice, bob = django_user_model.objects.create(username="alice"), django_user_model.objects.create(username="bob")
    for user, slot, difficulty in ((alice, "p1", 1), (alice, "p2", 1), (bob, "p1", 2)):
        v = practice.get_or_create_variant(user, "indexing.grid_stride", slot, difficulty)
        assert practice.submit_answer(v, right(v) if user == alice else wrong(v)).graded
    rows = {(t.topic, t.difficulty): (t.attempted, t.solved, t.attempts)
            for t in group_progress([alice.pk, bob.pk])}
    assert rows[("indexing", None)] == (2, 1, 3)  # alice solved two questions: one student
    assert rows[("indexing", 1)] == (1, 1, 2) and rows[("indexing", 2)] == (1, 0, 1)
    assert rows[("occupancy", None)] == (0, 0, 0)
    assert {(t.topic, t.difficulty) for t in group_progress([bob.pk]) if t.solved} == set()
