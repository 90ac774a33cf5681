"""An exam's password cannot be guessed: after PASSWORD_TRIES tries in PASSWORD_WINDOW_S seconds a
student is refused, with the wait, before the password is even compared (a tester sent 200 wrong
passwords to /exams/<id>/start/ in 17 s with nothing in the way)."""
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from exams.actions import passwords
from exams.actions.attempts import start_attempt
from exams.errors import ExamError
from exams.models import ExamAttempt
from tests.exams.conftest import client_for, course, exam, kernel_problem, people  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db
SECRET = "warp-42"


@pytest.fixture
def locked_exam(exam):
    exam.password = SECRET
    exam.save(update_fields=["password"])
    return exam


def _start(client, exam, password, **headers):
    client.post(reverse("exams:start", args=[exam.pk]), {"password": password}, **headers)
    return client.get(reverse("exams:exam", args=[exam.pk]), **headers).content.decode()


def test_five_wrong_passwords_then_even_the_right_one_waits(locked_exam, people):
    alice = client_for(people["alice"])
    for i in range(passwords.PASSWORD_TRIES - 1):
        assert "The exam password is not right." in _start(alice, locked_exam, f"guess-{i}")
    page = _start(alice, locked_exam, "guess-last")
    assert "The exam password is not right." in page and "try again in 5 minutes" in page
    page = _start(alice, locked_exam, SECRET)
    assert "Too many wrong passwords for this exam: try again in 5 minutes." in page
    assert not ExamAttempt.objects.filter(exam=locked_exam, user=people["alice"]).exists()


def test_a_burst_of_guesses_gets_only_five_compared(locked_exam, people, monkeypatch):
    """The tester's 200 POSTs: five are compared (in constant time), the rest refused unread."""
    compared = []
    real = passwords.hmac.compare_digest
    monkeypatch.setattr(passwords.hmac, "compare_digest", lambda a, b: compared.append(a) or real(a, b))
    codes = []
    for i in range(200):
        try:
            start_attempt(locked_exam, people["alice"], password=f"{i:04d}")
        except ExamError as exc:
            codes.append(exc.code)
    assert len(compared) == passwords.PASSWORD_TRIES
    assert codes.count("password") == passwords.PASSWORD_TRIES and codes.count("password_tries") == 195


def test_the_wait_ends_with_the_window_and_the_right_password_then_starts(locked_exam, people):
    now = timezone.now()
    for i in range(passwords.PASSWORD_TRIES):
        with pytest.raises(ExamError):
            start_attempt(locked_exam, people["alice"], password=f"g{i}", now=now)
    with pytest.raises(ExamError) as refused:
        start_attempt(locked_exam, people["alice"], password=SECRET, now=now + timedelta(seconds=250))
    assert refused.value.code == "password_tries" and refused.value.status == 429
    assert "try again in 50 seconds" in str(refused.value)
    later = now + timedelta(seconds=passwords.PASSWORD_WINDOW_S + 1)
    assert start_attempt(locked_exam, people["alice"], password=SECRET, now=later).user == people["alice"]


def test_the_limit_is_per_student_and_per_exam_and_the_right_password_clears_it(locked_exam, people):
    for i in range(passwords.PASSWORD_TRIES - 1):
        with pytest.raises(ExamError):
            start_attempt(locked_exam, people["alice"], password=f"g{i}")
    # Bob's tries are his own.
    with pytest.raises(ExamError) as wrong:
        start_attempt(locked_exam, people["bob"], password="nope")
    assert wrong.value.code == "password" and "try again" not in str(wrong.value)
    # Alice's fifth try is right: she starts, and her count is gone.
    start_attempt(locked_exam, people["alice"], password=SECRET)
    assert passwords.used_up_s(locked_exam.pk, people["alice"].pk, timezone.now()) == 0


def test_the_refusal_in_korean(locked_exam, people):
    people["alice"].refresh_from_db()
    alice = client_for(people["alice"])
    for i in range(passwords.PASSWORD_TRIES):
        _start(alice, locked_exam, f"x{i}", HTTP_ACCEPT_LANGUAGE="ko")
    page = _start(alice, locked_exam, SECRET, HTTP_ACCEPT_LANGUAGE="ko")
    assert "Too many wrong passwords" not in page and "5분" in page
