"""One student never gets one problem twice. The tester added tiny-add's kind of problem (block-sum) twice
to a template through the editor's picker, the template saved, and a student drew it twice. Now the
template check refuses an item the template has already (a kernel problem, or a family at the same
difficulty) with a message in the reader's language, the picker refuses to add one and marks what the
template has, and Start never copies a stored draw that repeats a problem."""
import re

import pytest
import yaml
from django.urls import reverse

from exams import drawing
from exams.actions.attempts import start_attempt
from exams.core.draw import repeats
from exams.models import ExamDraw, ExamTemplate

from .conftest import TEMPLATE, client_for

pytestmark = pytest.mark.django_db
JSON = {"HTTP_ACCEPT": "application/json"}

TWICE = """title: Quiz
zones:
  - title: Questions
    pool:
      - {family: indexing.inverse, difficulty: 2}
      - {family: indexing.warp_lane}
  - title: Kernels
    pool:
      - {kernel: tiny-add}
      - {family: indexing.inverse, difficulty: 2, points: 3}
      - {kernel: tiny-add, attempts: 2}
"""


@pytest.fixture
def published(kernel_problem):
    kernel_problem.is_published = True
    kernel_problem.save(update_fields=["is_published"])
    return kernel_problem


@pytest.mark.parametrize("lang, words", [
    ("en", ["zones[1].pool[1].family: question family &#x27;indexing.inverse&#x27; at difficulty 2 is already in the "
            "template (zones[0].pool[0]): a student could get it twice; remove one of them or give it another "
            "difficulty",
            "zones[1].pool[2].kernel: kernel problem &#x27;tiny-add&#x27; is already in the template (zones[1].pool[0]): "
            "a student would get it twice; remove one of them"]),
    ("ko", ["zones[1].pool[1].family: 템플릿에 이미 있는 문제 유형입니다: &#x27;indexing.inverse&#x27;(난이도 2, "
            "zones[0].pool[0]). 한 학생이 같은 문제를 두 번 받을 수 있습니다. 하나를 지우거나 난이도를 바꾸세요",
            "zones[1].pool[2].kernel: 템플릿에 이미 있는 커널 문제입니다: &#x27;tiny-add&#x27;(zones[1].pool[0]). "
            "한 학생이 같은 문제를 두 번 받게 됩니다. 하나를 지우세요"]),
])
def test_saving_a_template_with_an_item_twice_is_refused_in_the_readers_language(course, people, published,
                                                                                  lang, words):
    r = client_for(people["ivy"]).post(reverse("exams:template_new", args=[course.pk]), {"text": TWICE},
                                       HTTP_ACCEPT_LANGUAGE=lang)
    html = r.content.decode()
    assert r.status_code == 400 and not ExamTemplate.objects.exists()
    for w in words:
        assert w in html, w


@pytest.mark.parametrize("lang, words", [
    ("en", ["The kernel problem “tiny-add” is already in zone 2 of the template: a student would get it twice.",
            "Nothing was added."]),
    ("ko", ["템플릿의 2번 구역에 이미 있는 커널 문제입니다: “tiny-add”. 한 학생이 두 번 받게 됩니다.",
            "아무것도 추가하지 않았습니다."]),
])
def test_the_picker_refuses_a_kernel_problem_the_template_has(course, people, published, lang, words):
    text = TEMPLATE_TEXT
    r = client_for(people["ivy"]).post(reverse("exams:template_new", args=[course.pk]),
                                       {"text": text, "add": "kernel", "kernel_slug": "tiny-add", "zone": "0"},
                                       HTTP_ACCEPT_LANGUAGE=lang, **JSON)
    answer = r.json()
    assert r.status_code == 400 and not answer["added"] and answer["text"] == text
    assert all(w in answer["message"] for w in words), answer["message"]
    where = "2번 구역" if lang == "ko" else "zone 2"
    assert answer["used"]["kernel"]["tiny-add"]["where"] == where


TEMPLATE_TEXT = yaml.safe_dump(TEMPLATE, sort_keys=False)


def test_the_picker_refuses_a_family_at_the_same_difficulty_and_adds_one_at_another(course, people):
    ivy = client_for(people["ivy"])
    url = reverse("exams:template_new", args=[course.pk])
    r = ivy.post(url, {"text": TEMPLATE_TEXT, "add": "family", "family_id": "indexing.inverse", "zone": ""}, **JSON)
    assert r.status_code == 400 and r.json()["message"].startswith(
        "The question family “indexing.inverse” is already in zone 1 of the template at this difficulty")
    text = TEMPLATE_TEXT.replace("- indexing.inverse", "- {family: indexing.inverse, difficulty: 3}")
    r = ivy.post(url, {"text": text, "add": "family", "family_id": "indexing.inverse", "zone": "1"}, **JSON)
    answer = r.json()
    assert r.status_code == 200 and answer["added"]
    assert answer["used"]["family"]["indexing.inverse"] == {
        "where": "zone 1, difficulty 3; zone 2, difficulty 1",
        "label": "in the template: zone 1, difficulty 3; zone 2, difficulty 1"}


@pytest.mark.parametrize("lang, label, where", [("en", "in the template: zone 2", "zone 1, difficulty 1"),
                                                ("ko", "템플릿에 있음: 2번 구역", "1번 구역, 난이도 1")])
def test_the_editor_marks_what_the_template_has(course, people, published, lang, label, where):
    template = ExamTemplate.objects.create(course=course, title="Midterm", data=TEMPLATE, created_by=people["ivy"])
    html = client_for(people["ivy"]).get(reverse("exams:template_edit", args=[course.pk, template.pk]),
                                         HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    kernels = re.search(r'<datalist id="kernel-slugs">(.*?)</datalist>', html, re.S).group(1)
    assert re.search(rf'<option value="tiny-add" data-label="[^"]*" label="[^"]*· {label}">', kernels)
    row = re.search(r'<tr data-family="indexing.warp_lane" class="pick-used">.*?</tr>', html).group(0)
    assert f'<td class="pick-used-where">{where}</td>' in row
    assert '<tr data-family="indexing.limits">' in html  # not in the template: not marked


def test_the_preview_of_a_stored_template_with_a_repeat_goes_back_to_the_editor(course, people, published):
    """A template saved before repeats were refused: its preview says why it cannot be drawn."""
    data = {"zones": [{"pool": [{"kernel": "tiny-add"}, {"kernel": "tiny-add"}]}]}
    template = ExamTemplate.objects.create(course=course, title="Old", data=data, created_by=people["ivy"])
    r = client_for(people["ivy"]).get(reverse("exams:template_preview", args=[course.pk, template.pk]), follow=True,
                                      HTTP_ACCEPT_LANGUAGE="ko")
    assert r.redirect_chain[-1][0] == reverse("exams:template_edit", args=[course.pk, template.pk])
    assert "템플릿에 이미 있는 커널 문제입니다: &#x27;tiny-add&#x27;(zones[0].pool[0])" in r.content.decode()


def test_start_draws_again_rather_than_copy_a_stored_draw_that_repeats(exam, people):
    """A draw stored ahead with a question twice (drawn before repeats were avoided) is not copied."""
    drawing.predraw_exam(exam.pk)
    stored = ExamDraw.objects.get(exam=exam, user=people["alice"])
    first = stored.items[0]
    stored.items = [first, {**first, "key": "z0.p9", "number": 2}, *stored.items[2:]]
    stored.save(update_fields=["items"])
    attempt = start_attempt(exam, people["alice"])
    items = [i.data for i in attempt.items.order_by("number")]
    assert repeats(items) == [] and [i["key"] for i in items] != [i["key"] for i in stored.items]
