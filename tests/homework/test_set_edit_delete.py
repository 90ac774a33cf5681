"""A problem set can be edited and deleted after it is made: its titles, window and late policy by the
rule that created it (times read in the reader's zone), and deleting it asks first, saying what goes
(the set and its items) and what stays (the students' work, as practice). The course's TAs and
instructors only; everyone else gets 404, as for the set's other staff pages."""
from __future__ import annotations

from datetime import datetime, timedelta
from datetime import timezone as dt_timezone

import pytest
from django.urls import reverse
from django.utils import timezone

from homework import actions
from homework.models import LatePolicy, ProblemSet, ProblemSetItem

pytestmark = pytest.mark.django_db

SEOUL = "Asia/Seoul"


def _utc(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%d %H:%M").replace(tzinfo=dt_timezone.utc)


@pytest.fixture
def week(courses, people, bank_problem):
    """Course A's "Week 3" (opened, due in the future) with a kernel problem and a question family."""
    s = actions.create_set(courses["A"], people["prof"], title_en="Week 3", title_ko="3주차",
                           opens_at=_utc("2026-12-05 00:00"), due_at=_utc("2026-12-12 14:59"),
                           late_policy=LatePolicy.MARKED, late_until=_utc("2026-12-14 14:59"))
    actions.add_item(s, problem_slug=bank_problem.slug)
    actions.add_item(s, family="occupancy.blocks_per_sm")
    return s


def _form(**changes) -> dict:
    data = {"title_en": "Week 3: indexing", "title_ko": "3주차: 인덱싱", "opens_at": "2026-12-06T09:00",
            "due_at": "2026-12-13T23:59", "late_policy": "marked", "late_until": "2026-12-15T23:59",
            "difficulty": "3"}
    data.update(changes)
    return data


@pytest.mark.parametrize("lang, heading, save", [("en", "Edit Week 3", "Save"), ("ko", "3주차 편집", "저장")])
def test_the_edit_form_shows_the_sets_values_in_the_readers_zone(client_for, week, lang, heading, save):
    """Due 14:59 UTC reads 23:59 in Seoul, in the datetime-local format the browser fills the field with."""
    tara = client_for("tara")
    tara.cookies["wd_tz"] = SEOUL
    page = tara.get(reverse("homework:edit", args=["PP-A", week.pk]), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert heading in page and save in page
    assert 'name="opens_at" value="2026-12-05T09:00"' in page
    assert 'name="due_at" value="2026-12-12T23:59"' in page
    assert 'name="late_until" value="2026-12-14T23:59"' in page
    assert 'value="Week 3"' in page and 'value="3주차"' in page
    assert ("Asia/Seoul" in page and "KST" in page)  # the form says which zone it reads


def test_staff_edit_titles_dates_and_late_policy_read_in_their_zone(client_for, week):
    tara = client_for("tara")
    tara.cookies["wd_tz"] = SEOUL
    response = tara.post(reverse("homework:edit", args=["PP-A", week.pk]), _form())
    assert response.status_code == 302 and response["Location"] == reverse("homework:set", args=["PP-A", week.pk])
    week.refresh_from_db()
    assert (week.title_en, week.title_ko, week.difficulty) == ("Week 3: indexing", "3주차: 인덱싱", 3)
    assert week.opens_at == _utc("2026-12-06 00:00") and week.due_at == _utc("2026-12-13 14:59")
    assert week.late_until == _utc("2026-12-15 14:59")
    assert week.items.count() == 2  # the items stay
    page = tara.get(response["Location"]).content.decode()
    assert "Problem set saved." in page and "Week 3: indexing" in page and "2026-12-13 23:59 KST" in page
    # No late work from now on: the late deadline goes with it.
    tara.post(reverse("homework:edit", args=["PP-A", week.pk]), _form(late_policy="none", late_until=""))
    week.refresh_from_db()
    assert week.late_policy == LatePolicy.NONE and week.late_until is None


@pytest.mark.parametrize("lang, message", [
    ("en", "The due date must be after the opening time."),
    ("ko", "마감 시각은 시작 시각보다 뒤여야 합니다.")])
def test_an_edit_is_checked_as_a_new_set_is(client_for, week, lang, message):
    """Due before it opens, or late work counting without a late deadline after the due date: refused
    with the creation's message, nothing saved."""
    prof = client_for("prof")
    before = ProblemSet.objects.values().get(pk=week.pk)
    url = reverse("homework:edit", args=["PP-A", week.pk])
    response = prof.post(url, _form(due_at="2026-12-01T09:00"), HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 400 and message in response.content.decode()
    response = prof.post(url, _form(late_until="2026-12-10T09:00"), HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 400
    response = prof.post(url, _form(title_en=""), HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 400
    assert ProblemSet.objects.values().get(pk=week.pk) == before


@pytest.mark.parametrize("lang, words", [
    ("en", ["Delete the problem set “Week 3”?", "Its 2 items:", "Vector add", "Blocks per SM",
            "from now on they count as practice", "Delete the problem set"]),
    ("ko", ["“3주차” 과제를 삭제할까요?", "항목 2개:", "연습으로 셈하며", "과제 삭제"])])
def test_delete_asks_first_saying_what_is_lost_and_what_stays(client_for, week, lang, words):
    page = client_for("prof").get(reverse("homework:delete", args=["PP-A", week.pk]),
                                  HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    for w in words:
        assert w in page, w
    assert ProblemSet.objects.filter(pk=week.pk).exists()  # a GET deletes nothing


def test_deleting_removes_the_set_and_items_and_keeps_the_students_work(client_for, people, week):
    from grader.models import Status, Submission
    from homework.services import set_item_of
    from practice.models import QuestionVariant

    stu = people["stu"]
    family_item = week.items.get(family="occupancy.blocks_per_sm")
    variant = actions.item_question(family_item, stu)
    kernel = week.items.get(family="").problem
    submission = Submission.objects.create(user=stu, problem_version=kernel.current_version, source="x",
                                           status=Status.QUEUED)
    assert set_item_of(variant) is not None
    tara = client_for("tara")
    response = tara.post(reverse("homework:delete", args=["PP-A", week.pk]))
    assert response.status_code == 302 and response["Location"] == reverse("homework:sets", args=["PP-A"])
    assert not ProblemSet.objects.filter(pk=week.pk).exists()
    assert not ProblemSetItem.objects.filter(problem_set_id=week.pk).exists()
    assert Submission.objects.filter(pk=submission.pk).exists()
    variant = QuestionVariant.objects.get(pk=variant.pk)
    assert set_item_of(variant) is None  # the question reads as practice now
    page = client_for("stu").get(reverse("practice:question", args=[variant.pk])).content.decode()
    assert "Week 3" not in page
    listing = tara.get(response["Location"]).content.decode()
    assert "Problem set “Week 3” deleted." in listing


def test_the_delete_page_names_the_lms_links_that_stop(client_for, courses, week):
    from lti.models import Platform, ResourceLink

    platform = Platform.objects.create(name="Canvas", issuer="https://canvas.example", client_id="1",
                                       auth_login_url="https://canvas.example/auth",
                                       auth_token_url="https://canvas.example/token",
                                       key_set_url="https://canvas.example/jwks")
    ResourceLink.objects.create(platform=platform, deployment_id="d", resource_link_id="r", course=courses["A"],
                                problem_set=week)
    page = client_for("prof").get(reverse("homework:delete", args=["PP-A", week.pk])).content.decode()
    assert "1 LMS link that opens this set" in page


def test_the_set_page_offers_edit_and_delete_to_staff_only(client_for, week):
    url = reverse("homework:set", args=["PP-A", week.pk])
    for name in ("prof", "tara"):
        page = client_for(name).get(url).content.decode()
        assert reverse("homework:edit", args=["PP-A", week.pk]) in page
        assert reverse("homework:delete", args=["PP-A", week.pk]) in page
    page = client_for("stu").get(url).content.decode()
    assert "/edit/" not in page and "/delete/" not in page


@pytest.mark.parametrize("name", ["stu", "tom", "bea", "nobody"])
def test_no_one_else_edits_or_deletes_a_set(client_for, week, name):
    """A student of the course, and staff of another course: 404 for both pages, GET and POST."""
    client = client_for(name)
    before = ProblemSet.objects.values().get(pk=week.pk)
    for view in ("homework:edit", "homework:delete"):
        url = reverse(view, args=["PP-A", week.pk])
        assert client.get(url).status_code == 404
        assert client.post(url, _form()).status_code == 404
    assert ProblemSet.objects.values().get(pk=week.pk) == before


def test_a_set_is_edited_only_through_its_own_course(client_for, courses, people, week):
    """Course B's instructor asking for course A's set under course B's code: 404."""
    other = actions.create_set(courses["B"], people["bea"], title_en="B's", opens_at=timezone.now(),
                               due_at=timezone.now() + timedelta(days=1))
    bea = client_for("bea")
    assert bea.get(reverse("homework:edit", args=["GA-B", week.pk])).status_code == 404
    assert bea.post(reverse("homework:delete", args=["GA-B", week.pk])).status_code == 404
    assert ProblemSet.objects.filter(pk=week.pk).exists()
    assert bea.get(reverse("homework:edit", args=["GA-B", other.pk])).status_code == 200


def test_logged_out_visitors_are_sent_to_log_in(client, week):
    for view in ("homework:edit", "homework:delete"):
        response = client.post(reverse(view, args=["PP-A", week.pk]), _form())
        assert response.status_code == 302 and reverse("login") in response["Location"]
    assert ProblemSet.objects.filter(pk=week.pk).exists()
