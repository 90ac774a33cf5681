"""The instructor dashboard: counts only the course's students' own graded submissions, finds stuck
students and the time to a first ACCEPTED, draws its charts as SVG and exports each table as CSV."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from authoring import actions, dashboard, progress
from grader.core.results import CompileMessage, CompileResult, Diagnostic, JudgeResult
from grader.core.verdicts import DiagnosticKind, Verdict
from grader.models import Purpose, Status, Submission
from tests.csvlines import csv_lines

pytestmark = pytest.mark.django_db


def _graded(user, version, verdict, at, result=None, purpose=Purpose.STUDENT):
    result = result or JudgeResult(verdict=verdict)
    s = Submission.objects.create(user=user, problem_version=version, source="x", status=Status.GRADED,
                                  verdict=verdict.value, result=result.to_dict(), purpose=purpose)
    Submission.objects.filter(pk=s.pk).update(created_at=at)
    progress.refresh_pair(user.pk, version.problem_id)  # update() writes around the summary's signals
    return s


@pytest.fixture
def published(problem, people):
    run = actions.start_validation(problem.versions.get(), people["prof"])
    Submission.objects.filter(pk__in=run.items.values("submission")).update(status=Status.GRADED)
    for item in run.items.all():
        Submission.objects.filter(pk=item.submission_id).update(verdict=item.expected)
    actions.publish(problem.versions.get(), people["prof"])
    problem.refresh_from_db()
    return problem


def test_the_dashboard_counts_students_stuck_and_time_to_first_accepted(published, people, client_for):
    now = timezone.now()
    version = published.current_version
    stu = people["stu"]
    t0 = now - timedelta(hours=2)
    compile_error = JudgeResult(verdict=Verdict.COMPILE_ERROR, compile=CompileResult(ok=False, messages=[
        CompileMessage(line=3, column=1, severity="error", message="'idx' was not declared in this scope")]))
    _graded(stu, version, Verdict.COMPILE_ERROR, t0, compile_error)
    race = JudgeResult(verdict=Verdict.SYNC_ERROR, diagnostics=[Diagnostic(kind=DiagnosticKind.DIVERGENT_BARRIER, line=11)])
    _graded(stu, version, Verdict.SYNC_ERROR, t0 + timedelta(minutes=5), race)
    _graded(stu, version, Verdict.ACCEPTED, t0 + timedelta(minutes=10))
    # tara (a TA) and her submissions do not count; neither do validation runs (the fixture's).
    _graded(people["tara"], version, Verdict.WRONG_ANSWER, t0)
    d = dashboard.build(published.course)
    assert d.total == 3 and dict(d.verdicts) == {"COMPILE_ERROR": 1, "SYNC_ERROR": 1, "ACCEPTED": 1}
    assert d.first_accepted == [(published.slug, 1, 600.0)]
    assert ("compile", "'…' was not declared in this scope", 1) in d.errors
    assert ("diagnostic", "divergent_barrier (line 11)", 1) in d.errors
    assert sum(n for _, n in d.daily) == 3 and len(d.daily) == dashboard.DAYS
    assert d.stuck == []
    # Five wrong attempts at a problem and none accepted: stuck.
    from django.contrib.auth.models import User
    from courses.models import Membership, Role

    bob = User.objects.create_user("bob")
    Membership.objects.create(course=published.course, user=bob, role=Role.STUDENT)
    for k in range(5):
        _graded(bob, version, Verdict.WRONG_ANSWER, t0 + timedelta(minutes=k))
    assert dashboard.build(published.course).stuck == [("bob", published.slug, 5)]

    page = client_for("tara").get(reverse("authoring:dashboard", args=["PP-A"])).content.decode()
    assert 'id="verdict-chart"' in page and "<rect" in page and 'id="stuck-table"' in page and "bob" in page
    # The page says what it counts: the course's problems and its sets' (not all practice on the bank).
    assert 'id="dashboard-scope"' in page and "problems of its problem sets" in page
    csv = client_for("prof").get(reverse("authoring:dashboard", args=["PP-A"]) + "?csv=stuck")
    assert csv["Content-Type"].startswith("text/csv")
    assert csv_lines(csv) == ["student,problem,attempts", f"bob,{published.slug},5"]
    per_problem = client_for("prof").get(reverse("authoring:problem-dashboard", args=["PP-A", published.slug]))
    assert per_problem.status_code == 200 and 'id="dashboard-scope"' not in per_problem.content.decode()


def test_the_dashboard_is_counted_once_a_minute_and_counted_again_on_request(published, people, client_for):
    """The page and its CSV tables read one counted copy (it says when it was counted); ?fresh=1 counts again."""
    version = published.current_version
    now = timezone.now()
    _graded(people["stu"], version, Verdict.WRONG_ANSWER, now - timedelta(minutes=3))
    url = reverse("authoring:dashboard", args=["PP-A"])
    first = client_for("prof").get(url).content.decode()
    assert "1 graded submission" in first and 'id="count-again"' in first
    _graded(people["stu"], version, Verdict.ACCEPTED, now - timedelta(minutes=1))
    assert "1 graded submission" in client_for("prof").get(url).content.decode()  # the counted copy
    verdicts = csv_lines(client_for("prof").get(url + "?csv=verdicts"))
    assert verdicts == ["verdict,submissions", "WRONG_ANSWER,1"]
    again = client_for("prof").get(url + "?fresh=1").content.decode()
    assert "2 graded submissions" in again
    verdicts = csv_lines(client_for("prof").get(url + "?csv=verdicts"))
    assert sorted(verdicts[1:]) == ["ACCEPTED,1", "WRONG_ANSWER,1"]


@pytest.mark.parametrize("who", ["stu", "tom", "bea", "nobody"])
def test_only_the_courses_staff_see_its_dashboard(client_for, problem, who):
    for url in (reverse("authoring:dashboard", args=["PP-A"]), reverse("authoring:dashboard", args=["PP-A"]) + "?csv=stuck",
                reverse("authoring:problem-dashboard", args=["PP-A", problem.slug])):
        assert client_for(who).get(url).status_code == 404


def test_a_dashboard_csv_writes_a_formula_like_username_as_text(published, people, client_for):
    """A stuck student whose username starts with "@" (Django allows it) is exported as "'@...", not a formula."""
    from django.contrib.auth.models import User
    from courses.models import Membership, Role

    at = User.objects.create_user("@SUM")
    Membership.objects.create(course=published.course, user=at, role=Role.STUDENT)
    for k in range(5):
        _graded(at, published.current_version, Verdict.WRONG_ANSWER, timezone.now() - timedelta(minutes=k))
    csv = client_for("prof").get(reverse("authoring:dashboard", args=["PP-A"]) + "?csv=stuck&fresh=1")
    assert f"'@SUM,{published.slug},5" in csv_lines(csv)
    assert f'"\'@SUM","{published.slug}","5"' in csv.content.decode()  # every cell quoted


def test_the_course_dashboard_counts_its_students_practice_per_topic_and_difficulty(courses, people, client_for):
    """Per topic and difficulty: the course's students who answered a question of it, who answered
    one right before its key was shown, and the answers; staff and outsiders do not count."""
    from django.contrib.auth.models import User

    from courses.models import Membership, Role
    from practice.models import QuestionAttempt, QuestionVariant

    def answered(user, family, difficulty, *results):
        n = QuestionVariant.objects.filter(user=user).count()
        variant = QuestionVariant.objects.create(user=user, family=family, generator_version=1, difficulty=difficulty,
                                                 seed=n, slot=f"practice-{n}", params={}, answer={})
        for correct, after_reveal in results:
            QuestionAttempt.objects.create(variant=variant, response={}, correct=correct, after_reveal=after_reveal)

    bob = User.objects.create_user("bob")
    Membership.objects.create(course=courses["A"], user=bob, role=Role.STUDENT)
    answered(people["stu"], "occupancy.blocks_per_sm", 1, (False, False), (True, False))
    answered(people["stu"], "occupancy.limiter", 2, (True, False))
    answered(bob, "occupancy.limiter", 2, (False, False), (False, False), (False, False), (True, True))
    answered(bob, "occupancy.blocks_per_sm", 1, (False, False))
    answered(people["tara"], "occupancy.limiter", 1, (True, False))  # a TA: not a student
    answered(people["nobody"], "synchronization.classify", 1, (True, False))  # not in the course
    d = dashboard.build(courses["A"])
    rows = {(t.topic, t.difficulty): (t.attempted, t.solved, t.attempts) for t in d.topics}
    assert rows[("occupancy", None)] == (2, 1, 8)
    assert rows[("occupancy", 1)] == (2, 1, 3) and rows[("occupancy", 2)] == (2, 1, 5)
    assert rows[("occupancy", 3)] == (0, 0, 0) and rows[("synchronization", None)] == (0, 0, 0)
    occupancy = next(b for b in d.topic_bars if b.label == "occupancy")
    assert [(s.name, s.value) for s in occupancy.segments] == [("solved", 1), ("tried", 1)]
    url = reverse("authoring:dashboard", args=["PP-A"])
    page = client_for("tara").get(url).content.decode()
    assert 'id="topic-chart"' in page and 'data-topic="occupancy"' in page
    csv = csv_lines(client_for("prof").get(url + "?csv=practice"))
    assert csv[0] == "topic,difficulty,students_attempted,students_solved,attempts"
    assert "occupancy,all,2,1,8" in csv and "occupancy,2,2,1,5" in csv
    for who in ("stu", "tom", "bea", "nobody"):
        assert client_for(who).get(url + "?csv=practice").status_code == 404
