"""A problem set's dashboard: every student of the course against every item (kernel problems from
graded submissions, question families from practice answers), counted in the set's window exactly
as each student's own set page counts; per-item counts, late work, stuck students, a chart, CSV;
for the course's staff only."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from courses.models import Membership, Role
from grader import grading as grader_grading
from grader.core.results import JudgeResult
from grader.core.verdicts import Verdict
from grader.models import Purpose, Submission
from homework import actions, dashboard
from homework.core.standing import ItemStatus
from homework.models import LatePolicy
from homework.services import item_rows
from practice.models import QuestionAttempt, QuestionVariant
from tests.csvlines import csv_lines

pytestmark = pytest.mark.django_db
FAMILY = "occupancy.blocks_per_sm"


def _graded(user, problem, verdict: Verdict, at, purpose=Purpose.STUDENT):
    submission = Submission.objects.create(user=user, problem_version=problem.current_version, source="x",
                                           purpose=purpose)
    grader_grading.finish_grading(submission.pk, JudgeResult(verdict=verdict))
    Submission.objects.filter(pk=submission.pk).update(created_at=at)


def _answered(user, correct: bool, at, after_reveal=False, family=FAMILY, difficulty=1):
    n = QuestionVariant.objects.filter(user=user).count()
    variant = QuestionVariant.objects.create(user=user, family=family, generator_version=1, difficulty=difficulty,
                                             seed=n, slot=f"practice-{n}", params={}, answer={})
    attempt = QuestionAttempt.objects.create(variant=variant, response={}, correct=correct, after_reveal=after_reveal)
    QuestionAttempt.objects.filter(pk=attempt.pk).update(created_at=at)


def _student(course, name):
    user = User.objects.create_user(name)
    Membership.objects.create(course=course, user=user, role=Role.STUDENT)
    return user


@pytest.fixture
def week(courses, people, bank_problem):
    """Course A's set: opened 3 days ago, due a day ago, late work counted until tomorrow; a kernel
    problem and a question family. stu solved both in time (after a wrong try, and work before the
    set opened that does not count); bob solved the kernel late and answered the question right
    only after its key was shown; carol tried the kernel five times; dan did nothing."""
    now = timezone.now()
    opens, due = now - timedelta(days=3), now - timedelta(days=1)
    s = actions.create_set(courses["A"], people["prof"], title_en="Week 1", title_ko="1주차", opens_at=opens,
                           due_at=due, late_policy=LatePolicy.MARKED, late_until=now + timedelta(days=1))
    actions.add_item(s, problem_slug=bank_problem.slug)
    actions.add_item(s, family=FAMILY)
    stu, course = people["stu"], courses["A"]
    bob, carol, _dan = _student(course, "bob"), _student(course, "carol"), _student(course, "dan")
    _graded(stu, bank_problem, Verdict.ACCEPTED, opens - timedelta(hours=1))  # before it opened
    _graded(stu, bank_problem, Verdict.WRONG_ANSWER, opens + timedelta(hours=1))
    _graded(stu, bank_problem, Verdict.ACCEPTED, opens + timedelta(hours=2))
    _answered(stu, True, opens + timedelta(hours=3))
    _graded(bob, bank_problem, Verdict.ACCEPTED, now - timedelta(hours=2))  # after the due date
    _answered(bob, True, opens + timedelta(hours=1), after_reveal=True)
    for k in range(5):
        _graded(carol, bank_problem, Verdict.WRONG_ANSWER, opens + timedelta(hours=k))
    _graded(people["tara"], bank_problem, Verdict.ACCEPTED, opens + timedelta(hours=1))  # staff: not in it
    _graded(stu, bank_problem, Verdict.ACCEPTED, opens + timedelta(hours=1), purpose=Purpose.VALIDATION)
    return s


def test_the_matrix_counts_every_student_on_every_item_as_their_own_page_does(week, people, bank_problem):
    d = dashboard.build(week)
    assert d.students == ["bob", "carol", "dan", "stu"]
    assert [(i.key, i.kind) for i in d.items] == [(bank_problem.slug, "problem"), (FAMILY, "family")]
    statuses = {u: [c.status for c in row] for u, row in d.rows}
    assert statuses == {"bob": [ItemStatus.SOLVED_LATE, ItemStatus.TRIED],
                        "carol": [ItemStatus.TRIED, ItemStatus.NOT_STARTED],
                        "dan": [ItemStatus.NOT_STARTED, ItemStatus.NOT_STARTED],
                        "stu": [ItemStatus.SOLVED, ItemStatus.SOLVED]}
    for username, row in d.rows:  # one rule: the student's own page says the same
        own = [r.status for r in item_rows(week, User.objects.get(username=username))]
        assert own == [c.status for c in row], username
    stu_kernel = dict(d.rows)["stu"][0]
    assert stu_kernel.attempts == 2  # the wrong try and the ACCEPTED; not the one before opening
    assert stu_kernel.first_solved_at == week.opens_at + timedelta(hours=2)
    kernel, family = d.counts
    assert (kernel.solved, kernel.solved_late, kernel.tried, kernel.not_started) == (1, 1, 1, 1)
    assert (family.solved, family.solved_late, family.tried, family.not_started) == (1, 0, 1, 2)
    assert kernel.after_due == 1 and kernel.median_attempts == 1.5  # stu 2, bob 1
    assert [(u, k, n, counted, status) for u, k, n, counted, _at, status in d.late] == [
        ("bob", bank_problem.slug, 1, 1, "solved_late")]
    assert d.stuck == [("carol", bank_problem.slug, 5)]
    # The chart: one bar per item, its segments the four statuses, widths in proportion.
    bar = d.bars[0]
    assert bar.label == bank_problem.slug and [s.name for s in bar.segments] == list(ItemStatus)
    assert len({round(s.width, 6) for s in bar.segments}) == 1  # one student each


def test_the_page_and_csv_exports(week, client_for, bank_problem):
    url = reverse("homework:dashboard", args=["PP-A", week.pk])
    page = client_for("tara").get(url).content.decode()
    assert 'id="set-matrix"' in page and 'id="set-chart"' in page and "<rect" in page
    assert page.count('<td class="c-late"') == 1 and 'id="set-stuck-table"' in page and "carol" in page
    assert 'id="late-table"' in page and 'id="count-again"' in page
    matrix = client_for("prof").get(url + "?csv=matrix")
    assert matrix["Content-Type"].startswith("text/csv")
    lines = csv_lines(matrix)
    assert lines[0] == (f"student,student_id,{bank_problem.slug} status,{bank_problem.slug} attempts,"
                        f"{bank_problem.slug} first_solved_at,{FAMILY} status,{FAMILY} attempts,{FAMILY} first_solved_at")
    assert lines[2] == "carol,,tried,5,,not_started,0,"
    items = csv_lines(client_for("prof").get(url + "?csv=items"))
    assert items[1] == f"{bank_problem.slug},problem,1,1,1,1,1,1.5"
    assert csv_lines(client_for("prof").get(url + "?csv=stuck"))[1] == f"carol,{bank_problem.slug},5"
    assert csv_lines(client_for("prof").get(url + "?csv=late"))[1].startswith(
        f"bob,{bank_problem.slug},1,1,")
    assert client_for("prof").get(url + "?csv=nope").status_code == 404


def test_the_dashboard_is_counted_once_a_minute_unless_counted_again_or_the_set_changes(week, client_for, courses,
                                                                                     bank_problem):
    url = reverse("homework:dashboard", args=["PP-A", week.pk])
    client_for("prof").get(url)
    eve = _student(courses["A"], "eve")
    _graded(eve, bank_problem, Verdict.ACCEPTED, week.opens_at + timedelta(minutes=5))
    assert "eve" not in client_for("prof").get(url + "?csv=matrix").content.decode("utf-8-sig")  # the counted copy
    assert "eve" in client_for("prof").get(url + "?fresh=1").content.decode()
    actions.add_item(week, family="occupancy.limiter")  # a changed set is counted again at once
    assert "occupancy.limiter" in client_for("prof").get(url + "?csv=items").content.decode("utf-8-sig")


def test_a_formula_like_username_is_written_as_text(week, client_for, courses, bank_problem):
    at = _student(courses["A"], "@SUM")
    for k in range(5):
        _graded(at, bank_problem, Verdict.WRONG_ANSWER, week.opens_at + timedelta(minutes=k))
    url = reverse("homework:dashboard", args=["PP-A", week.pk])
    assert "'@SUM,,tried,5," in csv_lines(client_for("prof").get(url + "?csv=matrix"))[1]
    stuck = client_for("prof").get(url + "?csv=stuck")
    assert f"'@SUM,{bank_problem.slug},5" in csv_lines(stuck)
    assert f'"\'@SUM","{bank_problem.slug}","5"' in stuck.content.decode()  # every cell quoted


@pytest.mark.parametrize("who", ["stu", "tom", "bea", "nobody"])
def test_only_the_courses_staff_reach_a_set_dashboard(week, client_for, who):
    """A's student, B's TA, B's instructor (a site Instructor) and an outsider: 404 for the page and
    every export, through course A's URL and through their own course's."""
    for code in ("PP-A", "GA-B"):
        url = reverse("homework:dashboard", args=[code, week.pk])
        for suffix in ("", "?csv=matrix", "?csv=stuck", "?fresh=1"):
            assert client_for(who).get(url + suffix).status_code == 404, (who, code, suffix)


def test_staff_find_the_dashboard_from_the_set_and_the_course_dashboard_and_students_do_not(week, client_for):
    link = reverse("homework:dashboard", args=["PP-A", week.pk])
    assert link in client_for("tara").get(reverse("homework:set", args=["PP-A", week.pk])).content.decode()
    assert link in client_for("tara").get(reverse("homework:sets", args=["PP-A"])).content.decode()
    assert link in client_for("prof").get(reverse("authoring:dashboard", args=["PP-A"])).content.decode()
    assert link not in client_for("stu").get(reverse("homework:set", args=["PP-A", week.pk])).content.decode()
    assert link not in client_for("stu").get(reverse("homework:sets", args=["PP-A"])).content.decode()


def test_the_dashboard_is_in_korean(week, client_for):
    client = client_for("prof")
    client.cookies["django_language"] = "ko"
    page = client.get(reverse("homework:dashboard", args=["PP-A", week.pk]), HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "1주차" in page and "늦게 해결" in page


def test_a_set_without_items_or_students(courses, people, client_for):
    now = timezone.now()
    empty = actions.create_set(courses["B"], people["bea"], title_en="Empty", opens_at=now, due_at=now + timedelta(1))
    d = dashboard.build(empty)
    assert d.items == [] and d.students == [] and d.bars == []
    assert client_for("tom").get(reverse("homework:dashboard", args=["GA-B", empty.pk])).status_code == 200


@pytest.mark.parametrize("lang, words", [("en", "counted at "), ("ko", "KST에 집계")])
def test_the_dashboard_writes_its_times_in_the_one_format(week, client_for, lang, words):
    """"counted at 2026-12-05 20:08 KST" (the tester read "counted at 20:08:05 KST"), as the set's
    opening and due times, and the solved cells' titles, in the reader's zone; the CSV stays ISO 8601."""
    import re

    from tests.timestamps import stamps

    client = client_for("prof")
    client.cookies["wd_tz"] = "Asia/Seoul"
    url = reverse("homework:dashboard", args=["PP-A", week.pk])
    page = client.get(url + "?fresh=1", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    counted = page[:page.index('id="count-again"')].rsplit("<p", 1)[-1]
    assert len(stamps(counted)) == 1 and words in counted
    assert len(stamps(page)) >= 3
    assert re.search(r'title="[^"]*\d{4}-\d{2}-\d{2} \d{2}:\d{2} KST"', page)  # a solved cell
    solved = csv_lines(client.get(url + "?csv=matrix"))[1].split(",")[4]
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+09:00", solved), solved


def test_the_matrix_names_each_students_student_id(week, client_for, courses):
    """The student ID a student gave (학번) stands beside the username in the matrix and its CSV."""
    from accounts.profiles import set_identity

    kim = _student(courses["A"], "kim")
    set_identity(kim, full_name="김민수", email="", student_id="2026123456")
    url = reverse("homework:dashboard", args=["PP-A", week.pk])
    page = client_for("prof").get(url + "?fresh=1").content.decode()
    assert '<th scope="row">kim <span class="muted small student-id">2026123456</span></th>' in page
    lines = csv_lines(client_for("prof").get(url + "?csv=matrix"))
    assert lines[0].startswith("student,student_id,") and any(line.startswith("kim,2026123456,") for line in lines)


def test_the_dashboard_csvs_start_with_a_byte_order_mark(week, client_for):
    """Excel reads a CSV as UTF-8 only with it (a Korean username would be garbled on Korean Windows)."""
    url = reverse("homework:dashboard", args=["PP-A", week.pk])
    for table in dashboard.CSV_TABLES:
        body = client_for("prof").get(url + f"?csv={table}").content
        assert body.startswith(b"\xef\xbb\xbf") and body[3:4] != b"\xef", table
    course = client_for("prof").get(reverse("authoring:dashboard", args=["PP-A"]) + "?csv=stuck").content
    assert course.startswith(b'\xef\xbb\xbf"student",')
