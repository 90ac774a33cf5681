"""The template editor's validation errors are in the reader's language: a fresh user read "a: unknown key
(allowed: format, title, zones)" and "zones: must be a non-empty list" in English on the Korean page. The core
(exams.core.template) writes each problem as a TemplateMessage with a code and parameters
(exams.core.template_problems), and the edge renders it from one catalogue (exams/template_messages.py)."""
from __future__ import annotations

import html as html_lib

import pytest
from django.urls import reverse
from django.utils import translation

from exams.core.template import TemplateError, parse_template
from exams.core.template_problems import TemplateMessage, TemplateProblem
from exams.template_messages import _plain_texts, localize

from .conftest import client_for

SAID = {
    "en": ["a: unknown key (allowed: format, title, zones)", "zones: must be a non-empty list"],
    "ko": ["a: 알 수 없는 키입니다 (쓸 수 있는 키: format, title, zones)", "zones: 비어 있지 않은 목록이어야 합니다"],
}


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_editor_shows_template_errors_in_the_readers_language(course, people, lang):
    r = client_for(people["ivy"]).post(reverse("exams:template_new", args=[course.pk]),
                                       {"text": "a: 1\nzones: []\n"}, HTTP_ACCEPT_LANGUAGE=lang)
    assert r.status_code == 400
    html = html_lib.unescape(r.content.decode())
    errors = html[html.index('id="template-errors"'):].split("</div>")[0]
    for line in SAID[lang]:
        assert line in errors
    assert ("unknown key" in errors) == (lang == "en")


def _problems(data) -> list:
    with pytest.raises(TemplateError) as caught:
        parse_template(data)
    return caught.value.problems


def test_the_cores_messages_carry_their_code_and_parameters():
    """Each message is English as before (it compares equal to its text) and carries what the edge needs."""
    (_, key), (_, zones) = _problems({"a": 1, "zones": []})
    assert key == "unknown key (allowed: format, title, zones)" and key.code is TemplateProblem.UNKNOWN_KEY
    assert key.params == {"allowed": "format, title, zones"} and zones.code is TemplateProblem.EMPTY_LIST
    bad = {"title": 3, "zones": [{"pool": [{"family": "indexing.inverse", "difficulty": [3, 1], "points": -1}],
                                  "choose": "x", "shuffle": "yes", "feedback": "loud"}]}
    problems = _problems(bad)
    assert all(isinstance(m, TemplateMessage) for _p, m in problems), problems
    assert {m.code for _p, m in problems} == {TemplateProblem.NOT_TEXT, TemplateProblem.LEVELS_OUT_OF_RANGE,
                                              TemplateProblem.TOO_SMALL, TemplateProblem.NOT_WHOLE_NUMBER,
                                              TemplateProblem.NOT_BOOLEAN, TemplateProblem.NOT_ONE_OF}


def test_every_code_has_a_korean_text():
    """No code falls through to its English sentence on a Korean page."""
    coded_elsewhere = {TemplateProblem.TOO_DEEP, TemplateProblem.DUPLICATE_ITEM, TemplateProblem.POOL_TOO_SMALL,
                       TemplateProblem.POOLS_OVERLAP}
    with translation.override("en"):
        english = _plain_texts()
    with translation.override("ko"):
        korean = _plain_texts()
    assert set(korean) | coded_elsewhere == set(TemplateProblem)
    assert [code for code in korean if korean[code] == english[code]] == []
    with translation.override("ko"):
        shown = [localize(p, m) for p, m in _problems({"zones": [{"pool": [{"kernel": "x", "attempt_points": [1, 2],
                                                                              "partial_credit": 1}]}]})]
    assert "zones[0].pool[0].attempt_points: 뒤의 시도가 앞의 시도보다 점수가 크면 안 됩니다" in shown, shown
    assert "zones[0].pool[0].partial_credit: true나 false여야 합니다(입력한 값: 1)" in shown, shown
