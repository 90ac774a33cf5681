"""The results page's question table counts what its columns say (the tester saw "Attempts 2" for a
kernel one student never submitted: it counted the students who drew it), and the score histogram's bins
fit the scores: whole-number totals get whole-score bins, not 2.4-point ones."""
import re

import pytest
from django.urls import reverse

from exams.actions.attempts import save_answers, start_attempt, submit_attempt, submit_kernel
from exams.core.stats import AttemptRow, ItemRow, histogram, histogram_svg, item_stats
from grader import grading as grader_grading
from grader.core.results import JudgeResult
from grader.core.verdicts import Verdict

from .conftest import client_for, right_answers

pytestmark = pytest.mark.django_db
SOURCE = "__global__ void add(const float* a, const float* b, float* c, int n) { }\n"


def test_item_stats_count_drawn_answered_and_submissions():
    rows = [AttemptRow(1, 10.0, {"q": ItemRow(5.0, 5.0, True, True), "k": ItemRow(5.0, 10.0, False, True, 2, True)}),
            AttemptRow(2, 0.0, {"q": ItemRow(0.0, 5.0, False, False), "k": ItemRow(0.0, 10.0, False, False, 0, True)}),
            AttemptRow(3, 3.0, {"q": ItemRow(0.0, 5.0, False, True)})]
    stats = {s.key: s for s in item_stats(rows)}
    assert (stats["k"].drawn, stats["k"].answered, stats["k"].submissions) == (2, 1, 2)
    assert (stats["q"].drawn, stats["q"].answered, stats["q"].submissions) == (3, 2, None)


@pytest.mark.parametrize("totals, maximum, labels, counts", [
    ([0, 21], 24, ["0–4", "5–9", "10–14", "15–19", "20–24"], [1, 0, 0, 0, 1]),
    ([24, 20, 19], 24, ["0–4", "5–9", "10–14", "15–19", "20–24"], [0, 0, 0, 1, 2]),
    ([100, 95, 37], 100, ["0–9", "10–19", "20–29", "30–39", "40–49", "50–59", "60–69", "70–79", "80–89",
                          "90–99", "100"], [0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 1]),
    ([3, 10], 10, [str(i) for i in range(11)], [0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1]),
])
def test_whole_number_totals_get_whole_score_bins(totals, maximum, labels, counts):
    h = histogram(totals, maximum)
    assert h.labels == labels and h.counts == counts
    svg = histogram_svg(h)
    assert "2.4" not in svg and f"<title>{labels[-1]}: {counts[-1]}</title>" in svg
    shown = re.findall(r'text-anchor="middle">([^<]*)</text>', svg)
    assert labels[0] in shown and labels[-1] in shown


def test_fractional_totals_get_round_bins_from_zero():
    h = histogram([2.5, 21.5], 24)
    assert h.labels == [] and h.edges[0] == 0 and h.edges[-1] >= 24
    widths = {round(b - a, 6) for a, b in zip(h.edges, h.edges[1:])}
    assert widths == {2.0} and sum(h.counts) == 2


def test_results_page_counts_kernel_submitters_not_drawers(exam, people, not_sent):
    """Alice submits the kernel twice, Bob never: Drawn 2, Answered 1, Submissions 2."""
    for name in ("alice", "bob"):
        a = start_attempt(exam, people[name])
        save_answers(a.pk, people[name], {q.key: right_answers(q) for q in a.items.filter(kind="question")})
        if name == "alice":
            kernel = a.items.get(kind="kernel")
            for verdict in (Verdict.WRONG_ANSWER, Verdict.ACCEPTED):
                sub = submit_kernel(kernel, people[name], SOURCE)
                grader_grading.start_grading(sub.pk, "emulator")
                grader_grading.finish_grading(sub.pk, JudgeResult(verdict=verdict))
        submit_attempt(a.pk, people[name])
    html = client_for(people["ivy"]).get(reverse("exams:results", args=[exam.pk])).content.decode()
    stats = html[html.index('id="item-stats"'):]
    head = stats[:stats.index("</thead>")]
    assert ">Drawn<" in head and ">Answered<" in head and ">Submissions<" in head and ">Attempts<" not in head
    row = stats[stats.index('data-slot="z1.p0"'):].split("</tr>")[0]
    assert re.findall(r'<td class="num">(\d+|–)</td>', row) == ["2", "1", "2"]
    hist = html[html.index('id="histogram"'):html.index('id="item-stats"')]
    assert "2.4" not in hist
    korean = client_for(people["ivy"]).get(reverse("exams:results", args=[exam.pk]), HTTP_ACCEPT_LANGUAGE="ko")
    assert ">Drawn<" not in korean.content.decode()


@pytest.mark.parametrize("lang, ended_words, open_words", [
    ("en", "count the 1 ended attempt", "1 attempt still in progress is counted when it ends"),
    ("ko", "끝난 응시 1건", "진행 중인 응시 1건은 끝나면 셉니다"),
])
def test_the_results_page_says_the_statistics_count_ended_attempts(exam, people, not_sent, lang, ended_words, open_words):
    """Alice submitted, Bob is still writing: Drawn says 1, and the page says why (the tester saw Drawn 4
    while 6 had started, with no note)."""
    ivy = client_for(people["ivy"])
    url = reverse("exams:results", args=[exam.pk])
    a = start_attempt(exam, people["alice"])
    b = start_attempt(exam, people["bob"])
    html = ivy.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert 'id="item-stats"' not in html and 'id="ended-scope"' in html  # nothing ended yet: said so
    submit_attempt(a.pk, people["alice"])
    html = ivy.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    note = html.split('id="ended-scope">', 1)[1].split("</p>", 1)[0]
    assert ended_words in note and open_words in note
    row = html[html.index('data-slot="z1.p0"'):].split("</tr>")[0]
    assert re.findall(r'<td class="num">(\d+|–)</td>', row)[0] == "1"
    submit_attempt(b.pk, people["bob"])
    note = ivy.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode().split('id="ended-scope">', 1)[1].split("</p>")[0]
    assert "2" in note and open_words not in note
