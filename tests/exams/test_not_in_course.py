"""A signed-in student outside an exam's course gets a page that says so and how to join, in English and
Korean (the tester got a bare 404, Django's debug page in make dev), with a 403 status and nothing of
the exam or its course on it; an exam id that does not exist is still a 404."""
import pytest
from django.urls import reverse

from exams.actions.attempts import start_attempt

from .conftest import client_for

pytestmark = pytest.mark.django_db

TEXTS = {"en": ["You are not in this course", "invite link your instructor gives you", "Join a course"],
         "ko": ["이 강좌의 구성원이 아닙니다", "교수자가 준 초대 링크", "강좌 참여"]}


@pytest.mark.parametrize("language", ["en", "ko"])
def test_an_outsider_is_told_how_to_join_and_nothing_about_the_exam(exam, people, language):
    start_attempt(exam, people["alice"])  # a running exam: its pages have much to tell, and tell none of it
    eve = client_for(people["eve"])
    secret_words = ["Midterm", "중간고사", exam.course.name, exam.course.code, "alice", "tiny-add", "Start"]
    for url in (reverse("exams:exam", args=[exam.pk]), reverse("exams:attempt", args=[exam.pk]),
                reverse("exams:result", args=[exam.pk]), reverse("exams:course", args=[exam.course_id])):
        r = eve.get(url, HTTP_ACCEPT_LANGUAGE=language)
        html = r.content.decode()
        assert r.status_code == 403, url
        for text in TEXTS[language]:
            assert text in html, (url, text)
        assert f'href="{reverse("courses:join_form")}"' in html
        main = html.split('id="not-in-course"')[1]
        assert not [w for w in secret_words if w in main], url
        assert "<title>" in html and exam.title not in html.split("<title>")[1].split("</title>")[0]


def test_an_unknown_exam_is_still_a_404(exam, people):
    eve = client_for(people["eve"])
    assert eve.get(reverse("exams:exam", args=[exam.pk + 1000])).status_code == 404
    assert client_for(people["alice"]).get(reverse("exams:exam", args=[exam.pk + 1000])).status_code == 404


def test_logged_out_goes_to_log_in_and_a_member_sees_the_exam(exam, people):
    from django.test import Client

    r = Client().get(reverse("exams:exam", args=[exam.pk]))
    assert r.status_code == 302 and "/login/" in r["Location"]
    page = client_for(people["alice"]).get(reverse("exams:exam", args=[exam.pk]))
    assert page.status_code == 200 and "You are not in this course" not in page.content.decode()
