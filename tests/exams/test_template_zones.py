"""The template editor's zone list (exams/zone_views.py): the zones of the text being edited, renamed in
place, removed, added with a default name ("Zone 3" / "구역 3"); with htmx the list (and the picker's
Zone options) come back in place, refreshed as the text is typed (the tester had to reload to see a
zone he had added); without a script the editor comes back with the new text. Nothing is saved."""
import re

import pytest
import yaml
from django.urls import reverse

from exams.forms import EXAMPLE
from exams.models import ExamTemplate

from .conftest import client_for

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def urls(course):
    return reverse("exams:template_new", args=[course.pk]), reverse("exams:template_zones_new", args=[course.pk])


def new_text(html: str) -> str:
    import html as html_lib

    found = re.search(r'<textarea hidden id="zone-new-text"[^>]*>(.*?)</textarea>', html, re.S)
    return html_lib.unescape(found.group(1)) if found else None


def options(html: str) -> list[str]:
    select = html[html.index('<select id="pick-zone"'):].split("</select>")[0]
    return re.findall(r"<option value=\"\d+\"[^>]*>([^<]*)</option>", select)


@pytest.mark.parametrize("lang, head, rows", [
    ("en", "Zones", ["Occupancy and indexing", "Kernel"]),
    ("ko", "구역", ["점유율과 인덱스 계산", "커널"])])
def test_the_editor_lists_the_zones_of_its_text(course, people, urls, lang, head, rows):
    html = client_for(people["ivy"]).get(urls[0], HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    zone_list = html[html.index('id="zone-list"'):].split("</fieldset>")[0]
    assert f"<legend>{head}</legend>" in zone_list and 'id="add-zone"' in zone_list
    assert re.findall(r'name="zone-\d-title-en" value="([^"]*)"', zone_list) == ["Occupancy and indexing", "Kernel"]
    assert re.findall(r'name="zone-\d-title-ko" value="([^"]*)"', zone_list) == ["점유율과 인덱스 계산", "커널"]
    assert f'hx-post="{urls[1]}"' in zone_list and 'hx-trigger="input changed delay:400ms from:#id_text"' in zone_list
    assert ("3 items, 2 per student" if lang == "en" else "항목 3개, 학생마다 2개") in zone_list


@pytest.mark.parametrize("lang, said, label", [
    ("en", "Added zone 3 (Zone 3) with an empty pool", "3. Zone 3"),
    ("ko", "3번 구역(구역 3)을 빈 풀로 추가했습니다", "3. 구역 3")])
def test_adding_a_zone_names_it_and_updates_the_list_and_the_picker_in_place(course, people, urls, lang, said, label):
    ivy = client_for(people["ivy"])
    r = ivy.post(urls[1], {"text": EXAMPLE, "zone_op": "add", "zone": ""}, HTTP_ACCEPT_LANGUAGE=lang, **HTMX)
    html = r.content.decode()
    assert r.status_code == 200 and said in html
    assert ("Not saved yet" if lang == "en" else "아직 저장되지 않았습니다") in html
    text = new_text(html)
    assert yaml.safe_load(text)["zones"][2] == {"title": {"en": "Zone 3", "ko": "구역 3"}, "pool": None}
    assert text.startswith(EXAMPLE.rstrip("\n"))  # the author's text kept as it was, one zone below
    assert len(re.findall(r'<tr class="zone-row"', html)) == 3 and 'value="Zone 3"' in html
    assert 'hx-swap-oob="innerHTML"' in html and options(html)[2] == label
    assert re.search(r'<option value="2" selected>', html)  # the picker now adds to the new zone
    assert not ExamTemplate.objects.exists()


@pytest.mark.parametrize("lang, said, left", [
    ("en", "Removed zone 1 (Occupancy and indexing) and the 3 items of its pool.", "1. Kernel"),
    ("ko", "1번 구역(점유율과 인덱스 계산)과 그 풀의 항목 3개를 제거했습니다.", "1. 커널")])
def test_removing_a_zone_updates_the_list_in_place(course, people, urls, lang, said, left):
    r = client_for(people["ivy"]).post(urls[1], {"text": EXAMPLE, "zone_op": "remove:0"}, HTTP_ACCEPT_LANGUAGE=lang, **HTMX)
    html = r.content.decode()
    assert said in html
    assert [z["title"]["en"] for z in yaml.safe_load(new_text(html))["zones"]] == ["Kernel"]
    assert len(re.findall(r'<tr class="zone-row"', html)) == 1 and options(html) == [left]


def test_renaming_a_zone_writes_its_title_into_the_text(course, people, urls):
    ivy = client_for(people["ivy"])
    r = ivy.post(urls[1], {"text": EXAMPLE, "zone_op": "rename:1", "zone-1-title-en": "Write a kernel",
                           "zone-1-title-ko": "커널 작성", "zone-0-title-en": "ignored"}, **HTMX)
    html = r.content.decode()
    assert "Renamed zone 2 to “Write a kernel”." in html
    zones = yaml.safe_load(new_text(html))["zones"]
    assert zones[1]["title"] == {"en": "Write a kernel", "ko": "커널 작성"}
    assert zones[0]["title"]["en"] == "Occupancy and indexing"
    assert options(html) == ["1. Occupancy and indexing", "2. Write a kernel"]
    korean = ivy.post(urls[1], {"text": EXAMPLE, "zone_op": "rename:1", "zone-1-title-en": "", "zone-1-title-ko": ""},
                      HTTP_ACCEPT_LANGUAGE="ko", **HTMX).content.decode()
    assert yaml.safe_load(new_text(korean))["zones"][1]["title"] == {"en": "Zone 2", "ko": "구역 2"}
    assert "2번 구역의 이름을 바꿨습니다: “구역 2”." in korean


def test_the_list_follows_the_text_as_it_is_typed(course, people, urls):
    """A zone added by hand in the text shows in the list (and the picker) without a reload."""
    typed = EXAMPLE + "  - pool: [indexing.inverse]\n"
    html = client_for(people["ivy"]).post(urls[1], {"text": typed, "zone_op": "list", "zone": "1"}, **HTMX).content.decode()
    assert new_text(html) is None and 'class="pick-status"' in html  # nothing changed, nothing said
    assert len(re.findall(r'<tr class="zone-row"', html)) == 3 and 'placeholder="Zone 3"' in html
    assert options(html) == ["1. Occupancy and indexing", "2. Kernel", "Zone 3"]
    assert re.search(r'<option value="1" selected>', html)  # the picker's choice is kept


def test_a_stale_list_or_a_broken_text_is_refused_and_changes_nothing(course, people, urls):
    ivy = client_for(people["ivy"])
    html = ivy.post(urls[1], {"text": EXAMPLE, "zone_op": "remove:4"}, **HTMX).content.decode()
    assert "The template has 2 zones, not a zone 5" in html and "pick-refused" in html and new_text(html) is None
    broken = "title: {en: Midterm 1}\n  - {family: synchronization.classify}\nzones:\n"
    html = ivy.post(urls[1], {"text": broken, "zone_op": "add"}, HTTP_ACCEPT_LANGUAGE="ko", **HTMX).content.decode()
    assert "템플릿의 2번째 줄을 읽을 수 없습니다" in html and 'id="no-zones"' in html


def test_without_the_script_the_editor_comes_back_with_the_new_text_and_saves_it(course, people, urls, kernel_problem):
    kernel_problem.is_published = True
    kernel_problem.save(update_fields=["is_published"])
    ivy = client_for(people["ivy"])
    text = EXAMPLE.replace("vector-add-tail", "tiny-add")
    r = ivy.post(urls[1], {"text": text, "zone_op": "add"})
    html = r.content.decode()
    assert r.status_code == 200 and 'id="template-form"' in html and 'id="id_text"' in html
    assert f'action="{urls[0]}"' in html  # Check and save posts to the editor, not to the zone list
    edited = r.context["form"]["text"].value()
    assert yaml.safe_load(edited)["zones"][2]["title"] == {"en": "Zone 3", "ko": "구역 3"}
    filled = edited.rstrip("\n") + "\n      - {family: indexing.limits}\n"  # the new zone's first item
    saved = ivy.post(urls[0], {"text": filled})
    assert saved.status_code == 302, saved.context["form"].errors
    zones = ExamTemplate.objects.get().data["zones"]
    assert [z["title"] for z in zones][2] == {"en": "Zone 3", "ko": "구역 3"}


@pytest.mark.parametrize("who", ["tom", "alice", "eve"])
def test_only_the_courses_instructors_edit_zones(course, people, urls, who):
    r = client_for(people[who]).post(urls[1], {"text": EXAMPLE, "zone_op": "add"}, **HTMX)
    assert r.status_code == 404
    assert client_for(people["ivy"]).get(urls[1]).status_code == 405
