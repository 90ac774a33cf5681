"""Released results wait for the last running attempt (exams.release): the tester released an exam while
bob, with an extension, was still answering, and alice read the keys and worked solutions of the same
questions. Students read why and until when, in English and Korean and in their own time zone; the
instructor's results and edit pages warn, and saving such a release time is not refused."""
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.core.times import format_when
from accounts.timezones import when
from exams.actions.attempts import close_expired, extend_attempt, start_attempt, submit_attempt
from exams.actions.scheduling import set_accommodation
from exams.models import ExamAttempt
from exams.release import release_state, results_visible

from .conftest import client_for

pytestmark = pytest.mark.django_db
HELD_EN = "Results are released, but they are shown once every student's attempt has ended"
HELD_KO = "결과는 공개되었지만 모든 학생의 응시가 끝난 뒤에 보입니다"


def release_now(exam):
    exam.results_release_at = timezone.now() - timedelta(seconds=1)
    exam.save(update_fields=["results_release_at"])


def alice_done_bob_running(exam, people):
    """Alice has submitted; bob is still answering. Returns bob's attempt."""
    submit_attempt(start_attempt(exam, people["alice"]).pk, people["alice"])
    return start_attempt(exam, people["bob"])


def end(attempt, at=None):
    """Move `attempt`'s deadline to the past and let the sweep close it."""
    ExamAttempt.objects.filter(pk=attempt.pk).update(deadline=at or timezone.now() - timedelta(seconds=1))
    close_expired()


def test_the_result_waits_for_the_last_running_attempt_then_shows(exam, people):
    """Released while bob answers: alice's result page sends her to the exam page, which says why and
    when bob's attempt ends; no key, no worked solution. Once bob's deadline passes, her result shows."""
    bob = alice_done_bob_running(exam, people)
    release_now(exam)
    alice = client_for(people["alice"])
    held = alice.get(reverse("exams:result", args=[exam.pk]), follow=True)
    assert held.redirect_chain[-1][0] == reverse("exams:exam", args=[exam.pk])
    html = held.content.decode()
    assert HELD_EN in html and f"(the last one ends at {when(bob.deadline)})" in html
    assert "Worked solution" not in html and "Correct answer" not in html and 'id="see-result"' not in html
    end(bob)
    shown = alice.get(reverse("exams:result", args=[exam.pk])).content.decode()
    assert "Worked solution" in shown and "Correct answer" in shown
    assert 'id="see-result"' in alice.get(reverse("exams:exam", args=[exam.pk])).content.decode()


def test_an_extension_waits_for_the_results_to_be_held_and_keeps_them_held(exam, people):
    """Bob's attempt closed at its deadline and the results showed: re-opening it now would let him answer
    after the keys were out, so the extension is refused (exams.actions.attempts.extend_refusal). Staff hold
    the results (no release time), extend bob, and release again: the results stay held from every student
    until his new deadline."""
    from exams.errors import ExamError

    bob = alice_done_bob_running(exam, people)
    end(bob)
    release_now(exam)
    assert results_visible(exam)
    with pytest.raises(ExamError) as refused:
        extend_attempt(bob.pk, 15, people["ivy"])
    assert refused.value.code == "results_released"
    exam.results_release_at = None
    exam.save(update_fields=["results_release_at"])
    bob = extend_attempt(bob.pk, 15, people["ivy"])
    release_now(exam)
    alice = client_for(people["alice"])
    page = alice.get(reverse("exams:result", args=[exam.pk]), follow=True).content.decode()
    assert HELD_EN in page and when(bob.deadline) in page and "Worked solution" not in page


def test_an_accommodation_keeps_results_held_past_the_others_deadlines(exam, people):
    """Bob's 60 extra minutes (his own window closing later) run past alice's 30: released results stay
    held until his deadline, and show from it."""
    set_accommodation(exam, people["bob"], 60, closes_at=exam.closes_at + timedelta(hours=2))
    alice = start_attempt(exam, people["alice"])
    bob = start_attempt(exam, people["bob"])
    assert bob.deadline - alice.deadline >= timedelta(minutes=59)
    release_now(exam)
    after_alice = alice.deadline + timedelta(minutes=1)
    state = release_state(exam, after_alice)
    assert state.held and state.running == 1 and state.last_ends_at == bob.deadline
    assert not results_visible(exam, bob.deadline - timedelta(seconds=1))
    assert results_visible(exam, bob.deadline)


@pytest.mark.parametrize("lang, words", [("en", HELD_EN), ("ko", HELD_KO)])
def test_the_held_note_reads_in_the_students_language_and_time_zone(exam, people, lang, words):
    bob = alice_done_bob_running(exam, people)
    release_now(exam)
    alice = client_for(people["alice"])
    alice.cookies["wd_tz"] = "Asia/Seoul"
    html = alice.get(reverse("exams:exam", args=[exam.pk]), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert words in html and format_when(bob.deadline, ZoneInfo("Asia/Seoul")) in html


def test_not_released_still_says_not_released(exam, people):
    """No release time: the page says so, not that results wait for the others."""
    alice_done_bob_running(exam, people)
    page = client_for(people["alice"]).get(reverse("exams:result", args=[exam.pk]), follow=True).content.decode()
    assert "Your result is not released yet." in page and HELD_EN not in page


@pytest.mark.parametrize("lang, words", [
    ("en", "1 attempt is still running (it ends at {t}); students will see results after that."),
    ("ko", "아직 진행 중인 응시가 1건 있습니다(마지막 응시 종료: {t}). 학생들은 그 뒤에 결과를 봅니다.")])
def test_staff_are_warned_when_a_release_time_comes_before_running_attempts_end(exam, people, lang, words):
    """Saving a release time of now while bob answers is not refused: the results page it leads to, and
    the edit page, say how many attempts still run and when the last ends. Staff pages are not held."""
    bob = alice_done_bob_running(exam, people)
    ivy = client_for(people["ivy"])
    def local(at):  # the form's datetime-local format, in the site's zone (no zone cookie)
        return timezone.localtime(at).strftime("%Y-%m-%dT%H:%M")

    r = ivy.post(reverse("exams:exam_edit", args=[exam.course_id, exam.pk]), {
        "template": exam.template_id, "title": exam.title, "opens_at": local(exam.opens_at),
        "closes_at": local(exam.closes_at), "duration_minutes": exam.duration_minutes, "feedback": exam.feedback,
        "results_release_at": local(timezone.now() - timedelta(minutes=1))}, HTTP_ACCEPT_LANGUAGE=lang, follow=True)
    exam.refresh_from_db()
    assert r.status_code == 200 and exam.results_release_at is not None
    expected = words.format(t=when(bob.deadline))
    assert expected in r.content.decode().replace("&#x27;", "'")
    edit = ivy.get(reverse("exams:exam_edit", args=[exam.course_id, exam.pk]), HTTP_ACCEPT_LANGUAGE=lang)
    assert expected in edit.content.decode()
    alice_attempt = ExamAttempt.objects.get(exam=exam, user=people["alice"])
    detail = ivy.get(reverse("exams:attempt_detail", args=[alice_attempt.pk])).content.decode()
    assert "Worked solution" in detail and "Correct answer" in detail  # staff views are not held
    end(bob)
    assert 'id="results-held"' not in ivy.get(reverse("exams:results", args=[exam.pk])).content.decode()


def test_a_release_time_after_every_attempt_ends_gives_no_warning(exam, people):
    bob = alice_done_bob_running(exam, people)
    exam.results_release_at = bob.deadline + timedelta(minutes=5)
    exam.save(update_fields=["results_release_at"])
    page = client_for(people["ivy"]).get(reverse("exams:results", args=[exam.pk])).content.decode()
    assert 'id="results-held"' not in page


@pytest.mark.parametrize("lang, words", [
    ("en", "1 student has not started yet and may start until {t}; students will see results after that."),
    ("ko", "아직 시작하지 않은 학생이 1명 있으며 {t}까지 시작할 수 있습니다. 학생들은 그 뒤에 결과를 봅니다.")])
def test_a_student_who_has_not_started_holds_results_while_the_window_is_open(exam, people, lang, words):
    """Released while the exam's window is open: alice has submitted, bob has not started and still may. Alice
    is held (the keys would reach bob before he starts); staff read why and until when; once the window
    closes, alice sees her result."""
    submit_attempt(start_attempt(exam, people["alice"]).pk, people["alice"])
    release_now(exam)
    assert not results_visible(exam) and release_state(exam).waiting == 1
    alice = client_for(people["alice"])
    held = alice.get(reverse("exams:result", args=[exam.pk]), follow=True)
    assert held.redirect_chain[-1][0] == reverse("exams:exam", args=[exam.pk])
    assert "Worked solution" not in held.content.decode()
    page = client_for(people["ivy"]).get(reverse("exams:results", args=[exam.pk]), HTTP_ACCEPT_LANGUAGE=lang)
    assert words.format(t=when(exam.closes_at)) in page.content.decode().replace("&#x27;", "'")
    type(exam).objects.filter(pk=exam.pk).update(closes_at=timezone.now() - timedelta(seconds=1))
    assert "Worked solution" in alice.get(reverse("exams:result", args=[exam.pk])).content.decode()
