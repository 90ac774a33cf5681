"""The course dashboard reads as finished: the last day under the submissions chart is drawn whole
(it was cut to "12-0" at the chart's edge), the summary's first sentence ends with a full stop
before "Counted: …", and one student is "1 student", in English and Korean."""
from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from authoring.core.stats import axis_ticks, bars

pytestmark = pytest.mark.django_db


def test_the_day_labels_stay_inside_the_chart():
    days = bars([(f"11-{d:02d}", d % 3, "bar-day") for d in range(1, 31)])
    ticks = axis_ticks(days)
    assert (ticks[0].label, ticks[0].anchor, ticks[0].x) == ("11-01", "start", days[0].x)
    last = ticks[-1]
    assert (last.label, last.anchor) == ("11-30", "end")
    assert last.x == pytest.approx(days[-1].x + days[-1].width) and last.x <= 600
    assert all(t.anchor == "middle" for t in ticks[1:-1]) and [t.label for t in ticks[1:-1]] == ["11-07", "11-14", "11-21"]
    # Day 28 would sit 2 bars from the last label: left out rather than drawn over it.
    assert "11-28" not in [t.label for t in ticks]
    assert axis_ticks([]) == [] and [t.anchor for t in axis_ticks(days[:1])] == ["start"]


@pytest.mark.parametrize("lang, joined", [
    ("en", "0 graded submissions by the course's 1 student (validation runs, platform faults and staff are not "
           "counted). Counted: the course"),
    ("ko", "강좌 학생 1명의 채점된 제출 0건 (검증 실행, 플랫폼 오류, 강좌 운영진의 제출은 세지 않습니다). 집계 대상:"),
])
def test_the_summary_is_two_sentences_and_the_last_day_is_anchored_at_its_end(client_for, courses, lang, joined):
    page = client_for("prof").get(reverse("authoring:dashboard", args=["PP-A"]), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    text = html.unescape(" ".join(re.sub(r"<[^>]+>", " ", page).split()).replace(" .", "."))
    assert joined in text
    chart = re.search(r'<svg[^>]*id="daily-chart".*?</svg>', page, re.S).group(0)
    labels = re.findall(r'<text x="([\d.]+)" y="196" class="tick" text-anchor="(\w+)">', chart)
    assert labels[0][1] == "start" and labels[-1][1] == "end" and float(labels[-1][0]) <= 600
