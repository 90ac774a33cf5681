"""Exam work is not practice: a kernel submitted in an exam that drew a problem set's problem counts
neither for the set (the student's page, the set's dashboard and its CSV), nor in the course's and the
problem's dashboards (their ProblemStats / ProblemDay / ProblemError summaries), nor in a rebuild or
the migration that recounted them (the second tester's 42-set-dashboard, 43-set-student4 and
45-course-dashboard: "✓ 3" on the dashboard where the student's own page said "tried", "6 graded
submissions" of which 4 were exam submissions)."""
from __future__ import annotations

import importlib
from datetime import timedelta

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from authoring import dashboard as course_dashboard
from authoring import progress
from authoring.models import ProblemDay, ProblemError, ProblemStats
from courses.models import Membership, Role
from grader import grading as grader_grading
from grader.core.results import CompileMessage, CompileResult, JudgeResult
from grader.core.verdicts import Verdict
from grader.models import Submission
from homework import actions, dashboard
from homework.core.standing import ItemStatus
from homework.models import LatePolicy
from homework.services import item_rows
from tests.csvlines import csv_lines

pytestmark = pytest.mark.django_db


def _exam(course, now):
    """An exam of `course` (its rows only: what a submission's `exam` points to)."""
    from exams.models import Exam, ExamTemplate

    template = ExamTemplate.objects.create(course=course, title="Midterm", data={"zones": []})
    return Exam.objects.create(course=course, template=template, title="Midterm", spec={"zones": []},
                               opens_at=now - timedelta(hours=3), closes_at=now, duration_minutes=60)


def _graded(user, problem, verdict: Verdict, at, exam=None, result=None):
    """A graded submission through the write path (finish_grading, which keeps the summaries), dated `at`."""
    submission = Submission.objects.create(user=user, problem_version=problem.current_version, source="x", exam=exam)
    grader_grading.finish_grading(submission.pk, result or JudgeResult(verdict=verdict))
    Submission.objects.filter(pk=submission.pk).update(created_at=at)
    return submission


def _student(course, name):
    user = User.objects.create_user(name)
    Membership.objects.create(course=course, user=user, role=Role.STUDENT)
    return user


COMPILE_ERROR = JudgeResult(verdict=Verdict.COMPILE_ERROR, compile=CompileResult(ok=False, messages=[
    CompileMessage(line=3, column=1, severity="error", message="'exam_only' was not declared in this scope")]))


@pytest.fixture
def homework(courses, people, bank_problem):
    """Course A's Homework 1 (opened 3 hours ago, due in a day) with the bank's vector-add-tail, and an
    exam of the course that drew it: stu tried it once in practice (wrong) and solved it in the exam
    (a compile error first); bob's only work is an exam submission (wrong), after a reset detached it
    from its item (`exam` kept, `exam_item` None)."""
    now = timezone.now()
    opens = now - timedelta(hours=3)
    s = actions.create_set(courses["A"], people["prof"], title_en="Homework 1", opens_at=opens,
                           due_at=now + timedelta(days=1), late_policy=LatePolicy.NONE)
    actions.add_item(s, problem_slug=bank_problem.slug)
    exam = _exam(courses["A"], now)
    stu, bob = people["stu"], _student(courses["A"], "bob")
    _graded(stu, bank_problem, Verdict.WRONG_ANSWER, opens + timedelta(minutes=10))
    _graded(stu, bank_problem, Verdict.COMPILE_ERROR, opens + timedelta(minutes=20), exam=exam, result=COMPILE_ERROR)
    _graded(stu, bank_problem, Verdict.ACCEPTED, opens + timedelta(minutes=30), exam=exam)
    _graded(bob, bank_problem, Verdict.WRONG_ANSWER, opens + timedelta(minutes=40), exam=exam)
    return s


def test_the_set_dashboard_counts_no_exam_work_and_agrees_with_the_students_pages(homework, people, client_for,
                                                                                  bank_problem):
    d = dashboard.build(homework)
    cells = {u: row[0] for u, row in d.rows}
    assert cells["stu"].status is ItemStatus.TRIED and cells["stu"].attempts == 1
    assert cells["stu"].first_solved_at is None
    assert cells["bob"].status is ItemStatus.NOT_STARTED and cells["bob"].attempts == 0
    for username in ("stu", "bob"):  # one rule: each student's own page says the same
        own = item_rows(homework, User.objects.get(username=username))[0].status
        assert own is cells[username].status, username
    counts = d.counts[0]
    assert (counts.solved, counts.tried, counts.not_started) == (0, 1, 1)
    csv = client_for("prof").get(reverse("homework:dashboard", args=["PP-A", homework.pk]) + "?csv=matrix")
    lines = csv_lines(csv)
    assert "stu,,tried,1," in lines and "bob,,not_started,0," in lines  # no first_solved_at from the exam


def test_the_course_and_problem_dashboards_count_no_exam_work(homework, people, bank_problem, client_for):
    d = course_dashboard.build(homework.course)
    assert d.total == 1 and dict(d.verdicts) == {"WRONG_ANSWER": 1}
    assert d.first_accepted == []  # the only ACCEPTED was in the exam
    assert not any("exam_only" in text for _kind, text, _n in d.errors)
    assert sum(n for _, n in d.daily) == 1
    stats = ProblemStats.objects.get(user=people["stu"], problem=bank_problem)
    assert stats.attempts == 1 and stats.first_accepted_at is None and stats.best_verdict == "WRONG_ANSWER"
    assert not ProblemStats.objects.filter(user__username="bob").exists()
    assert not ProblemDay.objects.filter(user__username="bob").exists()
    assert not ProblemError.objects.exists()
    per_problem = course_dashboard.build(homework.course, bank_problem)
    assert per_problem.total == 1
    page = client_for("prof").get(reverse("authoring:dashboard", args=["PP-A"])).content.decode()
    assert 'id="dashboard-no-exams"' in page and reverse("exams:course", args=[homework.course.pk]) in page


def test_the_course_dashboard_says_exam_work_is_not_counted_in_korean(homework, client_for):
    client = client_for("prof")
    client.cookies["django_language"] = "ko"
    page = client.get(reverse("authoring:dashboard", args=["PP-A"]), HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "시험에서 제출한 커널" in page


def test_a_rebuild_and_the_recount_migration_leave_exam_work_out(homework, people, bank_problem):
    """Summary rows written by the old rule (exam work counted) are recounted by migration 0006, and a
    rebuild (manage.py rebuild_problem_stats) agrees."""
    # What the old rule stored: every STUDENT submission of the pair, exam work included.
    ProblemStats.objects.all().delete()
    ProblemStats.objects.create(user=people["stu"], problem=bank_problem, attempts=3, best_verdict="ACCEPTED",
                                n_accepted=1, n_wrong_answer=1, n_compile_error=1)
    ProblemStats.objects.create(user=User.objects.get(username="bob"), problem=bank_problem, attempts=1,
                                best_verdict="WRONG_ANSWER", n_wrong_answer=1)
    migration = importlib.import_module("authoring.migrations.0006_problem_stats_without_exam_work")
    migration.recount(apps, None)
    rows = {u: (a, v) for u, a, v in ProblemStats.objects.values_list("user__username", "attempts", "best_verdict")}
    assert rows == {"stu": (1, "WRONG_ANSWER")}
    assert not ProblemError.objects.exists()
    assert progress.rebuild() == 1
    assert {u: (a, v) for u, a, v in ProblemStats.objects.values_list("user__username", "attempts",
                                                                        "best_verdict")} == rows


def test_an_exam_verdict_or_regrade_recounts_nothing(homework, people, bank_problem, monkeypatch):
    """A verdict stored on exam work (an exam regrade applying one, say) does not recount the pair: an
    exam's rush of verdicts costs no summary upkeep, and the practice-only row stays as it is."""
    exam_sub = Submission.objects.filter(user=people["stu"], exam__isnull=False, verdict="ACCEPTED").get()
    refreshed = []
    monkeypatch.setattr(progress, "refresh_pair", lambda *pair: refreshed.append(pair))
    exam_sub.verdict = "WRONG_ANSWER"
    exam_sub.save(update_fields=["verdict"])
    exam_sub.delete()
    assert refreshed == []
    practice = Submission.objects.filter(user=people["stu"], exam__isnull=True).get()
    practice.save(update_fields=["verdict"])
    assert refreshed == [(people["stu"].pk, bank_problem.pk)]
