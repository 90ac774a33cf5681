"""An item is in a set once: adding vector-add-tail (or a question family) again is refused with a
message that names it, the database refuses it too, the "Add an item" dropdowns leave out what the set
has, and migration 0003 removed the duplicates added before (the second tester's set, whose dashboard
and CSV had two identical columns)."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse
from django.utils import timezone

from homework import actions, dashboard
from homework.models import ProblemSet, ProblemSetItem

FAMILY = "indexing.warp_lane"


@pytest.fixture
def week(db, courses, people):
    now = timezone.now()
    return actions.create_set(courses["A"], people["prof"], title_en="Homework 1", opens_at=now - timedelta(hours=1),
                              due_at=now + timedelta(days=1))


def _options(page: str, select_id: str) -> list[str]:
    select = re.search(rf'<select[^>]*id="{select_id}".*?</select>', page, re.S)
    return re.findall(r'<option value="([^"]+)"', select.group(0)) if select else []


@pytest.mark.django_db
@pytest.mark.parametrize("lang, words", [("en", "is already in this set"), ("ko", "이미 이 과제에 있습니다")])
def test_adding_an_item_twice_is_refused_with_a_message(week, bank_problem, client_for, lang, words):
    client = client_for("tara")
    url = reverse("homework:add-item", args=["PP-A", week.pk])
    for data in ({"problem": bank_problem.slug}, {"family": FAMILY}):
        client.post(url, data, HTTP_ACCEPT_LANGUAGE=lang)
        page = client.post(url, data, follow=True, HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        alert = re.search(r'<div class="alert alert-error"[^>]*>(.*?)</div>', page, re.S)
        assert alert and words in alert.group(1), data
    assert [str(i) for i in week.items.all()] == [bank_problem.slug, FAMILY]
    assert [i.key for i in dashboard.build(week).items] == [bank_problem.slug, FAMILY]  # one column each


@pytest.mark.django_db
def test_the_actions_and_the_database_refuse_a_second_copy(week, bank_problem):
    actions.add_item(week, problem_slug=bank_problem.slug)
    actions.add_item(week, family=FAMILY)
    with pytest.raises(actions.ProblemSetError, match=bank_problem.title):
        actions.add_item(week, problem_slug=bank_problem.slug)
    with pytest.raises(actions.ProblemSetError, match="already"):
        actions.add_item(week, family=FAMILY)
    for fields in ({"problem": bank_problem}, {"family": FAMILY}):
        with pytest.raises(IntegrityError), transaction.atomic():
            ProblemSetItem.objects.create(problem_set=week, position=9, **fields)
    # Another set may have the same items.
    other = actions.create_set(week.course, None, title_en="Homework 2", opens_at=week.opens_at, due_at=week.due_at)
    actions.add_item(other, problem_slug=bank_problem.slug)
    actions.add_item(other, family=FAMILY)


@pytest.mark.django_db
def test_the_dropdowns_leave_out_the_items_already_in_the_set(week, bank_problem, client_for):
    url = reverse("homework:set", args=["PP-A", week.pk])
    page = client_for("prof").get(url).content.decode()
    assert bank_problem.slug in _options(page, "add-problem-select") and FAMILY in _options(page, "add-family-select")
    actions.add_item(week, problem_slug=bank_problem.slug)
    actions.add_item(week, family=FAMILY)
    page = client_for("prof").get(url).content.decode()
    assert bank_problem.slug not in _options(page, "add-problem-select")
    assert FAMILY not in _options(page, "add-family-select") and "indexing.global_index" in _options(
        page, "add-family-select")
    # The only problem the course may assign is in: no empty dropdown, a sentence instead.
    assert _options(page, "add-problem-select") == []
    assert 'id="add-problem-none"' in page and 'id="add-problem"' not in page


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_the_first_of_each_duplicate(courses, people, bank_problem):
    executor = MigrationExecutor(connection)
    executor.migrate([("homework", "0002_problem_set_difficulty")])
    old = executor.loader.project_state([("homework", "0002_problem_set_difficulty")]).apps
    Set, Item = old.get_model("homework", "ProblemSet"), old.get_model("homework", "ProblemSetItem")
    now = timezone.now()
    s = Set.objects.create(course_id=courses["A"].pk, title_en="Homework 1", opens_at=now, due_at=now + timedelta(1))
    first = Item.objects.create(problem_set=s, problem_id=bank_problem.pk, position=1)
    Item.objects.create(problem_set=s, problem_id=bank_problem.pk, position=3)
    family = Item.objects.create(problem_set=s, family=FAMILY, position=2)
    Item.objects.create(problem_set=s, family=FAMILY, position=4)
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert sorted(ProblemSetItem.objects.filter(problem_set_id=s.pk).values_list("pk", flat=True)) == sorted(
        [first.pk, family.pk])
    assert ProblemSet.objects.filter(pk=s.pk).exists()
