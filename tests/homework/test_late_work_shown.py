"""Late work is shown by one rule (homework.core.standing) everywhere: a set due an hour ago with late
work counted until tomorrow. The question opened from its item says "solved late" where the set's
page does (it said "solved"), and the course page says "due … (late work until …)" (it said "closes"
with the past due date: the second tester's 91-late-set-dashboard)."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from homework import actions
from homework.core.standing import ItemStatus
from homework.models import LatePolicy
from homework.services import item_rows
from practice.models import QuestionAttempt

pytestmark = pytest.mark.django_db
FAMILY = "indexing.warp_lane"


@pytest.fixture
def past_due(courses, people):
    """Course A's "Past-due set": opened yesterday, due an hour ago, late work until tomorrow; one
    question-family item, whose question stu answered right after the due date."""
    now = timezone.now()
    s = actions.create_set(courses["A"], people["prof"], title_en="Past-due set", title_ko="마감 지난 과제",
                           opens_at=now - timedelta(days=1), due_at=now - timedelta(hours=1),
                           late_policy=LatePolicy.MARKED, late_until=now + timedelta(days=1))
    item = actions.add_item(s, family=FAMILY)
    variant = actions.item_question(item, people["stu"])
    QuestionAttempt.objects.create(variant=variant, response={}, correct=True, after_reveal=False)
    return s, variant


def _page(client, url, lang):
    return client.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode()


@pytest.mark.parametrize("lang, badge, note", [
    ("en", "solved late", "late work counts until"),
    ("ko", "늦게 해결", "늦은 제출은"),
])
def test_the_question_says_solved_late_as_the_set_page_does(past_due, people, client_for, lang, badge, note):
    s, variant = past_due
    assert [r.status for r in item_rows(s, people["stu"])] == [ItemStatus.SOLVED_LATE]
    page = _page(client_for("stu"), reverse("practice:question", args=[variant.pk]), lang)
    standing = page.split('id="set-standing"', 1)[1].split("</span>", 1)[0]
    assert badge in standing and "pill-late" in page
    origin = page.split('id="set-origin"', 1)[1].split("</p>", 1)[0]
    assert 'data-phase="late"' in origin and note in origin
    assert timezone.localtime(s.late_until).strftime("%Y-%m-%d %H:%M") in origin


def test_a_right_answer_before_the_due_date_is_solved_and_one_after_the_close_is_not_counted(courses, people,
                                                                                             client_for):
    now = timezone.now()
    s = actions.create_set(courses["A"], people["prof"], title_en="Closed", opens_at=now - timedelta(days=2),
                           due_at=now - timedelta(days=1), late_policy=LatePolicy.NONE)
    variant = actions.item_question(actions.add_item(s, family=FAMILY), people["stu"])
    attempt = QuestionAttempt.objects.create(variant=variant, response={}, correct=True, after_reveal=False)
    url = reverse("practice:question", args=[variant.pk])
    page = _page(client_for("stu"), url, "en")  # answered after the set closed: practice, not the set
    assert "solved, not counted for the set" in page and 'data-phase="closed"' in page
    assert [r.status for r in item_rows(s, people["stu"])] == [ItemStatus.NOT_STARTED]
    QuestionAttempt.objects.filter(pk=attempt.pk).update(created_at=now - timedelta(days=1, hours=1))
    page = _page(client_for("stu"), url, "en")
    assert page.split('id="set-standing"', 1)[1].split("</span>", 1)[0].endswith(">solved")
    assert [r.status for r in item_rows(s, people["stu"])] == [ItemStatus.SOLVED]


@pytest.mark.parametrize("lang, words", [("en", "due {due} (late work until {late})"),
                                         ("ko", "마감 {due} (늦은 제출은 {late}까지)")])
def test_the_course_page_says_due_and_late_work_until(past_due, client_for, lang, words):
    s, _variant = past_due
    fmt = "%Y-%m-%d %H:%M UTC"  # one format site-wide, the zone named (the site's: no browser zone here)
    expected = words.format(due=timezone.localtime(s.due_at).strftime(fmt),
                            late=timezone.localtime(s.late_until).strftime(fmt))
    for url in (reverse("courses:course", args=["PP-A"]), reverse("courses:home")):
        page = _page(client_for("stu"), url, lang)
        assert expected in page, url
        assert "closes " + timezone.localtime(s.due_at).strftime(fmt) not in page
