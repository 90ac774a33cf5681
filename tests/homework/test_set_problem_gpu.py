"""A bank problem opened from a course's problem set is graded for the course's target GPU: the set's
item links it with ?course=<code>, the submit form carries it, the submission records the course and
the judge reports its resource card and occupancy for that compute capability (the second tester's
submission #5 of vector-add-tail said "Compute capability 9.0" in a course about an 8.6 GPU)."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from grader import tasks
from grader.models import Submission
from grader.tasks import course_target_cc
from homework import actions

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("not_sent")]


@pytest.fixture
def week(courses, people, bank_problem):
    """Course A (target GPU 8.6, the site's default is 9.0) assigns the bank's vector-add-tail."""
    courses["A"].target_cc = "8.6"
    courses["A"].save(update_fields=["target_cc"])
    now = timezone.now()
    s = actions.create_set(courses["A"], people["prof"], title_en="Homework 1", opens_at=now - timedelta(hours=1),
                           due_at=now + timedelta(days=1))
    actions.add_item(s, problem_slug=bank_problem.slug)
    return s


def _submit(client, problem, course_code=None, lang="en"):
    """Open the problem as the set's item links it, then post its own form (hidden fields included)."""
    url = reverse("problems:detail", args=[problem.slug]) + (f"?course={course_code}" if course_code else "")
    page = client.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    form = re.search(r'<form method="post" action="[^"]*" id="submit-form".*?</form>', page, re.S).group(0)
    hidden = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))
    hidden.pop("csrfmiddlewaretoken", None)
    response = client.post(reverse("problems:detail", args=[problem.slug]),
                           {**hidden, "source": problem.current_version.package().solution})
    assert response.status_code == 302, response.content.decode()[:500]
    return page, Submission.objects.latest("pk")


@pytest.mark.parametrize("lang, note", [("en", "compute capability 8.6"), ("ko", "연산 능력(compute capability) 8.6")])
def test_the_sets_item_opens_the_bank_problem_for_the_course(week, bank_problem, client_for, lang, note):
    set_page = client_for("stu").get(reverse("homework:set", args=["PP-A", week.pk])).content.decode()
    link = reverse("problems:detail", args=[bank_problem.slug]) + f"?course=PP-A&amp;set={week.pk}"
    assert f'href="{link}"' in set_page
    page, submission = _submit(client_for("stu"), bank_problem, "PP-A", lang)
    opened = page.split('id="opened-for"', 1)[1].split("</p>", 1)[0]
    assert note in opened and "Parallel Programming" in opened
    assert submission.course_id == week.course_id and course_target_cc(submission) == "8.6"
    # "Edit and resubmit" keeps the course.
    sub_page = client_for("stu").get(reverse("grader:submission", args=[submission.pk])).content.decode()
    assert f"?from={submission.pk}&amp;course=PP-A" in sub_page


def test_the_korean_note_is_korean(week, bank_problem, client_for):
    page = client_for("stu").get(reverse("problems:detail", args=[bank_problem.slug]) + "?course=PP-A",
                                 HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "대상 GPU" in page.split('id="opened-for"', 1)[1].split("</p>", 1)[0]


def test_a_course_the_student_is_not_in_is_ignored(week, bank_problem, client_for, people, courses):
    """Someone outside course A (and an unknown code) practises the bank problem for the site's GPU."""
    _page, submission = _submit(client_for("nobody"), bank_problem, "PP-A")
    assert submission.course_id is None and course_target_cc(submission) == ""
    _page, submission = _submit(client_for("stu"), bank_problem, "NO-SUCH")
    assert submission.course_id is None
    _page, submission = _submit(client_for("stu"), bank_problem)  # opened from the bank's list
    assert submission.course_id is None and course_target_cc(submission) == ""


def test_the_judge_reports_the_courses_compute_capability(week, bank_problem, client_for):
    """Graded through the task (the emulator), the stored resource report is for cc 8.6, not 9.0."""
    _page, submission = _submit(client_for("stu"), bank_problem, "PP-A")
    assert tasks.grade_submission.apply((submission.pk,)).get() == "ACCEPTED"
    submission.refresh_from_db()
    assert submission.result["resources"]["compute_capability"] == "8.6"
    page = client_for("stu").get(reverse("grader:submission", args=[submission.pk])).content.decode()
    assert re.search(r"Compute capability</\w+>\s*<\w+[^>]*>\s*8\.6", page), "the resource card says 8.6"


def test_an_authors_rejudge_grades_the_copy_for_the_same_gpu(week, bank_problem, client_for, people):
    from grader.rejudging import create_rejudge_copy

    _page, submission = _submit(client_for("stu"), bank_problem, "PP-A")
    copy = create_rejudge_copy(people["bea"], bank_problem.current_version, submission)
    assert copy.course_id == week.course_id and course_target_cc(copy) == "8.6"


def _api(people, name):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(people[name])
    return client


def test_the_api_grades_a_bank_problem_for_the_named_course(week, bank_problem, people):
    """POST /api/v1/problems/<slug>/submissions with "course": the course's GPU, as from its problem set;
    a course the caller is not in is a 400 that names it, and nothing is saved."""
    source = bank_problem.current_version.package().solution
    url = f"/api/v1/problems/{bank_problem.slug}/submissions"
    response = _api(people, "stu").post(url, {"source": source, "course": "PP-A"}, format="json")
    assert response.status_code == 201, response.content
    submission = Submission.objects.get(pk=response.json()["id"])
    assert submission.course_id == week.course_id and course_target_cc(submission) == "8.6"
    before = Submission.objects.count()
    for who, code in (("nobody", "PP-A"), ("stu", "NO-SUCH")):
        response = _api(people, who).post(url, {"source": source, "course": code}, format="json")
        assert response.status_code == 400 and code in response.json()["error"], response.content
    response = _api(people, "stu").post(url, {"source": source, "course": "NO-SUCH"}, format="json",
                                        HTTP_ACCEPT_LANGUAGE="ko")
    assert "NO-SUCH" in response.json()["error"] and "강좌" in response.json()["error"]
    assert Submission.objects.count() == before
    response = _api(people, "stu").post(url, {"source": source}, format="json")
    assert Submission.objects.get(pk=response.json()["id"]).course_id is None


def test_the_api_list_shows_practice_only(week, bank_problem, people):
    """GET /api/v1/submissions: an author's validation runs and rejudge copies are not their practice."""
    from grader.models import Purpose

    version = bank_problem.current_version
    mine = Submission.objects.create(user=people["bea"], problem_version=version, source="x")
    for purpose in (Purpose.VALIDATION, Purpose.REJUDGE):
        Submission.objects.create(user=people["bea"], problem_version=version, source="x", purpose=purpose)
    listed = [s["id"] for s in _api(people, "bea").get("/api/v1/submissions").json()["submissions"]]
    assert listed == [mine.pk]


def _current_nav(page: str) -> list[str]:
    """The labels of the header's links marked aria-current."""
    nav = page.split('class="site-nav', 1)[-1].split("</nav>", 1)[0] if 'class="site-nav' in page else page
    return re.findall(r'aria-current="page"[^>]*>([^<]+)<', nav)


@pytest.mark.parametrize("lang, crumb", [("en", "Problem sets"), ("ko", "과제")])
def test_a_kernel_item_links_back_to_its_set(week, bank_problem, client_for, lang, crumb):
    """The set's item carries ?set=<id>: the problem's breadcrumbs lead back to the course and the set,
    and the header marks Courses, not Problems. A forged or stale set id is ignored."""
    set_page = client_for("stu").get(reverse("homework:set", args=["PP-A", week.pk])).content.decode()
    link = re.search(r'href="(/problems/vector-add-tail/\?[^"]+)"', set_page).group(1).replace("&amp;", "&")
    assert f"set={week.pk}" in link and "course=PP-A" in link
    page = client_for("stu").get(link, HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    crumbs = page.split('class="breadcrumbs"', 1)[1].split("</nav>", 1)[0]
    set_url = reverse("homework:set", args=["PP-A", week.pk])
    assert f'href="{set_url}" id="back-to-set"' in crumbs and "Homework 1" in crumbs and crumb in crumbs
    assert _current_nav(page) == [("Courses" if lang == "en" else "강좌")]
    # Someone outside the course, another set's id, or junk: the problem's own breadcrumbs.
    for who, query in (("nobody", f"?set={week.pk}"), ("stu", f"?set={week.pk + 1000}"), ("stu", "?set=x")):
        page = client_for(who).get(reverse("problems:detail", args=[bank_problem.slug]) + query).content.decode()
        assert 'id="back-to-set"' not in page
        assert _current_nav(page) == ["Problems"]


def test_a_set_question_marks_courses_in_the_header(courses, people, client_for):
    """A question opened from a set's family item is the course's work: the header marks Courses."""
    from datetime import timedelta as td

    now = timezone.now()
    s = actions.create_set(courses["A"], people["prof"], title_en="Week 2", opens_at=now - td(hours=1),
                           due_at=now + td(days=1))
    item = actions.add_item(s, family="occupancy.blocks_per_sm")
    client = client_for("stu")
    page = client.get(reverse("homework:item-question", args=["PP-A", s.pk, item.pk]), follow=True).content.decode()
    assert 'id="back-to-set"' in page and _current_nav(page) == ["Courses"]
    page = client.get(reverse("practice:home")).content.decode()
    assert _current_nav(page) == ["Practice"]
