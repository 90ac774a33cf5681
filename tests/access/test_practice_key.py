"""Issue #13 (section 5): practice must not hand out its answer key after one wrong try, and a key that
was shown must not count the question as solved when typed back.

The key and the worked solution are shown after a right answer, after PRACTICE_TRIES wrong ones, or
when the student asks ("Show the answer"); answers given after that are stored with after_reveal and
count nowhere: the question page's "solved", the progress page, the streak, homework status.
"""
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from practice import actions as practice
from practice.models import QuestionAttempt
from practice.progress import progress, streak

pytestmark = pytest.mark.django_db
FAMILY = "indexing.grid_stride"


@pytest.fixture
def student(django_user_model):
    return django_user_model.objects.create(username="alice")


@pytest.fixture
def client_in(client, student):
    client.force_login(student)
    return client


@pytest.fixture
def variant(student):
    return practice.get_or_create_variant(student, FAMILY, "practice-1", 1, seed=11)


def right_post(v) -> dict:
    return {f"answer-{f.name}": str(v.answer["values"][f.name]) for f in practice.answer_fields(v)}


def wrong_post(v) -> dict:
    out = {}
    for f in practice.answer_fields(v):
        val = v.answer["values"][f.name]
        if f.kind == "choice":
            out[f"answer-{f.name}"] = next(c.key for c in f.choices if c.key != val)
        elif f.kind == "number":
            out[f"answer-{f.name}"] = "0.01" if val > 0.5 else "0.99"
        else:
            out[f"answer-{f.name}"] = str(val + 7)
    return out


def key_cells(v) -> list[str]:
    """The key as the page would print it, one string per field."""
    return [f.format_value(v.answer["values"][f.name], "en") for f in practice.answer_fields(v)]


def page(client, v) -> str:
    return client.get(reverse("practice:question", args=[v.pk])).content.decode()


def test_one_wrong_try_shows_neither_the_key_nor_the_solution(client_in, variant):
    url = reverse("practice:question", args=[variant.pk])
    client_in.post(url, wrong_post(variant))
    html = page(client_in, variant)
    assert "Not quite" in html
    assert "Worked solution" not in html and "Correct answer" not in html
    assert "Show the answer" in html and "2 more wrong tries" in html
    variant.refresh_from_db()
    assert variant.revealed_at is None


def test_the_key_is_shown_after_the_allowed_wrong_tries(client_in, variant):
    url = reverse("practice:question", args=[variant.pk])
    for _ in range(practice.PRACTICE_TRIES - 1):
        client_in.post(url, wrong_post(variant))
    assert "Worked solution" not in page(client_in, variant)
    client_in.post(url, wrong_post(variant))
    html = page(client_in, variant)
    assert "Worked solution" in html and "Correct answer" in html and "Show the answer" not in html
    assert all(cell in html for cell in key_cells(variant))


def test_typing_back_a_key_shown_after_the_tries_does_not_count_as_solved(client_in, student, variant):
    url = reverse("practice:question", args=[variant.pk])
    for _ in range(practice.PRACTICE_TRIES):
        client_in.post(url, wrong_post(variant))
    client_in.post(url, right_post(variant))
    last = QuestionAttempt.objects.filter(variant=variant).first()
    assert last.correct and last.after_reveal and not last.counts_as_solved
    html = page(client_in, variant)
    assert "Right!" in html and "pill-solved" not in html and "wrong tries, so this question can no longer be solved" in html
    row = {r.topic: r for r in progress(student)}["indexing"]
    assert row.attempted == 1 and row.solved == 0
    assert streak(student) == 0


def test_show_the_answer_then_a_right_answer_is_not_solved(client_in, student, variant):
    """Giving up reveals the key at once, without any try; the right answer after it is marked."""
    r = client_in.post(reverse("practice:reveal", args=[variant.pk]))
    assert r.status_code == 302 and r["Location"].endswith("#result")
    html = page(client_in, variant)
    assert "Worked solution" in html and all(cell in html for cell in key_cells(variant))
    out = practice.submit_answer(variant, {k: str(x) for k, x in variant.answer["values"].items()})
    assert out.grade.correct and out.attempt.after_reveal
    assert {r.topic: r for r in progress(student)}["indexing"].solved == 0
    assert client_in.get(reverse("practice:reveal", args=[variant.pk])).status_code == 405


def test_a_right_answer_before_the_reveal_counts_and_shows_the_solution(client_in, student, variant):
    url = reverse("practice:question", args=[variant.pk])
    client_in.post(url, wrong_post(variant))
    client_in.post(url, right_post(variant))
    html = page(client_in, variant)
    assert "Right!" in html and "Worked solution" in html and "pill-solved" in html
    assert {r.topic: r for r in progress(student)}["indexing"].solved == 1 and streak(student) == 1


def test_another_students_question_cannot_be_revealed(client_in, django_user_model):
    bob = django_user_model.objects.create(username="bob")
    v = practice.get_or_create_variant(bob, FAMILY, "practice-1", 1, seed=3)
    assert client_in.post(reverse("practice:reveal", args=[v.pk])).status_code == 404
    v.refresh_from_db()
    assert v.revealed_at is None


def test_homework_does_not_count_an_answer_given_after_the_reveal(student, variant):
    from courses.models import Course, Membership
    from homework.models import ProblemSet, ProblemSetItem
    from homework.services import item_rows

    course = Course.objects.create(name="GPU", code="GPU-H")
    Membership.objects.create(course=course, user=student, role="student")
    now = timezone.now()
    pset = ProblemSet.objects.create(course=course, title_en="Week 1", opens_at=now - timedelta(days=1),
                                     due_at=now + timedelta(days=1))
    ProblemSetItem.objects.create(problem_set=pset, family=FAMILY, position=0)
    practice.reveal(variant)
    practice.submit_answer(variant, {k: str(x) for k, x in variant.answer["values"].items()})
    [row] = item_rows(pset, student)
    assert row.status == "tried"


def test_the_reveal_controls_are_in_korean(client_in, variant):
    client_in.cookies["django_language"] = "ko"
    url = reverse("practice:question", args=[variant.pk])
    client_in.post(url, wrong_post(variant), HTTP_ACCEPT_LANGUAGE="ko")
    html = client_in.get(url, HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "정답 보기" in html and "2번 더 틀리면 정답이 공개됩니다." in html
