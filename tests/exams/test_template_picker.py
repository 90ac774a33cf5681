"""The template editor's "Add to the template" (exams/template_picker.py): the item goes into a zone's
pool whatever line the caret was on, an unknown id is refused naming the closest one, and the answer
reads in the reader's language. The script's JSON answer and the form's plain POST (no script) alike."""
import pytest
import yaml
from django.urls import reverse

from exams.forms import EXAMPLE
from exams.models import ExamTemplate

from .conftest import client_for

pytestmark = pytest.mark.django_db
JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture
def url(course):
    return reverse("exams:template_new", args=[course.pk])


@pytest.fixture
def published(kernel_problem):
    kernel_problem.is_published = True
    kernel_problem.save(update_fields=["is_published"])
    return kernel_problem


def test_adding_a_family_to_the_untouched_example_gives_a_template_that_saves(course, people, url):
    ivy = client_for(people["ivy"])
    r = ivy.post(url, {"text": EXAMPLE, "add": "family", "family_id": "synchronization.classify", "zone": ""}, **JSON)
    answer = r.json()
    assert r.status_code == 200 and answer["added"] and answer["zone"] == 0
    assert answer["text"].splitlines()[answer["line"] - 1] == "      - {family: synchronization.classify}"
    assert "Added synchronization.classify to the pool of zone 1 (Occupancy and indexing)" in answer["message"]
    assert [z["label"] for z in answer["zones"]] == ["1. Occupancy and indexing", "2. Kernel"]
    assert not ExamTemplate.objects.exists()  # adding saves nothing
    # The text saves as it is (the tester's text failed with "expected <block end>").
    pool = yaml.safe_load(answer["text"])["zones"][0]["pool"]
    assert pool[-1] == {"family": "synchronization.classify"}


def test_a_kernel_goes_to_the_kernel_zone_and_the_chosen_zone_wins(course, people, url, published):
    ivy = client_for(people["ivy"])
    r = ivy.post(url, {"text": EXAMPLE, "add": "kernel", "kernel_slug": "tiny-add", "zone": ""}, **JSON).json()
    assert r["zone"] == 1 and yaml.safe_load(r["text"])["zones"][1]["pool"][-1] == {"kernel": "tiny-add"}
    text = EXAMPLE.replace("vector-add-tail", "tiny-add")
    r = ivy.post(url, {"text": text, "add": "family", "family_id": "indexing.limits", "zone": "1"}, **JSON).json()
    assert r["zone"] == 1 and yaml.safe_load(r["text"])["zones"][1]["pool"][-1] == {"family": "indexing.limits"}
    r = ivy.post(url, {"text": r["text"], "add": "family", "family_id": "indexing.grid_dims", "zone": "1"})
    assert r.status_code == 200  # and the plain form still saves what the picker wrote:
    saved = ivy.post(url, {"text": yaml.safe_dump(yaml.safe_load(r.context["form"]["text"].value()))})
    assert saved.status_code == 302 and ExamTemplate.objects.count() == 1


@pytest.mark.parametrize("lang, words", [("en", ["There is no question family “memory.bank_conflict”.",
                                                 "Did you mean “memory.bank_conflicts”?", "Nothing was added."]),
                                         ("ko", ["“memory.bank_conflict” 문제 유형이 없습니다.",
                                                 "혹시 “memory.bank_conflicts”인가요?", "아무것도 추가하지 않았습니다."])])
def test_a_misspelt_id_is_refused_before_anything_is_inserted(course, people, url, lang, words):
    ivy = client_for(people["ivy"])
    r = ivy.post(url, {"text": EXAMPLE, "add": "family", "family_id": "memory.bank_conflict", "zone": ""},
                 HTTP_ACCEPT_LANGUAGE=lang, **JSON)
    answer = r.json()
    assert r.status_code == 400 and not answer["added"] and answer["text"] == EXAMPLE
    assert all(w in answer["message"] for w in words), answer["message"]
    r = ivy.post(url, {"text": EXAMPLE, "add": "kernel", "kernel_slug": "no-such", "zone": ""},
                 HTTP_ACCEPT_LANGUAGE=lang, **JSON)
    assert r.status_code == 400 and ("no-such" in r.json()["message"])


def test_a_broken_text_is_named_by_line_and_kept(course, people, url):
    broken = "title: {en: Midterm 1}\n  - {family: synchronization.classify}\nzones:\n"
    r = client_for(people["ivy"]).post(url, {"text": broken, "add": "family", "family_id": "indexing.limits"}, **JSON)
    assert r.status_code == 400 and r.json()["text"] == broken and "line 2" in r.json()["message"]


def test_without_the_script_the_page_comes_back_with_the_item_and_the_sentence(course, people, url):
    ivy = client_for(people["ivy"])
    r = ivy.post(url, {"text": EXAMPLE, "add": "family", "family_id": "indexing.limits", "zone": "0"},
                 HTTP_ACCEPT_LANGUAGE="ko")
    html = r.content.decode()
    assert r.status_code == 200 and "- {family: indexing.limits}" in html
    assert 'class="pick-status pick-added"' in html and "1번 구역(" in html and "풀에 추가했습니다: indexing.limits(" in html
    assert '<option value="0" selected>1. 점유율과 인덱스 계산</option>' in html
    r = ivy.post(url, {"text": EXAMPLE, "add": "family", "family_id": "indexing.limit"})
    assert r.status_code == 400 and b"pick-refused" in r.content and b"Did you mean" in r.content


def test_only_instructors_may_use_the_picker(course, people, url):
    r = client_for(people["tom"]).post(url, {"text": EXAMPLE, "add": "family", "family_id": "indexing.limits"}, **JSON)
    assert r.status_code in (403, 404)
