"""Attempts closed because their student was removed from the course stay out of the results page's
statistics (the histogram and the question table counted them as ended work, though they ended early),
are still listed in the table with their state, and the page's note says so in English and Korean. The
live monitor offers no "Reset a question…" for such a student, nor their attempt's page its reset buttons."""
import re

import pytest
from django.urls import reverse

from courses.actions import remove_member
from courses.models import Membership
from exams.actions.attempts import save_answers, start_attempt, submit_attempt

from .conftest import client_for, right_answers

pytestmark = pytest.mark.django_db

REMOVED_NOTE = {"en": "1 attempt closed when its student was removed from the course is listed in the table but "
                      "not counted.",
                "ko": "학생이 강좌에서 제외되어 종료된 응시 1건은 표에는 나오지만 통계에는 세지 않습니다."}
ENDED = {"en": "count the 1 ended attempt", "ko": "끝난 응시 1건"}
LABEL = {"en": "Closed: removed from the course", "ko": "종료됨: 강좌에서 제외됨"}


@pytest.fixture
def alice_submitted_bob_removed(exam, people):
    """Both answer every question right; alice submits, bob is removed from the course mid-exam."""
    attempts = {}
    for name in ("alice", "bob"):
        a = attempts[name] = start_attempt(exam, people[name])
        save_answers(a.pk, people[name], {q.key: right_answers(q) for q in a.items.filter(kind="question")})
    submit_attempt(attempts["alice"].pk, people["alice"])
    remove_member(exam.course, people["ivy"], Membership.objects.get(course=exam.course, user=people["bob"]).pk)
    for a in attempts.values():
        a.refresh_from_db()
    assert attempts["bob"].close_reason == "removed" and attempts["bob"].total > 0
    return attempts


def _histogram_total(html: str) -> int:
    hist = html[html.index('id="histogram"'):html.index('id="item-stats"')]
    return sum(int(n) for n in re.findall(r"<title>[^<]*: (\d+)</title>", hist))


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_removed_attempts_are_listed_but_not_counted(exam, people, alice_submitted_bob_removed, lang):
    html = client_for(people["ivy"]).get(reverse("exams:results", args=[exam.pk]),
                                         HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert _histogram_total(html) == 1
    stats = html[html.index('id="item-stats"'):]
    for slot in set(re.findall(r'data-slot="([^"]+)"', stats)):
        row = stats[stats.index(f'data-slot="{slot}"'):].split("</tr>")[0]
        assert re.findall(r'<td class="num">(\d+|–)</td>', row)[0] == "1", slot  # Drawn: alice's attempt only
    note = html.split('id="ended-scope">', 1)[1].split("</p>", 1)[0]
    assert ENDED[lang] in note and REMOVED_NOTE[lang] in note
    states = dict(re.findall(r'<tr data-student="(\w+)">.*?<td class="state">([^<]*)</td>', html, re.S))
    assert states["bob"] == LABEL[lang] and set(states) == {"alice", "bob"}


def test_without_removals_the_note_says_nothing_of_them(exam, people):
    a = start_attempt(exam, people["alice"])
    submit_attempt(a.pk, people["alice"])
    html = client_for(people["ivy"]).get(reverse("exams:results", args=[exam.pk])).content.decode()
    note = html.split('id="ended-scope">', 1)[1].split("</p>", 1)[0]
    assert ENDED["en"] in note and "removed" not in note


def test_the_monitor_offers_no_reset_for_a_removed_or_submitted_student(exam, people, alice_submitted_bob_removed):
    """A submitted attempt's fresh variant could not be answered (reset_refusal): neither row offers a reset."""
    html = client_for(people["ivy"]).get(reverse("exams:monitor_live", args=[exam.pk])).content.decode()
    rows = dict(re.findall(r'<tr data-student="(\w+)" data-phase="\w+">(.*?)</tr>', html, re.S))
    assert "Reset a question…" not in rows["alice"] and "Reset a question…" not in rows["bob"]


def test_the_attempt_page_offers_no_reset_for_a_removed_or_submitted_student(exam, people, alice_submitted_bob_removed):
    ivy = client_for(people["ivy"])
    pages = {name: ivy.get(reverse("exams:attempt_detail", args=[a.pk])).content.decode()
             for name, a in alice_submitted_bob_removed.items()}
    assert 'class="inline-form reset-form"' not in pages["alice"]
    assert 'class="inline-form reset-form"' not in pages["bob"] and LABEL["en"] in pages["bob"]
