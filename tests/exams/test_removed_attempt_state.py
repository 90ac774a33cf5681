"""An attempt closed because the student was removed from the course is named so wherever its state
shows: the staff results, the live monitor, the attempt's page, the student's own pages and the admin
say "Closed: removed from the course" (Korean: 종료됨: 강좌에서 제외됨), not "Closed at the deadline".
Staff can neither extend it nor reset its questions until the student is back in the course (and, for a
reset, the attempt re-opened by an extension): each is refused on the server, saying so, changing nothing."""
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


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_attempt_page_offers_no_extension_while_the_student_is_out_and_says_why(exam, people, ended, lang):
    """The page shows the reason in place of the Extend form (extend_refusal, the rule extend_attempt applies),
    and the form again once the student is back in the course."""
    alice, _bob = ended
    client = client_for(people["tom"])
    html = html_lib.unescape(client.get(reverse("exams:attempt_detail", args=[alice.pk]),
                                        HTTP_ACCEPT_LANGUAGE=lang).content.decode())
    assert 'id="extend-button"' not in html and 'id="extend-refusal"' in html and REFUSED[lang] in html
    enrol(people["alice"], exam.course, "student")
    html = client.get(reverse("exams:attempt_detail", args=[alice.pk])).content.decode()
    assert 'id="extend-button"' in html and 'id="extend-refusal"' not in html


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


# ---- resetting a question of the removed student's attempt ---------------------------------------

RESET_REFUSED = {
    "en": "alice is not in this course, so their questions cannot be reset: add them to the course again first, "
          "then extend their time and reset the question.",
    "ko": "alice 학생은 이 강좌에 없어 문항을 초기화할 수 없습니다. 먼저 강좌에 다시 추가한 뒤 시간을 연장하고 문항을 "
          "초기화하세요."}
RESET_REFUSED_BACK = {
    "en": "alice's attempt was closed when they were removed from the course, so its questions cannot be reset: "
          "extend their time first, which re-opens it.",
    "ko": "alice 학생의 응시는 강좌에서 제외되어 종료되었으므로 문항을 초기화할 수 없습니다. 먼저 시간을 연장해 응시를 "
          "다시 여세요."}
RESET_DONE = {"en": "was reset with a new variant.", "ko": "새 변형으로 초기화했습니다."}


@pytest.fixture
def removed_with_answers(exam, people):
    """alice answers every question right and is then removed from the course mid-exam (her attempt is
    closed and graded with them); bob's attempt, with the same answers, stays open."""
    from courses.models import Membership
    from exams.actions.attempts import save_answers

    from .conftest import right_answers

    attempts = {}
    for name in ("alice", "bob"):
        a = attempts[name] = start_attempt(exam, people[name])
        save_answers(a.pk, people[name], {q.key: right_answers(q) for q in a.items.filter(kind="question")})
    remove_member(exam.course, people["ivy"], Membership.objects.get(course=exam.course, user=people["alice"]).pk)
    for a in attempts.values():
        a.refresh_from_db()
    assert attempts["alice"].closed_for_removal and attempts["alice"].total > 0
    return attempts


def _snapshot(attempt):
    """Everything a reset would change: the attempt's state and score, each item, and its timeline."""
    from exams.models import ExamItem

    attempt = ExamAttempt.objects.get(pk=attempt.pk)
    items = list(ExamItem.objects.filter(attempt=attempt).order_by("pk")
                 .values("pk", "data", "answer", "saved_at", "points", "status"))
    submissions = sorted(attempt.items.values_list("submissions__pk", flat=True), key=str)
    return ((attempt.state, attempt.close_reason, attempt.deadline, attempt.ended_at, attempt.total), items,
            submissions, list(attempt.events.values_list("kind", flat=True)))


@pytest.mark.parametrize("staff", ["ivy", "tom"])
@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_crafted_reset_is_refused_while_the_student_is_out_of_the_course(exam, people, removed_with_answers,
                                                                         staff, lang):
    """The attempt's page offers no reset for the removed student (test_removed_statistics); a POST made by
    hand, by the instructor or a TA, is refused with the reason on the attempt's page, in English and
    Korean, and changes nothing: the same variants, answers, scores and timeline."""
    alice = removed_with_answers["alice"]
    before = _snapshot(alice)
    for item in alice.items.all():  # a question and the kernel item alike
        response = client_for(people[staff]).post(reverse("exams:reset", args=[item.pk]), HTTP_ACCEPT_LANGUAGE=lang,
                                                  follow=True)
        assert response.redirect_chain[-1][0] == reverse("exams:attempt_detail", args=[alice.pk])
        page = html_lib.unescape(response.content.decode())
        assert RESET_REFUSED[lang] in page and RESET_DONE[lang] not in page
    assert _snapshot(alice) == before


def test_reset_item_refuses_the_removed_students_attempt(exam, people, removed_with_answers):
    """The write path itself refuses (not only the view): code "not_in_course", 409, nothing changed."""
    from exams.actions.resets import reset_item
    from exams.errors import ExamError

    alice = removed_with_answers["alice"]
    before = _snapshot(alice)
    with pytest.raises(ExamError) as refused:
        reset_item(alice.items.filter(kind="question").first().pk, people["ivy"])
    assert (str(refused.value), refused.value.code, refused.value.status) == (RESET_REFUSED["en"], "not_in_course", 409)
    assert _snapshot(alice) == before


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_re_added_the_reset_waits_for_the_extension_that_re_opens_the_attempt(exam, people, removed_with_answers,
                                                                             lang):
    """Back in the course, alice's attempt is still the one closed for her removal (the page still offers no
    reset): the refusal says to extend her time first. Once extended, the reset works."""
    alice = removed_with_answers["alice"]
    enrol(people["alice"], exam.course, "student")
    item = alice.items.filter(kind="question").first()
    before = _snapshot(alice)
    client = client_for(people["tom"])
    page = html_lib.unescape(client.post(reverse("exams:reset", args=[item.pk]), HTTP_ACCEPT_LANGUAGE=lang,
                                         follow=True).content.decode())
    assert RESET_REFUSED_BACK[lang] in page and 'class="inline-form reset-form"' not in page
    assert _snapshot(alice) == before
    extend_attempt(alice.pk, 10, people["ivy"])
    page = html_lib.unescape(client.post(reverse("exams:reset", args=[item.pk]), HTTP_ACCEPT_LANGUAGE=lang,
                                         follow=True).content.decode())
    assert RESET_DONE[lang] in page and 'class="inline-form reset-form"' in page
    item.refresh_from_db()
    assert item.answer == {} and item.data["generation"] == 1


@pytest.mark.parametrize("staff", ["ivy", "tom"])
def test_the_reset_still_works_for_a_student_in_the_course(exam, people, removed_with_answers, staff):
    """bob, still in the course, gets a fresh variant from the same button: answer cleared, logged."""
    from exams.models import EventKind

    bob = removed_with_answers["bob"]
    item = bob.items.filter(kind="question").first()
    old_seed = item.data["question"]["seed"]
    response = client_for(people[staff]).post(reverse("exams:reset", args=[item.pk]), follow=True)
    assert RESET_DONE["en"] in html_lib.unescape(response.content.decode())
    item.refresh_from_db()
    assert (item.answer, item.data["generation"]) == ({}, 1) and item.data["question"]["seed"] != old_seed
    assert bob.events.filter(kind=EventKind.RESET, by=people[staff]).exists()


@pytest.mark.parametrize("language, text", [("en", "submitted this attempt, so a question reset now could not be answered"),
                                            ("ko", "이미 응시를 제출했으므로")])
def test_a_crafted_reset_of_a_submitted_attempt_is_refused(exam, people, language, text):
    """A submitted attempt cannot be re-opened, so a fresh variant would score nothing: the reset is refused,
    through the view as through reset_item, and the question keeps its variant and answer (a tester's reset
    lowered a released score from 11 to 6)."""
    from django.utils import translation

    from exams.actions.attempts import save_answers, submit_attempt
    from exams.actions.resets import reset_item
    from exams.errors import ExamError

    a = start_attempt(exam, people["alice"])
    q = a.items.filter(kind="question").first()
    save_answers(a.pk, people["alice"], {q.key: {k: str(v) for k, v in q.data["question"]["answer"].items()}})
    submit_attempt(a.pk, people["alice"])
    q.refresh_from_db()
    before = (dict(q.data), dict(q.answer), q.points)
    response = client_for(people["ivy"]).post(reverse("exams:reset", args=[q.pk]), HTTP_ACCEPT_LANGUAGE=language,
                                              follow=True)
    assert text in response.content.decode()
    with translation.override(language), pytest.raises(ExamError) as refused:
        reset_item(q.pk, people["ivy"])
    assert refused.value.code == "submitted" and refused.value.status == 409
    q.refresh_from_db()
    assert (q.data, q.answer, q.points) == before


RELEASED = {"en": "Students already see this exam's results and answer keys, so no attempt can be re-opened or "
                  "extended: it could be answered after the keys. To give more time anyway, hold the results first "
                  "(clear the exam's \"results released at\").",
            "ko": "학생들이 이미 이 시험의 결과와 정답을 보고 있어 응시를 다시 열거나 연장할 수 없습니다. 정답을 본 뒤에 "
                  "답할 수 있기 때문입니다. 그래도 시간을 더 주려면 먼저 결과 공개를 보류하세요(시험의 \"결과 공개 시각\"을 "
                  "비우세요)."}


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_no_attempt_re_opens_once_students_see_the_results(exam, people, ended, lang):
    """Once the results (the keys, the worked solutions) are out, neither the re-added student's attempt nor
    one closed at its deadline can be extended, which would re-open it to be answered after the keys: the
    page says why instead of the form, and a forged extension is refused with nothing changed. Held again
    (no release time), the extension is offered and re-opens the attempt."""
    from exams.errors import ExamError
    from exams.models import Exam
    from exams.release import results_visible

    alice, bob = ended
    enrol(people["alice"], exam.course, "student")  # back in the course: only the release refuses now
    now = timezone.now()
    Exam.objects.filter(pk=exam.pk).update(results_release_at=now - timedelta(seconds=1),
                                           closes_at=now - timedelta(seconds=1))
    assert results_visible(Exam.objects.get(pk=exam.pk))
    for attempt in (alice, bob):
        with pytest.raises(ExamError) as refused:
            extend_attempt(attempt.pk, 10, people["ivy"])
        assert refused.value.code == "results_released"
        html = html_lib.unescape(client_for(people["tom"]).get(reverse("exams:attempt_detail", args=[attempt.pk]),
                                                                HTTP_ACCEPT_LANGUAGE=lang).content.decode())
        assert 'id="extend-button"' not in html and RELEASED[lang] in html
    assert ExamAttempt.objects.get(pk=bob.pk).state == "closed"
    Exam.objects.filter(pk=exam.pk).update(results_release_at=None)
    extend_attempt(bob.pk, 10, people["ivy"])
    assert ExamAttempt.objects.get(pk=bob.pk).state == "open"


def test_the_monitor_offers_no_extension_for_a_removed_students_attempt(exam, people, ended):
    """The live monitor's row of the removed student's attempt has neither "Extend time…" nor "Reset a
    question…"; the attempt's page says how (re-add, then extend)."""
    html = client_for(people["ivy"]).get(reverse("exams:monitor", args=[exam.pk])).content.decode()
    rows = dict(re.findall(r'<tr[^>]*data-student="(\w+)"[^>]*>(.*?)</tr>', html, re.S))
    assert "Extend time…" not in rows["alice"] and "Reset a question…" not in rows["alice"]
    assert "Extend time…" in rows["bob"]
