"""The tester's defect (shots 39 and 41): "Show the answer" before any try showed the "Correct answer"
column with every cell blank, the key only inside the worked solution; and the note under the
question said "no longer counts as solved" of a question that was never solved.

The key column is read out of the answer table itself (the worked solution may contain the same
numbers, which is how the blank column slipped past the older tests).
"""
import html as htmllib
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from practice import actions as practice
from practice.core.questions import FAMILIES

pytestmark = pytest.mark.django_db


@pytest.fixture
def student(django_user_model):
    return django_user_model.objects.create(username="alice")


@pytest.fixture
def client_in(client, student):
    client.force_login(student)
    return client


def key_column(page: str) -> list[str]:
    """The answer table's "Correct answer" cells, one per field, as text."""
    table = re.search(r'<table class="answer-table">(.*?)</table>', page, re.S)
    assert table, "no answer table on the page"
    heads = [htmllib.unescape(re.sub(r"<[^>]+>", "", h)).strip()
             for h in re.findall(r"<th>(.*?)</th>", table.group(1), re.S)]
    col = heads.index("Correct answer") if "Correct answer" in heads else heads.index("정답")
    rows = re.findall(r"<tr class=[^>]*>(.*?)</tr>", table.group(1), re.S)
    return [htmllib.unescape(re.sub(r"<[^>]+>", "", re.findall(r"<td>(.*?)</td>", r, re.S)[col])).strip()
            for r in rows]


def expected_column(v, lang: str) -> list[str]:
    """Each field's key as the page shows it: a choice's label is inline Markdown (`code` spans)."""
    from practice.core.inline import inline_html

    return [htmllib.unescape(re.sub(r"<[^>]+>", "", str(inline_html(f.format_value(v.answer["values"][f.name], lang)))))
            .strip() for f in practice.answer_fields(v)]


def wrong_values(v) -> dict:
    out = {}
    for f in practice.answer_fields(v):
        val = v.answer["values"][f.name]
        if f.kind == "choice":
            out[f.name] = next(c.key for c in f.choices if c.key != val)
        elif f.kind == "number":
            out[f.name] = "0.01" if val > 0.5 else "0.99"
        else:
            out[f.name] = str(val + 7)
    return out


@pytest.mark.parametrize("family_id", sorted(FAMILIES))
def test_show_the_answer_before_any_try_fills_the_key_column_for_every_family(client_in, student, family_id):
    """Every family: "Show the answer" with no answer given prints each field's key in its table
    row, in English and in Korean."""
    v = practice.get_or_create_variant(student, family_id, "practice-1", 2, seed=5)
    client_in.post(reverse("practice:reveal", args=[v.pk]))
    url = reverse("practice:question", args=[v.pk])
    en = client_in.get(url).content.decode()
    assert key_column(en) == expected_column(v, "en")
    client_in.cookies["django_language"] = "ko"
    ko = client_in.get(url, HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert key_column(ko) == expected_column(v, "ko")
    assert all(key_column(ko))


def test_show_the_answer_from_a_problem_set_item_fills_the_key_column(client_in, student):
    """The set item's question route lands on the practice page; its reveal shows the key too."""
    from courses.models import Course, Membership
    from homework.models import ProblemSet, ProblemSetItem

    course = Course.objects.create(name="GPU", code="GPU-R")
    Membership.objects.create(course=course, user=student, role="student")
    now = timezone.now()
    pset = ProblemSet.objects.create(course=course, title_en="Homework 1", opens_at=now - timedelta(days=1),
                                     due_at=now + timedelta(days=1))
    item = ProblemSetItem.objects.create(problem_set=pset, family="indexing.warp_lane", position=0)
    r = client_in.get(reverse("homework:item-question", args=[course.code, pset.pk, item.pk]))
    assert r.status_code == 302
    page_url = r["Location"]
    v = practice.QuestionVariant.objects.get(user=student, family="indexing.warp_lane")
    assert page_url == reverse("practice:question", args=[v.pk])
    client_in.post(reverse("practice:reveal", args=[v.pk]))
    page = client_in.get(page_url).content.decode()
    assert key_column(page) == expected_column(v, "en") and all(key_column(page))
    assert 'id="set-origin"' in page


def test_asking_for_the_answer_says_so_not_that_it_was_solved(client_in, student):
    v = practice.get_or_create_variant(student, "indexing.warp_lane", "practice-1", 2, seed=5)
    client_in.post(reverse("practice:reveal", args=[v.pk]))
    url = reverse("practice:question", args=[v.pk])
    en = client_in.get(url).content.decode()
    assert "no longer counts as solved" not in en
    assert "You asked to see the answer, so this question can no longer be solved" in en
    client_in.cookies["django_language"] = "ko"
    ko = client_in.get(url, HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "정답 보기를 눌렀으므로" in ko


def test_the_tries_used_up_say_so(client_in, student):
    v = practice.get_or_create_variant(student, "indexing.warp_lane", "practice-1", 2, seed=5)
    for _ in range(practice.PRACTICE_TRIES):
        practice.submit_answer(v, wrong_values(v))
    url = reverse("practice:question", args=[v.pk])
    en = client_in.get(url).content.decode()
    assert f"The answer was shown after {practice.PRACTICE_TRIES} wrong tries" in en
    assert "You asked" not in en and key_column(en) == expected_column(v, "en")
    client_in.cookies["django_language"] = "ko"
    ko = client_in.get(url, HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert f"{practice.PRACTICE_TRIES}번 틀려서 정답이 공개되었으므로" in ko


def test_a_solved_question_has_no_such_note(client_in, student):
    v = practice.get_or_create_variant(student, "indexing.warp_lane", "practice-1", 2, seed=5)
    practice.submit_answer(v, {k: str(x) for k, x in v.answer["values"].items()})
    en = client_in.get(reverse("practice:question", args=[v.pk])).content.decode()
    assert "pill-solved" in en and 'id="key-shown-note"' not in en
    assert practice.why_key_shown(v) is practice.KeyShownBecause.SOLVED
