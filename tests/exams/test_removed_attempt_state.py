"""An attempt closed because the student was removed from the course is named so wherever its state
shows: the staff results, the live monitor, the attempt's page, the student's own pages and the admin
say "Closed: removed from the course" (Korean: 종료됨: 강좌에서 제외됨), not "Closed at the deadline"."""
from __future__ import annotations

import html as html_lib
import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from courses.actions import remove_member
from exams.actions.attempts import close_attempt, extend_attempt, start_attempt
from exams.models import AttemptState, CloseReason, ExamAttempt

from .conftest import client_for, enrol

pytestmark = pytest.mark.django_db

LABEL = {"en": "Closed: removed from the course", "ko": "종료됨: 강좌에서 제외됨"}
DEADLINE = {"en": "Closed at the deadline", "ko": "마감 시각에 종료됨"}


@pytest.fixture
def ended(exam, people):
    """alice removed from the course while taking the exam; bob's attempt closed at its deadline."""
    from courses.models import Membership

    alice, bob = start_attempt(exam, people["alice"]), start_attempt(exam, people["bob"])
    remove_member(exam.course, people["ivy"], Membership.objects.get(course=exam.course, user=people["alice"]).pk)
    close_attempt(bob.pk, AttemptState.CLOSED, now=bob.deadline + timedelta(seconds=1))
    alice.refresh_from_db()
    bob.refresh_from_db()
    return alice, bob


def test_the_attempt_keeps_why_it_was_closed(ended):
    alice, bob = ended
    assert (alice.state, alice.close_reason, alice.state_label) == ("closed", "removed", LABEL["en"])
    assert (bob.state, bob.close_reason, bob.state_label) == ("closed", "", DEADLINE["en"])


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_staff_results_name_the_reason(exam, people, ended, lang):
    html = client_for(people["ivy"]).get(reverse("exams:results", args=[exam.pk]),
                                         HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    states = dict(re.findall(r'<tr data-student="(\w+)">.*?<td class="state">([^<]*)</td>', html, re.S))
    assert states == {"alice": LABEL[lang], "bob": DEADLINE[lang]}


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_monitor_names_the_reason_and_counts_it_apart(exam, people, ended, lang):
    html = client_for(people["ivy"]).get(reverse("exams:monitor_live", args=[exam.pk]),
                                         HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    phases = dict(re.findall(r'<tr data-student="(\w+)" data-phase="\w+">\s*<td>.*?</td>\s*<td class="phase">([^<]*)',
                             html, re.S))
    assert phases == {"alice": LABEL[lang], "bob": DEADLINE[lang]}
    counts = dict(re.findall(r'<li data-count="(\w+)"><strong>(\d+)</strong>', html))
    assert (counts["closed"], counts["removed"]) == ("1", "1")


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_attempt_page_names_the_reason(exam, people, ended, lang):
    alice, _bob = ended
    html = client_for(people["ivy"]).get(reverse("exams:attempt_detail", args=[alice.pk]),
                                         HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert re.search(r'<span id="attempt-state">([^<]*)</span>', html).group(1) == LABEL[lang]


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_students_own_pages_name_the_reason_once_back_in_the_course(exam, people, ended, lang):
    """Re-enrolled, alice reads on the exam page why her attempt ended, and her released result names it."""
    enrol(people["alice"], exam.course, "student")
    exam.results_release_at = timezone.now() - timedelta(minutes=1)
    exam.save(update_fields=["results_release_at"])
    alice = client_for(people["alice"])
    page = alice.get(reverse("exams:exam", args=[exam.pk]), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    ended_note = re.search(r'<div[^>]*id="attempt-ended">(.*?)</div>', page, re.S).group(1)
    assert ("removed from the course" in ended_note) == (lang == "en")
    assert ("강좌에서 제외되어" in ended_note) == (lang == "ko")
    assert "deadline" not in ended_note and "마감" not in ended_note
    result = alice.get(reverse("exams:result", args=[exam.pk]), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert re.search(r'<span id="attempt-state">([^<]*)</span>', result).group(1) == LABEL[lang]


def test_the_admin_lists_and_filters_by_the_reason(exam, people, ended):
    client = client_for(User.objects.create_superuser("root", password="pass-1234-word"))
    html = client.get("/admin/exams/examattempt/", HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert sorted(re.findall(r'<td class="field-state_shown">([^<]*)</td>', html)) == sorted([LABEL["ko"], DEADLINE["ko"]])
    filtered = client.get("/admin/exams/examattempt/", {"close_reason__exact": "removed"})
    assert [a.user.username for a in filtered.context["cl"].result_list] == ["alice"]


REFUSED = {"en": "alice is not in this course, so their attempt cannot be extended: add them to the course again "
                 "first, then extend their time.",
           "ko": "alice 학생은 이 강좌에 없어 응시 시간을 연장할 수 없습니다. 먼저 강좌에 다시 추가한 뒤 시간을 연장하세요."}


def test_no_extension_while_the_student_is_out_of_the_course(exam, people, ended):
    """Extending the removed student's attempt is refused, and nothing changes: it stays closed with its
    reason, its deadline as it was, and its timeline has no extension."""
    from exams.errors import ExamError
    from exams.models import EventKind

    alice, _bob = ended
    with pytest.raises(ExamError) as refused:
        extend_attempt(alice.pk, 10, people["ivy"])
    assert str(refused.value) == REFUSED["en"] and refused.value.code == "not_in_course"
    after = ExamAttempt.objects.get(pk=alice.pk)
    assert (after.state, after.close_reason, after.deadline, after.ended_at) == (
        "closed", "removed", alice.deadline, alice.ended_at)
    assert not after.events.filter(kind=EventKind.EXTENDED).exists()


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_extend_time_on_the_attempt_page_says_to_re_add_the_student_first(exam, people, ended, lang):
    """Staff's "Extend time…" answers with the reason on the attempt's page, in English and Korean."""
    alice, _bob = ended
    client = client_for(people["tom"])
    response = client.post(reverse("exams:extend", args=[alice.pk]), {"minutes": 10}, HTTP_ACCEPT_LANGUAGE=lang,
                           follow=True)
    assert REFUSED[lang] in html_lib.unescape(response.content.decode())
    alice.refresh_from_db()
    assert (alice.state, alice.close_reason) == ("closed", "removed")


def test_an_extension_reopens_without_the_old_reason_once_re_added(exam, people, ended):
    """Re-added to the course, the removed student's attempt may be re-opened; it loses the old reason,
    and closed again at its deadline, it says so."""
    alice, _bob = ended
    enrol(people["alice"], exam.course, "student")
    extend_attempt(alice.pk, 10, people["ivy"])
    alice.refresh_from_db()
    assert (alice.state, alice.close_reason) == ("open", "")
    close_attempt(alice.pk, AttemptState.CLOSED, now=alice.deadline + timedelta(seconds=1))
    alice.refresh_from_db()
    assert alice.state_label == DEADLINE["en"]


def test_the_migration_reads_the_reason_from_older_timelines(exam, people, ended):
    """Attempts closed for a removal before the field existed get it from their CLOSED event."""
    import importlib

    from django.apps import apps

    alice, bob = ended
    ExamAttempt.objects.update(close_reason="")
    importlib.import_module("exams.migrations.0005_attempt_close_reason").from_timelines(apps, None)
    assert dict(ExamAttempt.objects.values_list("user__username", "close_reason")) == {"alice": CloseReason.REMOVED,
                                                                                       "bob": ""}
