"""The exam template editor asks for question family ids and kernel slugs: it links the families page that
lists them with samples and offers every id where it is typed (a datalist per kind, a table to read),
where the tester found no way to learn them from the page."""
import re

import pytest
from django.urls import reverse

from practice.core.questions import FAMILIES

from .conftest import client_for

pytestmark = pytest.mark.django_db


def test_the_editor_links_the_families_page_and_lists_every_id(course, people, kernel_problem):
    kernel_problem.is_published = True
    kernel_problem.save(update_fields=["is_published"])
    html = client_for(people["ivy"]).get(reverse("exams:template_new", args=[course.pk])).content.decode()
    families_url = reverse("authoring:family-preview", args=[course.code])
    assert f'href="{families_url}"' in html
    listed = re.search(r'<datalist id="family-ids">(.*?)</datalist>', html, re.S).group(1)
    assert set(re.findall(r'<option value="([^"]+)"', listed)) == set(FAMILIES)
    assert 'list="family-ids"' in html and 'list="kernel-slugs"' in html
    slugs = re.search(r'<datalist id="kernel-slugs">(.*?)</datalist>', html, re.S).group(1)
    assert 'value="tiny-add"' in slugs
    table = html[html.index('id="family-list"'):]
    assert all(f"<code>{fid}</code>" in table for fid in FAMILIES)
    assert 'src="/static/js/template_editor.js"' in html
    # The link leads to a page the instructor may open, listing the same ids.
    page = client_for(people["ivy"]).get(families_url).content.decode()
    assert all(f'value="{fid}"' in page for fid in FAMILIES)


def test_the_korean_editor(course, people):
    html = client_for(people["ivy"]).get(reverse("exams:template_new", args=[course.pk]),
                                          HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "question families page" not in html and "Add to the template" not in html and 'id="family-ids"' in html


def test_a_mistyped_id_is_answered_with_the_closest_one(course, people, kernel_problem):
    """The tester's 'occupancy.blocks_per_sn' and 'vector-add-tale' were refused as unknown with no hint."""
    kernel_problem.is_published = True
    kernel_problem.save(update_fields=["is_published"])
    text = ("title: Quiz\nzones:\n  - pool:\n      - {family: occupancy.blocks_per_sn}\n      - {family: zzz}\n"
            "  - pool:\n      - {kernel: tiny-ad}\n")
    url = reverse("exams:template_new", args=[course.pk])
    html = client_for(people["ivy"]).post(url, {"text": text}).content.decode()
    assert "unknown family &#x27;occupancy.blocks_per_sn&#x27; (did you mean &#x27;occupancy.blocks_per_sm&#x27;?)" in html
    assert "unknown family &#x27;zzz&#x27;</code>" in html  # nothing close: no guess
    assert "unknown problem &#x27;tiny-ad&#x27; (did you mean &#x27;tiny-add&#x27;?)" in html
    korean = client_for(people["ivy"]).post(url, {"text": text}, HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "did you mean" not in korean and "알 수 없는 문제 유형" in korean


@pytest.mark.parametrize("lang, names, raw", [
    ("en", ["Programming model", "Warp divergence", "Performance models", "Occupancy"],
     ["Programming_Model", "Divergence<", "Performance<"]),
    ("ko", ["프로그래밍 모델", "Warp divergence (분기)", "성능 모델", "Occupancy (점유율)"],
     ["Programming_Model", "Programming model", ">Divergence<", ">Performance<"]),
])
def test_the_family_list_names_every_topic_in_the_readers_language(course, people, lang, names, raw):
    """The tester read "Programming_Model", and untranslated "Divergence" and "Performance" in Korean."""
    html = client_for(people["ivy"]).get(reverse("exams:template_new", args=[course.pk]),
                                          HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    table = html[html.index('id="family-list"'):]
    assert all(f"<td>{n}</td>" in table for n in names)
    assert not any(r in html for r in raw)
