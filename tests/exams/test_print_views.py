"""Printed exams on the site: staff of the exam's course download lettered or per-student forms and
their keys as PDF; students, outsiders and another course's TA get 404 for every print URL."""
import subprocess

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from tests.exams.conftest import PASSWORD, client_for, enrol, make_course


def pdf_pages(content: bytes, tmp_path) -> list[str]:
    path = tmp_path / "dl.pdf"
    path.write_bytes(content)
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout
    return text.rstrip("\f\n").split("\f")


@pytest.fixture
def eager_queue():
    """Celery tasks run in-process when the transaction's on-commit callbacks run."""
    from config.celery import app

    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = eager


def download(client, url, capture):
    """Ask for the PDF (202 while it is typeset: the page reloads itself), let the queued run finish, ask again."""
    with capture(execute=True):
        first = client.get(url)
    assert first.status_code == 202, first.status_code
    assert '<meta http-equiv="refresh"' in first.content.decode()
    return client.get(url)


def urls(exam):
    pdf = reverse("exams:print_pdf", args=[exam.pk])
    return [reverse("exams:print", args=[exam.pk]), f"{pdf}?set=forms&count=2&lang=en&part=questions",
            f"{pdf}?set=forms&count=2&lang=en&part=key", f"{pdf}?set=students&lang=ko&part=key"]


def test_students_and_outsiders_get_404_for_every_print_url(exam, people):
    """A student of the course, someone outside it and a TA of another course never get a form or a key."""
    other = make_course("OTHER", "Another course")
    other_ta = User.objects.create_user("otto", "otto@example.org", PASSWORD)
    enrol(other_ta, other, "ta")
    for user in (people["alice"], people["eve"], other_ta):
        client = client_for(user)
        for url in urls(exam):
            assert client.get(url).status_code == 404, (user.username, url)


def test_anonymous_visitors_are_sent_to_log_in(exam, client):
    """Without a session the print URLs redirect to the login page (nothing is rendered)."""
    for url in urls(exam):
        response = client.get(url)
        assert response.status_code == 302 and reverse("login") in response["Location"]


def test_instructor_sees_the_print_form(exam, people):
    """The print page offers lettered or per-student forms, a count, the language and sheets or keys."""
    html = client_for(people["ivy"]).get(reverse("exams:print", args=[exam.pk])).content.decode()
    assert 'name="set"' in html and 'name="count"' in html and 'name="lang"' in html and 'name="part"' in html


@pytest.mark.slow
def test_instructor_downloads_two_lettered_forms(exam, people, tmp_path, eager_queue,
                                                  django_capture_on_commit_callbacks):
    """Two forms in English: typeset by a worker, then a PDF attachment whose every page names form A or B."""
    response = download(client_for(people["ivy"]), urls(exam)[1], django_capture_on_commit_callbacks)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert "attachment" in response["Content-Disposition"] and response["Cache-Control"] == "private, no-store"
    pages = pdf_pages(b"".join(response.streaming_content), tmp_path)
    assert all(("Form A" in p) != ("Form B" in p) for p in pages)
    assert any("Form B" in p for p in pages)


@pytest.mark.slow
def test_ta_downloads_the_korean_per_student_keys(exam, people, tmp_path, eager_queue,
                                                  django_capture_on_commit_callbacks):
    """A TA gets one key per student in Korean: each page names the student and says 정답."""
    response = download(client_for(people["tom"]), urls(exam)[3], django_capture_on_commit_callbacks)
    assert response.status_code == 200
    pages = pdf_pages(b"".join(response.streaming_content), tmp_path)
    assert all("정답 · " in p and "문제지" not in p for p in pages)
    assert any("Alice (alice)" in p for p in pages) and any("Bob (bob)" in p for p in pages)


def test_a_bad_request_is_a_400_with_the_form(exam, people):
    """99 forms is more than a run prints: the page comes back with the error, no PDF."""
    url = reverse("exams:print_pdf", args=[exam.pk]) + "?set=forms&count=99&lang=en&part=questions"
    response = client_for(people["ivy"]).get(url)
    assert response.status_code == 400 and response["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("course_language", ["en", "ko"])
def test_the_print_forms_language_starts_as_the_courses(exam, people, course_language):
    """The sheets are for the course's students: their language starts as the course's default language,
    whatever the language of the page the instructor reads (the page followed the reader before)."""
    import re

    exam.course.language = course_language
    exam.course.save(update_fields=["language"])
    url = reverse("exams:print", args=[exam.pk])
    for accept in ("ko", "en"):
        html = client_for(people["ivy"]).get(url, HTTP_ACCEPT_LANGUAGE=accept).content.decode()
        select = re.search(r'<select name="lang".*?</select>', html, re.S)[0]
        assert re.search(rf'<option value="{course_language}"[^>]*selected', select), (accept, select)
        assert len(re.findall("selected", select)) == 1
