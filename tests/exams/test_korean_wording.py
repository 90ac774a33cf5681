"""The exams pages' words in Korean: the course's exam list gave every duration as "30 min" in both
languages; the accommodations page names a student's own window one way (개인 응시 기간) in its column,
its labels and their help."""
import re

import pytest
from django.urls import reverse

from exams.actions.scheduling import set_accommodation

from .conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("lang, duration", [("en", "<td>30 minutes</td>"), ("ko", "<td>30분</td>")])
def test_the_exam_list_gives_the_exams_duration_in_the_readers_words(exam, people, lang, duration):
    exam.duration_minutes = 30
    exam.save(update_fields=["duration_minutes"])
    for who in ("ivy", "alice"):
        html = client_for(people[who]).get(reverse("exams:course", args=[exam.course_id]),
                                           HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        assert duration in html and " min<" not in html
    exam.duration_minutes = 1
    exam.save(update_fields=["duration_minutes"])
    html = client_for(people["alice"]).get(reverse("exams:course", args=[exam.course_id]),
                                           HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert ("<td>1 minute</td>" if lang == "en" else "<td>1분</td>") in html


def test_the_accommodations_page_names_the_own_window_one_way(exam, people):
    set_accommodation(exam, people["alice"], extra_minutes=10, opens_at=exam.opens_at, closes_at=exam.closes_at)
    html = client_for(people["ivy"]).get(reverse("exams:accommodations", args=[exam.pk]),
                                         HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "<th>개인 응시 기간</th>" in html
    labels = re.findall(r'<label for="id_(?:opens|closes)_at">([^<]*)</label>', html)
    assert labels == ["개인 응시 기간 시작", "개인 응시 기간 마감"]
    helps = re.findall(r'<div class="help">([^<]*)</div>', html)
    assert sum(h.startswith("이 학생의 개인 응시 기간: ") for h in helps) == 2
    assert "개별 응시" not in html and "Own window" not in html
    english = client_for(people["ivy"]).get(reverse("exams:accommodations", args=[exam.pk])).content.decode()
    assert "<th>Own window</th>" in english and "This student's own window: when the exam opens" in english
