"""The exams write path: start stores the variant in full, autosave, deadline, submit, grading, staff tools."""
from datetime import timedelta

import pytest
from django.utils import timezone

from exams.actions.resets import reset_item
from exams.actions.attempts import (close_expired, extend_attempt, save_answers, start_attempt,
                                    submit_attempt)
from exams.actions.regrades import apply_regrade, preview_regrade
from exams.actions.scheduling import set_accommodation
from exams.errors import ExamError
from exams.models import AttemptState, EventKind, ExamAttempt

from .conftest import right_answers

pytestmark = pytest.mark.django_db


def test_start_stores_every_item_in_full_and_is_idempotent(exam, people):
    """Start draws 3 items (2 questions, 1 kernel) with their keys and the package version; Start again returns it."""
    a = start_attempt(exam, people["alice"])
    items = list(a.items.all())
    assert [i.kind for i in items].count("question") == 2 and [i.kind for i in items].count("kernel") == 1
    q = next(i for i in items if i.kind == "question")
    assert {"params", "prompt", "answer", "solution", "generator_version"} <= set(q.data["question"])
    k = next(i for i in items if i.kind == "kernel")
    assert k.data["kernel"]["slug"] == "tiny-add" and k.data["kernel"]["version_id"]
    assert a.max_total == 20.0
    assert start_attempt(exam, people["alice"]).pk == a.pk
    assert ExamAttempt.objects.filter(exam=exam, user=people["alice"]).count() == 1
    assert a.deadline == a.started_at + timedelta(minutes=30)


def test_students_get_different_variants(exam, people):
    a = start_attempt(exam, people["alice"])
    b = start_attempt(exam, people["bob"])
    seeds = lambda att: [i.data.get("question", {}).get("seed") for i in att.items.all()]  # noqa: E731
    assert seeds(a) != seeds(b)


def test_cannot_start_before_open_or_after_close(exam, people):
    with pytest.raises(ExamError, match="not opened"):
        start_attempt(exam, people["alice"], now=exam.opens_at - timedelta(seconds=1))
    with pytest.raises(ExamError, match="closed"):
        start_attempt(exam, people["alice"], now=exam.closes_at)


def test_password_and_honour_code(exam, people):
    exam.password, exam.honour_code = "gpu", "I work alone."
    exam.save()
    with pytest.raises(ExamError, match="password"):
        start_attempt(exam, people["alice"], password="cpu", accept_honour_code=True)
    with pytest.raises(ExamError, match="honour code"):
        start_attempt(exam, people["alice"], password="gpu")
    assert start_attempt(exam, people["alice"], password="gpu", accept_honour_code=True)


def test_deadline_is_window_close_when_sooner_and_accommodations_add_time(exam, people):
    start = exam.closes_at - timedelta(minutes=10)
    a = start_attempt(exam, people["alice"], now=start)
    assert a.deadline == exam.closes_at
    set_accommodation(exam, people["bob"], extra_minutes=15, closes_at=exam.closes_at + timedelta(hours=1))
    b = start_attempt(exam, people["bob"], now=start)
    assert b.deadline == start + timedelta(minutes=45)


def test_autosave_then_refused_after_deadline(exam, people):
    """A save before the deadline is stored; one after is refused (409), stores nothing, and closes the attempt."""
    a = start_attempt(exam, people["alice"])
    q = a.items.filter(kind="question").first()
    save_answers(a.pk, people["alice"], {q.key: {"x": "1"} | right_answers(q)})
    q.refresh_from_db()
    assert q.answer == right_answers(q)
    with pytest.raises(ExamError) as info:
        save_answers(a.pk, people["alice"], {q.key: {n: "999" for n in q.answer}}, now=a.deadline)
    assert info.value.status == 409
    q.refresh_from_db()
    a.refresh_from_db()
    assert q.answer == right_answers(q)
    assert a.state == AttemptState.CLOSED and a.total == 5.0
    assert a.events.filter(kind=EventKind.LATE_SAVE).exists()


def test_a_save_after_submitting_says_the_exam_was_submitted_not_that_time_is_up(exam, people):
    """After the student submits, a late autosave is refused (409, nothing stored) with the real reason."""
    a = start_attempt(exam, people["alice"])
    q = a.items.filter(kind="question").first()
    save_answers(a.pk, people["alice"], {q.key: right_answers(q)})
    submit_attempt(a.pk, people["alice"])
    with pytest.raises(ExamError) as info:
        save_answers(a.pk, people["alice"], {q.key: {n: "999" for n in right_answers(q)}})
    assert info.value.status == 409 and info.value.code == "submitted"
    assert "You have submitted this exam" in str(info.value) and "Time is up" not in str(info.value)
    q.refresh_from_db()
    assert q.answer == right_answers(q)


def test_save_rejects_unknown_items_and_long_answers(exam, people):
    a = start_attempt(exam, people["alice"])
    with pytest.raises(ExamError, match="no question"):
        save_answers(a.pk, people["alice"], {"z9.p9": {"x": "1"}})
    q = a.items.filter(kind="question").first()
    with pytest.raises(ExamError, match="longer"):
        save_answers(a.pk, people["alice"], {q.key: {next(iter(right_answers(q))): "9" * 500}})


def test_submit_grades_what_was_saved(exam, people):
    a = start_attempt(exam, people["alice"])
    qs = list(a.items.filter(kind="question"))
    save_answers(a.pk, people["alice"], {qs[0].key: right_answers(qs[0]),
                                          qs[1].key: {n: "banana" for n in right_answers(qs[1])}})
    a = submit_attempt(a.pk, people["alice"])
    assert a.state == AttemptState.SUBMITTED and a.total == 5.0
    statuses = sorted(i.status for i in a.items.all())
    assert statuses == ["correct", "invalid", "unanswered"]
    with pytest.raises(ExamError):
        save_answers(a.pk, people["alice"], {qs[0].key: {}})


def test_close_expired_sweep(exam, people):
    a = start_attempt(exam, people["alice"])
    assert close_expired(now=a.deadline - timedelta(seconds=1)) == 0
    assert close_expired(now=a.deadline) == 1
    a.refresh_from_db()
    assert a.state == AttemptState.CLOSED and a.ended_at == a.deadline


def test_extend_while_running_and_reopen_after_close(exam, people):
    a = start_attempt(exam, people["alice"])
    old = a.deadline
    a = extend_attempt(a.pk, 10, people["tom"])
    assert a.deadline == old + timedelta(minutes=10)
    assert a.events.filter(kind=EventKind.EXTENDED, by=people["tom"]).exists()


def test_reset_gives_new_variant_and_is_logged(exam, people):
    a = start_attempt(exam, people["alice"])
    q = a.items.filter(kind="question").first()
    save_answers(a.pk, people["alice"], {q.key: right_answers(q)})
    old_seed = q.data["question"]["seed"]
    q = reset_item(q.pk, people["tom"])
    assert q.data["question"]["seed"] != old_seed and q.answer == {} and q.data["generation"] == 1
    assert a.events.filter(kind=EventKind.RESET, by=people["tom"]).exists()


def test_stored_variant_survives_generator_change(exam, people, monkeypatch):
    """After a started attempt, a generator that now gives other answers changes neither the prompt nor the grading."""
    from exams.core import families

    a = start_attempt(exam, people["alice"])
    q = a.items.filter(kind="question").first()
    prompt = q.data["question"]["prompt"]
    fam = families.family(q.data["question"]["family"])
    orig = type(fam).compose
    monkeypatch.setattr(type(fam), "compose",
                        lambda self, p: (lambda r: (r[0][:1], r[1], {n: 12345 for n in r[2]}, r[3]))(orig(self, p)))
    save_answers(a.pk, people["alice"], {q.key: right_answers(q)})
    a = submit_attempt(a.pk, people["alice"])
    q.refresh_from_db()
    assert q.data["question"]["prompt"] == prompt and q.status == "correct"
    # ... until the instructor regrades with the fixed (here: changed) generator: the diff says who changes.
    diff = preview_regrade(exam)
    assert [(c.student, c.old_total, c.new_total) for c in diff.changes] == [("alice", 5.0, 0.0)]
    apply_regrade(exam, people["ivy"])
    a.refresh_from_db()
    assert a.total == 0.0 and a.events.filter(kind=EventKind.REGRADED).exists()


def test_open_exams_for_the_course_page(exam, people):
    """Open for a student until they finish; not before the window; an accommodation's own window counts."""
    from exams.services import open_exams

    assert [o.exam for o in open_exams(exam.course, people["alice"])] == [exam]
    a = start_attempt(exam, people["alice"])
    assert open_exams(exam.course, people["alice"])[0].in_progress
    submit_attempt(a.pk, people["alice"])
    assert open_exams(exam.course, people["alice"]) == []
    set_accommodation(exam, people["bob"], opens_at=exam.closes_at, closes_at=exam.closes_at + timedelta(hours=1))
    assert open_exams(exam.course, people["bob"]) == []
    assert open_exams(exam.course, people["bob"], now=exam.closes_at + timedelta(minutes=1))


def test_course_page_lists_open_exams(exam, people):
    """courses.services.open_items is filled with the student's open exams; the course page links to them."""
    from django.urls import reverse

    from courses.services import open_items

    from .conftest import client_for

    items = open_items(exam.course, people["alice"])
    assert [(i.title, i.kind, i.url) for i in items] == [(exam.title, "exam", reverse("exams:exam", args=[exam.pk]))]
    html = client_for(people["alice"]).get(reverse("courses:course", args=[exam.course.code])).content.decode()
    assert reverse("exams:exam", args=[exam.pk]) in html and reverse("exams:course", args=[exam.course_id]) in html


def test_a_reset_that_cannot_draw_again_is_refused_and_changes_nothing(exam, people, kernel_problem):
    """The kernel item's problem has no current version any more (its course withdrew it after the draw): staff
    read why, in their language, and the item keeps its variant, answer and submissions (it was a 500)."""
    from django.utils import translation

    a = start_attempt(exam, people["alice"])
    k = a.items.get(kind="kernel")
    before = dict(k.data)
    kernel_problem.current_version = None
    kernel_problem.save(update_fields=["current_version"])
    for language, text in (("en", "cannot be drawn again"), ("ko", "다시 뽑을 수 없습니다")):
        with translation.override(language), pytest.raises(ExamError) as refused:
            reset_item(k.pk, people["tom"])
        assert refused.value.code == "cannot_redraw" and refused.value.status == 409
        assert text in str(refused.value) and f"{k.number}" in str(refused.value)
    k.refresh_from_db()
    assert k.data == before
    assert not a.events.filter(kind=EventKind.RESET).exists()
