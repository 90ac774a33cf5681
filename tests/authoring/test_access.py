"""Authoring is for a course's TAs and instructors only: staff of another course, the course's own
students and outsiders get 404 on every page, download and run, and never see solutions."""
from __future__ import annotations

import pytest
from django.urls import reverse

from authoring import actions
from grader.models import Submission

pytestmark = pytest.mark.django_db

OUTSIDERS = ["stu", "tom", "bea", "nobody"]  # A's student, B's TA, B's instructor (site Instructor), no course


def _urls(problem, run_id: int, bank_slug: str = "vector-add-tail", rejudge_id: int = 1) -> list[tuple[str, str]]:
    slug = problem.slug
    return [
        ("get", reverse("authoring:index", args=["PP-A"])),
        ("get", reverse("authoring:edit", args=["PP-A", slug])),
        ("get", reverse("authoring:history", args=["PP-A", slug]) + "?a=1&b=1"),
        ("get", reverse("authoring:download", args=["PP-A", slug])),
        ("get", reverse("authoring:download-version", args=["PP-A", slug, 1])),
        ("get", reverse("authoring:run", args=["PP-A", slug, run_id])),
        ("post", reverse("authoring:edit", args=["PP-A", slug])),
        ("post", reverse("authoring:validate", args=["PP-A", slug, 1])),
        ("post", reverse("authoring:publish", args=["PP-A", slug, 1])),
        ("post", reverse("authoring:unpublish", args=["PP-A", slug])),
        ("post", reverse("authoring:exams-only", args=["PP-A", slug, 1])),
        ("post", reverse("authoring:preview", args=["PP-A"])),
        ("post", reverse("authoring:new", args=["PP-A"])),
        ("post", reverse("authoring:upload", args=["PP-A"])),
        ("post", reverse("authoring:copy", args=["PP-A", bank_slug])),
        ("get", reverse("authoring:yaml-form", args=["PP-A", slug])),
        ("post", reverse("authoring:yaml-form", args=["PP-A", slug])),
        ("get", reverse("authoring:as-student", args=["PP-A", slug, 1])),
        ("get", reverse("authoring:rejudge", args=["PP-A", slug])),
        ("post", reverse("authoring:rejudge", args=["PP-A", slug])),
        ("get", reverse("authoring:rejudge-run", args=["PP-A", slug, rejudge_id])),
        ("post", reverse("authoring:rejudge-run", args=["PP-A", slug, rejudge_id])),
        ("get", reverse("authoring:dashboard", args=["PP-A"])),
        ("get", reverse("authoring:problem-dashboard", args=["PP-A", slug])),
        ("get", reverse("authoring:family-preview", args=["PP-A"])),
    ]


@pytest.fixture
def rejudge_run(problem, people):
    """A rejudge preview of course A's problem (one graded submission of its student, copied)."""
    from grader import grading
    from grader.core.results import JudgeResult
    from grader.core.verdicts import Verdict
    from grader.models import Status

    original = Submission.objects.create(user=people["stu"], problem_version=problem.versions.get(), source="// mine",
                                         status=Status.QUEUED)
    grading.finish_grading(original.pk, JudgeResult(verdict=Verdict.WRONG_ANSWER))
    return actions.start_rejudge(problem, people["prof"], problem.versions.get(), "all")


@pytest.mark.parametrize("who", OUTSIDERS)
def test_no_one_but_the_courses_staff_reaches_any_authoring_page(client_for, problem, people, who, bank_problem,
                                                                 rejudge_run):
    from authoring.models import RejudgeRun
    from problems.models import Problem

    run = actions.start_validation(problem.versions.get(), people["prof"])
    client = client_for(who)
    for method, url in _urls(problem, run.pk, bank_problem.slug, rejudge_run.pk):
        response = getattr(client, method)(url)
        assert response.status_code == 404, (who, method, url, response.status_code)
    assert problem.versions.count() == 1 and problem.is_published is False
    # Nothing was made: no copy of the bank's problem, no second rejudge, the preview not applied.
    assert Problem.objects.count() == 2 and RejudgeRun.objects.get().applied_at is None


@pytest.mark.parametrize("who", ["prof", "tara"])
def test_the_courses_staff_reach_them(client_for, problem, people, who, bank_problem, rejudge_run):
    run = actions.start_validation(problem.versions.get(), people["prof"])
    client = client_for(who)
    for method, url in _urls(problem, run.pk, bank_problem.slug, rejudge_run.pk):
        if method == "get":
            assert client.get(url).status_code == 200, url
    response = client.post(reverse("authoring:copy", args=["PP-A", bank_problem.slug]), {"slug": f"copy-by-{who}"})
    assert response.status_code == 302 and problem.course.problems.filter(slug=f"copy-by-{who}").exists()


def test_staff_of_course_b_cannot_use_their_own_course_url_to_reach_course_as_problem(client_for, problem, people,
                                                                                     bank_problem, rejudge_run):
    from problems.models import Problem

    run = actions.start_validation(problem.versions.get(), people["prof"])
    client = client_for("tom")
    # Course B's own pages (its index, new, upload, preview, dashboards, families, copying the bank) are theirs.
    own = ("/new/", "/upload/", "/preview/", "/copy/", "/dashboard/", "/families/")
    for method, url in _urls(problem, run.pk, bank_problem.slug, rejudge_run.pk):
        url = url.replace("/PP-A/", "/GA-B/")
        if any(part in url for part in own) or url.endswith("/problems/"):
            continue
        assert getattr(client, method)(url).status_code == 404, url
    # Course A's problem is not the bank's: "copy to my course" does not take it into course B.
    response = client.post(reverse("authoring:copy", args=["GA-B", problem.slug]), {"slug": "stolen-copy"})
    assert response.status_code == 404 and not Problem.objects.filter(slug="stolen-copy").exists()


@pytest.mark.parametrize("who", OUTSIDERS)
def test_validation_submissions_show_their_solutions_to_the_courses_staff_only(client_for, problem, people, who):
    """A validation submission's source is the reference solution: its page, live partial and API are
    404 for everyone but the course's staff, even for a site instructor of another course."""
    actions.start_validation(problem.versions.get(), people["prof"])
    submission = Submission.objects.get(validation_item__name="solution.cu")
    client = client_for(who)
    assert client.get(reverse("grader:submission", args=[submission.pk])).status_code == 404
    assert client.get(reverse("grader:submission-live", args=[submission.pk])).status_code == 404
    assert client.get(f"/api/v1/submissions/{submission.pk}").status_code == 404
    assert client_for("tara").get(reverse("grader:submission", args=[submission.pk])).status_code == 200


def test_course_problems_are_not_in_the_public_list_or_api(client_for, problem, people):
    from django.test import Client

    assert problem.slug not in Client().get("/api/v1/problems").content.decode()
    response = client_for("nobody").post(f"/api/v1/problems/{problem.slug}/submissions",
                                         {"source": "__global__ void scale() {}"}, content_type="application/json")
    assert response.status_code in (401, 403, 404)


def _dashboard_urls(course_code: str, set_id: int, slug: str) -> list[str]:
    """Every dashboard page of course A and every CSV table of each (the course's, a problem's, a
    problem set's), as reached through `course_code`'s URLs."""
    from authoring import dashboard
    from homework import dashboard as set_dashboard

    course = reverse("authoring:dashboard", args=[course_code])
    problem = reverse("authoring:problem-dashboard", args=[course_code, slug])
    problem_set = reverse("homework:dashboard", args=[course_code, set_id])
    return ([course, course + "?fresh=1", problem, problem_set, problem_set + "?fresh=1"]
            + [course + f"?csv={t}" for t in dashboard.CSV_TABLES] + [problem + f"?csv={t}" for t in dashboard.CSV_TABLES]
            + [problem_set + f"?csv={t}" for t in set_dashboard.CSV_TABLES])


@pytest.fixture
def course_a_set(courses, people, bank_problem):
    from datetime import timedelta

    from django.utils import timezone

    from homework import actions as homework

    now = timezone.now()
    s = homework.create_set(courses["A"], people["prof"], title_en="Week", opens_at=now - timedelta(days=1),
                            due_at=now + timedelta(days=1))
    homework.add_item(s, problem_slug=bank_problem.slug)
    homework.add_item(s, family="occupancy.blocks_per_sm")
    return s


@pytest.mark.parametrize("who", OUTSIDERS)
def test_no_one_but_the_courses_staff_reaches_any_dashboard_or_export(client_for, course_a_set, bank_problem, who):
    """The course's, a problem's and a problem set's dashboards and all their CSV tables: 404 for the
    course's students, other courses' staff and outsiders, through course A's URLs and their own."""
    client = client_for(who)
    for url in _dashboard_urls("PP-A", course_a_set.pk, bank_problem.slug):
        assert client.get(url).status_code == 404, (who, url)
    for url in _dashboard_urls("GA-B", course_a_set.pk, bank_problem.slug):  # B's own dashboard is B staff's
        if "/sets/" in url or bank_problem.slug in url:
            assert client.get(url).status_code == 404, (who, url)


@pytest.mark.parametrize("who", ["prof", "tara"])
def test_the_courses_staff_reach_every_dashboard_and_export(client_for, course_a_set, bank_problem, who):
    client = client_for(who)
    for url in _dashboard_urls("PP-A", course_a_set.pk, bank_problem.slug):
        response = client.get(url)
        assert response.status_code == 200, url
        if "csv=" in url:
            assert response["Content-Type"].startswith("text/csv"), url
