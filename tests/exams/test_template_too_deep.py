"""The template editor answers a deeply nested template text with a form error, not a 500: Python's
JSON and YAML parsers recurse once per level, and 100,000 `[` raised RecursionError. The text stays
in the form, the error is in the reader's language, and the picker and the zone list refuse it too."""
from __future__ import annotations

import html as html_lib
import re

import pytest
from django.urls import reverse

from exams.core.nesting import MAX_DEPTH
from exams.models import ExamTemplate

from .conftest import client_for

pytestmark = pytest.mark.django_db

DEEP = {
    "json": '{"title": "Quiz", "zones": ' + "[" * 100_000 + "]" * 100_000 + "}",
    "yaml": "title: Quiz\nzones:\n" + "  - " * 2_000 + "x\n",
}
SAID = {"en": f"The template is nested too deeply (more than {MAX_DEPTH} levels of lists and mappings",
        "ko": f"템플릿이 너무 깊게 중첩되어 있습니다(목록과 매핑이 {MAX_DEPTH}단계 넘게 중첩됨"}


def textarea(html: str) -> str:
    found = re.search(r'<textarea name="text"[^>]*>\n?(.*?)</textarea>', html, re.S)
    return html_lib.unescape(found.group(1))


@pytest.mark.parametrize("shape", DEEP)
@pytest.mark.parametrize("lang", ["en", "ko"])
def test_saving_a_deep_template_is_a_form_error_that_keeps_the_text(course, people, shape, lang):
    r = client_for(people["ivy"]).post(reverse("exams:template_new", args=[course.pk]), {"text": DEEP[shape]},
                                       HTTP_ACCEPT_LANGUAGE=lang)
    assert r.status_code == 400
    html = r.content.decode()
    errors = html[html.index('id="template-errors"'):].split("</div>")[0]
    assert SAID[lang] in errors
    assert ("nested too deeply" in errors) == (lang == "en")
    assert textarea(html) == DEEP[shape]
    assert not ExamTemplate.objects.exists()


def test_editing_a_saved_template_into_a_deep_one_keeps_the_saved_one(course, people):
    ivy = client_for(people["ivy"])
    new = reverse("exams:template_new", args=[course.pk])
    assert ivy.post(new, {"text": "title: Quiz\nzones:\n  - pool: [indexing.warp_lane]\n"}).status_code == 302
    template = ExamTemplate.objects.get()
    r = ivy.post(reverse("exams:template_edit", args=[course.pk, template.pk]), {"text": DEEP["yaml"]})
    assert r.status_code == 400 and SAID["en"] in r.content.decode()
    template.refresh_from_db()
    assert [item["family"] for item in template.data["zones"][0]["pool"]] == ["indexing.warp_lane"]


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_adding_to_a_deep_template_says_why_nothing_was_added(course, people, lang):
    r = client_for(people["ivy"]).post(
        reverse("exams:template_new", args=[course.pk]),
        {"text": DEEP["json"], "add": "family", "family_id": "indexing.warp_lane", "zone": ""},
        HTTP_ACCEPT="application/json", HTTP_ACCEPT_LANGUAGE=lang)
    assert r.status_code == 400
    body = r.json()
    assert body["added"] is False and body["message"].startswith(SAID[lang]) and body["text"] == DEEP["json"]
    assert body["zones"] == [] and body["used"] == {"family": {}, "kernel": {}}


@pytest.mark.parametrize("lang, nothing", [("en", "Nothing was changed."), ("ko", "바뀐 것이 없습니다.")])
def test_the_zone_list_of_a_deep_template_says_why_nothing_was_changed(course, people, lang, nothing):
    r = client_for(people["ivy"]).post(reverse("exams:template_zones_new", args=[course.pk]),
                                       {"text": DEEP["yaml"], "zone_op": "add"}, HTTP_ACCEPT_LANGUAGE=lang,
                                       HTTP_HX_REQUEST="true")
    assert r.status_code == 200  # the zone list's partial, in place
    html = html_lib.unescape(r.content.decode())
    status = re.search(r'<p id="zone-status"[^>]*class="[^"]*pick-refused[^"]*">([^<]*)</p>', html).group(1)
    assert status.startswith(SAID[lang]) and status.endswith(nothing)
