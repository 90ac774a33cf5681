"""Staff end one student's attempt early (exams.actions.attempts.end_attempt, the attempt page's "End now"):
the attempt is closed with the reason "staff", graded with what was saved, the timeline and the monitor say so,
the student's page says so and a late save is refused saying why, exam mode ends with it; a second end is
refused, an extension re-opens it. In English and Korean."""
from __future__ import annotations

import html as html_lib
import json

import pytest
from django.urls import reverse

from exams.actions.attempts import end_attempt, extend_attempt, start_attempt
from exams.errors import ExamError
from exams.models import AttemptState, EventKind, ExamAttempt

from .conftest import client_for

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("not_sent")]

ENDED = {"en": "Your attempt was ended early by the course staff; everything you saved before then counts.",
         "ko": "강좌의 교수자나 조교가 응시를 일찍 끝냈습니다. 그 전에 저장한 답은 모두 인정됩니다."}
LABEL = {"en": "Closed early by staff", "ko": "종료됨: 교수자·조교가 일찍 끝냄"}


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_staff_end_an_attempt_from_its_page(exam, people, lang):
    attempt = start_attempt(exam, people["alice"])
    staff = client_for(people["tom"])
    page = html_lib.unescape(staff.get(reverse("exams:attempt_detail", args=[attempt.pk]),
                                       HTTP_ACCEPT_LANGUAGE=lang).content.decode())
    assert 'id="end-button"' in page
    url = reverse("exams:end_attempt", args=[attempt.pk])
    staff.post(url, {}, HTTP_ACCEPT_LANGUAGE=lang)  # the box not ticked: nothing happens
    assert ExamAttempt.objects.get(pk=attempt.pk).is_open
    page = html_lib.unescape(staff.post(url, {"confirm": "1"}, HTTP_ACCEPT_LANGUAGE=lang, follow=True).content.decode())
    after = ExamAttempt.objects.get(pk=attempt.pk)
    assert (after.state, after.close_reason) == (AttemptState.CLOSED, "staff") and after.ended_at is not None
    assert after.total == 0  # graded with what was saved (nothing)
    assert 'id="end-button"' not in page and LABEL[lang] in page  # the timeline names why
    event = after.events.get(kind=EventKind.CLOSED)
    assert event.by == people["tom"] and event.data == {"reason": "staff"}
    student = html_lib.unescape(client_for(people["alice"]).get(reverse("exams:exam", args=[exam.pk]),
                                                                HTTP_ACCEPT_LANGUAGE=lang).content.decode())
    assert ENDED[lang] in student
    monitor = html_lib.unescape(staff.get(reverse("exams:monitor", args=[exam.pk]),
                                          HTTP_ACCEPT_LANGUAGE=lang).content.decode())
    assert 'data-phase="ended"' in monitor and 'data-count="ended"' in monitor and LABEL[lang] in monitor


def test_a_late_save_says_staff_ended_it_and_the_site_opens(exam, people):
    attempt = start_attempt(exam, people["alice"])
    question = attempt.items.filter(kind="question").first()
    field = question.data["question"]["fields"][0]["name"]
    alice = client_for(people["alice"])
    assert alice.get(reverse("problems:list")).status_code == 302  # exam mode: the site is closed
    end_attempt(attempt.pk, people["tom"])
    response = alice.post(reverse("exams:save", args=[exam.pk]), json.dumps({"answers": {question.key: {field: "4"}}}),
                          content_type="application/json")
    assert response.status_code == 409 and response.json()["code"] == "ended"
    assert "ended your attempt" in response.json()["error"]
    assert alice.get(reverse("problems:list")).status_code == 200  # and open again


def test_ending_twice_is_refused_and_an_extension_re_opens_it(exam, people):
    attempt = start_attempt(exam, people["alice"])
    end_attempt(attempt.pk, people["tom"])
    with pytest.raises(ExamError) as refused:
        end_attempt(attempt.pk, people["tom"])
    assert refused.value.code == "ended" and refused.value.http_status == 409
    extend_attempt(attempt.pk, 10, people["tom"])
    again = ExamAttempt.objects.get(pk=attempt.pk)
    assert (again.state, again.close_reason) == (AttemptState.OPEN, "")


def test_only_the_courses_staff_may_end_an_attempt(exam, people):
    attempt = start_attempt(exam, people["alice"])
    response = client_for(people["bob"]).post(reverse("exams:end_attempt", args=[attempt.pk]), {"confirm": "1"})
    assert response.status_code in (403, 404)
    assert ExamAttempt.objects.get(pk=attempt.pk).is_open


@pytest.mark.parametrize("lang, said", [("en", "2 running attempts were ended"), ("ko", "진행 중이던 응시 2건을 끝냈습니다")])
def test_staff_end_every_running_attempt_from_the_monitor(exam, people, lang, said):
    """The monitor's "End every running attempt now…": every attempt still running ends as End now does;
    a submitted one is left as it is; without the box ticked nothing happens."""
    from exams.actions.attempts import submit_attempt

    from django.contrib.auth.models import User

    from .conftest import enrol

    carol_user = User.objects.create_user("carol")
    enrol(carol_user, exam.course, "student")
    alice, bob = start_attempt(exam, people["alice"]), start_attempt(exam, people["bob"])
    carol = start_attempt(exam, carol_user)
    submit_attempt(carol.pk, carol_user)
    staff = client_for(people["tom"])
    url = reverse("exams:end_all", args=[exam.pk])
    assert 'id="end-all-button"' in staff.get(reverse("exams:monitor", args=[exam.pk])).content.decode()
    staff.post(url, {}, HTTP_ACCEPT_LANGUAGE=lang)
    assert ExamAttempt.objects.filter(exam=exam, state=AttemptState.OPEN).count() == 2
    page = staff.post(url, {"confirm": "1"}, HTTP_ACCEPT_LANGUAGE=lang, follow=True).content.decode()
    assert said in page
    assert sorted(ExamAttempt.objects.filter(exam=exam, close_reason="staff").values_list("pk", flat=True)) == \
        sorted([alice.pk, bob.pk])
    assert ExamAttempt.objects.get(pk=carol.pk).state == AttemptState.SUBMITTED
    assert client_for(people["alice"]).post(url, {"confirm": "1"}).status_code in (403, 404)  # staff only


@pytest.mark.parametrize("lang, said", [("en", "No attempt was running: nothing was ended."),
                                        ("ko", "진행 중인 응시가 없어 아무것도 끝내지 않았습니다.")])
def test_ending_every_attempt_when_none_runs_says_so(exam, people, lang, said):
    page = client_for(people["tom"]).post(reverse("exams:end_all", args=[exam.pk]), {"confirm": "1"},
                                          HTTP_ACCEPT_LANGUAGE=lang, follow=True).content.decode()
    assert said in page


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_attempt_pages_clock_says_staff_ended_it(exam, people, lang):
    """The attempt page's clock poll (exams:state, from the live cache or the row) answers an attempt staff
    ended with 409, code "ended" and the sentence the page shows, not "time is up"."""
    attempt = start_attempt(exam, people["alice"])
    alice = client_for(people["alice"])
    alice.get(reverse("exams:state", args=[exam.pk]))  # the cache holds it open
    end_attempt(attempt.pk, people["tom"])
    response = alice.get(reverse("exams:state", args=[exam.pk]), HTTP_ACCEPT_LANGUAGE=lang)
    body = response.json()
    assert response.status_code == 409 and body["code"] == "ended" and body["state"] == "closed"
    assert body["error"] == ENDED[lang] and body["close_reason"] == "staff"
