"""Variants drawn ahead of Start (exams.drawing): Start copies the stored draw, which is exactly the
draw Start would make, and draws afresh when what the draw came from has changed."""
import pytest

from exams import drawing
from exams.actions.attempts import start_attempt
from exams.actions.scheduling import save_template, schedule_exam
from exams.models import ExamDraw

pytestmark = pytest.mark.django_db


def _no_drawing(monkeypatch):
    """Make drawing at Start fail loudly: a Start that copies the stored draw never calls it."""
    def refuse(*args, **kwargs):
        raise AssertionError("Start drew the exam instead of copying the stored draw")

    monkeypatch.setattr(drawing, "draw_items", refuse)


def test_scheduling_draws_every_students_variant_ahead_and_start_copies_it(exam, people, monkeypatch,
                                                                            django_capture_on_commit_callbacks):
    """predraw_exam stores one draw per student (not staff), equal to drawing now; Start then runs no
    generator and the attempt holds those items in full."""
    assert drawing.predraw_exam(exam.pk) == 2
    draws = {d.user_id: d for d in ExamDraw.objects.filter(exam=exam)}
    assert set(draws) == {people["alice"].pk, people["bob"].pk}
    assert draws[people["alice"].pk].items == drawing.draw_items(exam, people["alice"].pk)
    assert draws[people["alice"].pk].items != draws[people["bob"].pk].items
    _no_drawing(monkeypatch)
    attempt = start_attempt(exam, people["alice"])
    stored = sorted((i.key, i.data) for i in attempt.items.all())
    assert stored == sorted((i["key"], i) for i in draws[people["alice"].pk].items)
    assert attempt.max_total == sum(float(i["points"]) for i in draws[people["alice"].pk].items)
    q = next(i for i in attempt.items.all() if i.kind == "question")
    assert {"params", "prompt", "answer", "solution", "seed", "generator_version"} <= set(q.data["question"])


def test_predraw_is_idempotent_and_skips_started_students(exam, people):
    start_attempt(exam, people["alice"])
    assert drawing.predraw_exam(exam.pk) == 1  # bob only: alice has started
    assert drawing.predraw_exam(exam.pk) == 0
    assert list(ExamDraw.objects.filter(exam=exam).values_list("user_id", flat=True)) == [people["bob"].pk]


def test_scheduling_queues_the_predraw(course, people, kernel_problem, monkeypatch, django_capture_on_commit_callbacks):
    from datetime import timedelta

    from django.utils import timezone

    from exams import tasks

    from .conftest import TEMPLATE

    sent = []
    monkeypatch.setattr(tasks.predraw_exam, "delay", lambda exam_id: sent.append(exam_id))
    template = save_template(course, people["ivy"], TEMPLATE)
    now = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        exam = schedule_exam(course, template, opens_at=now, closes_at=now + timedelta(hours=1),
                             duration_minutes=30)
    assert sent == [exam.pk]


def test_a_student_without_a_stored_draw_still_starts(exam, people):
    """No draw stored (enrolled after scheduling, the task not run yet): Start draws, the same items."""
    expected = drawing.draw_items(exam, people["bob"].pk)
    attempt = start_attempt(exam, people["bob"])
    assert sorted((i.key, i.data) for i in attempt.items.all()) == sorted((i["key"], i) for i in expected)


def test_a_draw_of_another_target_gpu_is_not_used(exam, people, course):
    drawing.predraw_exam(exam.pk)
    ExamDraw.objects.filter(exam=exam).update(target_cc="7.0")
    assert drawing.stored_items(exam, people["alice"]) is None
    drawing.predraw_exam(exam.pk)  # replaced
    assert drawing.stored_items(exam, people["alice"]) is not None


def test_a_draw_of_another_template_is_not_used(exam, people):
    drawing.predraw_exam(exam.pk)
    exam.spec = {**exam.spec, "zones": exam.spec["zones"][:1]}
    assert drawing.stored_items(exam, people["alice"]) is None
    attempt = start_attempt(exam, people["alice"])
    assert {i.kind for i in attempt.items.all()} == {"question"}


def test_a_draw_whose_kernel_version_is_no_longer_current_is_not_used(exam, people, kernel_problem):
    """A package fixed between scheduling and Start: the attempt gets the current version."""
    from problems.models import ProblemVersion

    drawing.predraw_exam(exam.pk)
    old = kernel_problem.current_version
    new = ProblemVersion.objects.create(problem=kernel_problem, number=old.number + 1, files=old.files,
                                        content_hash=old.content_hash[::-1])
    kernel_problem.current_version = new
    kernel_problem.save(update_fields=["current_version"])
    assert drawing.stored_items(exam, people["alice"]) is None
    attempt = start_attempt(exam, people["alice"])
    kernel = next(i for i in attempt.items.all() if i.kind == "kernel")
    assert kernel.data["kernel"]["version_id"] == new.pk


def test_the_draws_of_a_closed_exam_are_dropped(exam, people):
    from datetime import timedelta

    drawing.predraw_exam(exam.pk)
    assert drawing.forget_closed(exam.closes_at - timedelta(seconds=1)) == 0
    assert drawing.forget_closed(exam.closes_at + timedelta(seconds=1)) == 2
    assert not ExamDraw.objects.filter(exam=exam).exists()
