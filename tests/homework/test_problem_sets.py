"""Problem sets: staff assign kernel problems and question families with an opening time, a due date
and a late policy; students see the opened sets on the course page with their status per item."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from grader import grading as grader_grading
from grader.core.results import JudgeResult
from grader.core.verdicts import Verdict
from grader.models import Status, Submission
from homework import actions
from homework.models import LatePolicy, ProblemSet
from homework.services import ItemStatus, item_rows

pytestmark = pytest.mark.django_db


def _graded(user, problem, verdict: Verdict, at):
    submission = Submission.objects.create(user=user, problem_version=problem.current_version, source="x",
                                           status=Status.QUEUED)
    grader_grading.finish_grading(submission.pk, JudgeResult(verdict=verdict))
    Submission.objects.filter(pk=submission.pk).update(created_at=at)


def test_staff_create_a_set_and_add_items_and_students_cannot(client_for, courses, bank_problem):
    now = timezone.now()
    client = client_for("tara")
    response = client.post(reverse("homework:sets", args=["PP-A"]), {
        "title_en": "Week 1", "title_ko": "1주차", "opens_at": (now - timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M"),
        "due_at": (now + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M"), "late_policy": "none"})
    problem_set = ProblemSet.objects.get()
    assert response["Location"] == reverse("homework:set", args=["PP-A", problem_set.pk])
    client.post(reverse("homework:add-item", args=["PP-A", problem_set.pk]), {"problem": bank_problem.slug})
    client.post(reverse("homework:add-item", args=["PP-A", problem_set.pk]), {"family": "occupancy.blocks_per_sm"})
    assert [str(i) for i in problem_set.items.all()] == [bank_problem.slug, "occupancy.blocks_per_sm"]
    student = client_for("stu")
    assert student.post(reverse("homework:add-item", args=["PP-A", problem_set.pk]),
                        {"family": "occupancy.blocks_per_sm"}).status_code == 404
    student.post(reverse("homework:sets", args=["PP-A"]), {"title_en": "Mine"})
    assert ProblemSet.objects.count() == 1 and problem_set.items.count() == 2
    # Staff of another course reach nothing of it.
    assert client_for("tom").get(reverse("homework:set", args=["PP-A", problem_set.pk])).status_code == 404
    # The student sees it open on the course page, with each item's status.
    page = student.get(reverse("courses:course", args=["PP-A"])).content.decode()
    assert "Week 1" in page
    page = student.get(reverse("homework:set", args=["PP-A", problem_set.pk])).content.decode()
    assert bank_problem.title in page and 'data-status="not_started"' in page


def test_a_set_that_has_not_opened_is_hidden_from_students(client_for, courses, people):
    now = timezone.now()
    problem_set = actions.create_set(courses["A"], people["prof"], title_en="Later", opens_at=now + timedelta(days=1),
                                     due_at=now + timedelta(days=2))
    assert client_for("stu").get(reverse("homework:set", args=["PP-A", problem_set.pk])).status_code == 404
    assert "Later" not in client_for("stu").get(reverse("courses:course", args=["PP-A"])).content.decode()
    assert client_for("tara").get(reverse("homework:set", args=["PP-A", problem_set.pk])).status_code == 200


def test_status_per_item_follows_the_due_date_and_the_late_policy(courses, people, bank_problem):
    now = timezone.now()
    opens, due = now - timedelta(days=3), now - timedelta(days=1)
    marked = actions.create_set(courses["A"], people["prof"], title_en="Marked", opens_at=opens, due_at=due,
                                late_policy=LatePolicy.MARKED, late_until=now + timedelta(days=1))
    strict = actions.create_set(courses["A"], people["prof"], title_en="Strict", opens_at=opens, due_at=due)
    for s in (marked, strict):
        actions.add_item(s, problem_slug=bank_problem.slug)
    stu = people["stu"]
    assert item_rows(marked, stu)[0].status is ItemStatus.NOT_STARTED
    _graded(stu, bank_problem, Verdict.WRONG_ANSWER, opens + timedelta(hours=1))
    assert item_rows(strict, stu)[0].status is ItemStatus.TRIED
    _graded(stu, bank_problem, Verdict.ACCEPTED, now - timedelta(hours=1))  # after the due date
    assert item_rows(marked, stu)[0].status is ItemStatus.SOLVED_LATE
    assert item_rows(strict, stu)[0].status is ItemStatus.TRIED  # late work does not count there
    _graded(stu, bank_problem, Verdict.ACCEPTED, due - timedelta(hours=1))
    assert item_rows(strict, stu)[0].status is ItemStatus.SOLVED
    # Work before the set opened counts for nothing.
    fresh = actions.create_set(courses["A"], people["prof"], title_en="New", opens_at=now,
                               due_at=now + timedelta(days=1))
    actions.add_item(fresh, problem_slug=bank_problem.slug)
    assert item_rows(fresh, stu)[0].status is ItemStatus.NOT_STARTED


def test_a_set_is_refused_when_due_before_it_opens(courses, people):
    now = timezone.now()
    with pytest.raises(actions.ProblemSetError):
        actions.create_set(courses["A"], people["prof"], title_en="x", opens_at=now, due_at=now)
    with pytest.raises(actions.ProblemSetError):
        actions.create_set(courses["A"], people["prof"], title_en="x", opens_at=now, due_at=now + timedelta(1),
                           late_policy=LatePolicy.MARKED)


def test_only_published_problems_of_the_course_or_the_bank_can_be_assigned(courses, people, problem):
    now = timezone.now()
    s = actions.create_set(courses["B"], people["bea"], title_en="B", opens_at=now, due_at=now + timedelta(1))
    with pytest.raises(actions.ProblemSetError):
        actions.add_item(s, problem_slug=problem.slug)  # course A's, and unpublished
    with pytest.raises(actions.ProblemSetError):
        actions.add_item(s, family="no.such.family")
