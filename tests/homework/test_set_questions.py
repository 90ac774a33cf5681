"""A question family assigned in a problem set is reached from the set: its item opens a question of
exactly that family (at the set's difficulty, for the course's GPU), answering it counts for the item
(not started / tried / solved / solved late), and the question's page links back to the set."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from homework import actions
from homework.models import LatePolicy
from homework.services import ItemStatus, item_rows
from practice.core.answers import Field
from practice.models import QuestionAttempt, QuestionVariant

pytestmark = pytest.mark.django_db

FAMILY = "occupancy.blocks_per_sm"


def _set(courses, people, **kw):
    now = timezone.now()
    kw.setdefault("opens_at", now - timedelta(hours=1))
    kw.setdefault("due_at", now + timedelta(days=1))
    s = actions.create_set(courses["A"], people["prof"], title_en="Week 1", **kw)
    item = actions.add_item(s, family=FAMILY)
    return s, item


def _answers(variant, right: bool) -> dict:
    out = {}
    for f in (Field.from_dict(d) for d in variant.answer["fields"]):
        value = variant.answer["values"][f.name]
        out[f"answer-{f.name}"] = str(value) if right else ("0.01" if f.kind == "number" and value > 0.5 else
                                                              "0.99" if f.kind == "number" else str(value + 7))
    return out


def test_the_family_item_opens_a_question_of_exactly_its_family_at_the_sets_difficulty(
        client_for, courses, people):
    """The set's page links the item to its own address (not the generic practice page); following it
    gives the student a question of occupancy.blocks_per_sm at the set's difficulty, drawn for the
    course's target GPU, and following it again gives the same question back."""
    courses["A"].target_cc = "8.6"
    courses["A"].save()
    s, item = _set(courses, people, difficulty=3)
    student = client_for("stu")
    url = reverse("homework:item-question", args=["PP-A", s.pk, item.pk])
    page = student.get(reverse("homework:set", args=["PP-A", s.pk])).content.decode()
    assert f'href="{url}"' in page and f'href="{reverse("practice:home")}"' not in page.split("<main")[-1]
    for _ in range(5):  # never a neighbouring family of the topic
        response = student.get(url)
        variant = QuestionVariant.objects.get(user=people["stu"])
        assert response["Location"] == reverse("practice:question", args=[variant.pk])
    assert variant.family == FAMILY and variant.difficulty == 3
    from problems.core.gpus import gpu

    assert gpu(variant.params["gpu"]).cc == "8.6"
    # A set that names no difficulty draws at exam level.
    s2, item2 = _set(courses, people)
    student.get(reverse("homework:item-question", args=["PP-A", s2.pk, item2.pk]))
    assert QuestionVariant.objects.filter(user=people["stu"]).exclude(pk=variant.pk).get().difficulty == 2


def test_answering_the_items_question_counts_for_the_item_and_the_page_links_back(client_for, courses, people):
    """A wrong answer makes the item "tried", a right one "solved"; the question's page names the set,
    links back to it and offers another question of the same family (a new variant, same family)."""
    s, item = _set(courses, people)
    student = client_for("stu")
    set_url = reverse("homework:set", args=["PP-A", s.pk])
    item_url = reverse("homework:item-question", args=["PP-A", s.pk, item.pk])
    question_url = student.get(item_url)["Location"]
    variant = QuestionVariant.objects.get(user=people["stu"])
    assert item_rows(s, people["stu"])[0].status is ItemStatus.NOT_STARTED
    page = student.get(question_url).content.decode()
    assert 'id="back-to-set"' in page and f'href="{set_url}"' in page and "Week 1" in page
    ko = student.get(question_url, HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "과제로 돌아가기" in ko and "Back to the problem set" not in ko
    student.post(question_url, _answers(variant, right=False))
    assert item_rows(s, people["stu"])[0].status is ItemStatus.TRIED
    student.post(question_url, _answers(variant, right=True))
    assert item_rows(s, people["stu"])[0].status is ItemStatus.SOLVED
    page = student.get(question_url).content.decode()
    assert f'action="{item_url}"' in page and 'id="another-question"' in page
    assert 'data-status="solved"' in student.get(set_url).content.decode()
    # "Another question": a new question of the same family, which the item's link opens from now on.
    another = student.post(item_url)["Location"]
    assert another != question_url
    newer = QuestionVariant.objects.exclude(pk=variant.pk).get(user=people["stu"])
    assert newer.family == FAMILY and student.get(item_url)["Location"] == another


def test_late_answers_follow_the_sets_due_date_and_late_policy(courses, people):
    """Answers to the item's question after the due date solve it late while late work counts, and
    count for nothing in a set that takes no late work."""
    now = timezone.now()
    opens, due = now - timedelta(days=3), now - timedelta(days=1)
    marked, item = _set(courses, people, opens_at=opens, due_at=due, late_policy=LatePolicy.MARKED,
                        late_until=now + timedelta(days=1))
    strict, _ = _set(courses, people, opens_at=opens, due_at=due)
    variant = actions.item_question(item, people["stu"])
    QuestionAttempt.objects.create(variant=variant, response={}, correct=True)  # now: after the due date
    assert item_rows(marked, people["stu"])[0].status is ItemStatus.SOLVED_LATE
    assert item_rows(strict, people["stu"])[0].status is ItemStatus.NOT_STARTED


def test_the_items_question_is_for_the_courses_members_and_only_for_family_items(
        client_for, courses, people, bank_problem):
    now = timezone.now()
    s, item = _set(courses, people)
    kernel = actions.add_item(s, problem_slug=bank_problem.slug)
    later, later_item = _set(courses, people, opens_at=now + timedelta(days=1), due_at=now + timedelta(days=2))
    assert client_for("tom").get(reverse("homework:item-question", args=["PP-A", s.pk, item.pk])).status_code == 404
    student = client_for("stu")
    assert student.get(reverse("homework:item-question", args=["PP-A", s.pk, kernel.pk])).status_code == 404
    assert student.get(reverse("homework:item-question", args=["PP-A", later.pk, later_item.pk])).status_code == 404
    assert not QuestionVariant.objects.exists()
    # A question of the generic practice page does not pretend to belong to a set.
    from practice import actions as practice

    v = practice.next_variant(people["stu"], "occupancy", 2)
    assert 'id="back-to-set"' not in student.get(reverse("practice:question", args=[v.pk])).content.decode()
