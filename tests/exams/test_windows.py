"""A student's window (exams.actions.scheduling): window() for one student and windows() for many state one
rule, their accommodation's own open and close where it sets them, else the exam's; the release of results
(exams.release) reads the windows of the students not started through windows(), in a fixed number of
queries whatever their number."""
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from exams.actions.scheduling import set_accommodation, window, windows
from exams.release import held_for_staff

from .conftest import enrol

pytestmark = pytest.mark.django_db


@pytest.fixture
def accommodated(exam, people):
    """alice: none; bob: 20 extra minutes and his own window; tom: only 10 extra minutes (the TA's role does
    not matter to the window). Returns the users by name."""
    set_accommodation(exam, people["bob"], extra_minutes=20, opens_at=exam.opens_at + timedelta(minutes=1),
                      closes_at=exam.closes_at + timedelta(hours=2))
    set_accommodation(exam, people["tom"], extra_minutes=10)
    return people


def test_window_and_windows_agree_with_and_without_an_accommodation(exam, accommodated):
    """No accommodation: the exam's window and no extra time; one with its own open and close: those;
    one with extra time only: the exam's window with the extra time."""
    alice, bob, tom = accommodated["alice"], accommodated["bob"], accommodated["tom"]
    expected = {
        alice.pk: (exam.opens_at, exam.closes_at, 0),
        bob.pk: (exam.opens_at + timedelta(minutes=1), exam.closes_at + timedelta(hours=2), 20),
        tom.pk: (exam.opens_at, exam.closes_at, 10),
    }
    assert {user.pk: window(exam, user) for user in (alice, bob, tom)} == expected
    assert windows(exam, [alice.pk, bob.pk, tom.pk]) == expected
    # A queryset of ids (as exams.release passes) gives the same answer.
    ids = User.objects.filter(pk__in=[alice.pk, bob.pk, tom.pk]).values_list("pk", flat=True)
    assert windows(exam, ids) == expected


def test_windows_of_no_one_is_empty(exam):
    assert windows(exam, []) == {}


def unstarted_holds(exam):
    """(queries, held_for_staff's answer) for `exam` now."""
    with CaptureQueriesContext(connection) as queries:
        held = held_for_staff(exam)
    return len(queries), held


def test_the_release_reads_unstarted_windows_in_a_fixed_number_of_queries(exam, course, accommodated):
    """Released results wait for the windows of the students not started, bob's own close included; 30
    more students, some accommodated, cost no more queries."""
    exam.results_release_at = timezone.now() - timedelta(seconds=1)
    exam.save(update_fields=["results_release_at"])
    few, held = unstarted_holds(exam)
    assert (held.waiting, held.last_ends_at) == (2, exam.closes_at + timedelta(hours=2))  # alice and bob
    for i in range(30):
        student = User.objects.create_user(f"s{i}", f"s{i}@example.org", "x")
        enrol(student, course, "student")
        if i % 3 == 0:
            set_accommodation(exam, student, closes_at=exam.closes_at + timedelta(hours=3))
    many, held = unstarted_holds(exam)
    assert (held.waiting, held.last_ends_at) == (32, exam.closes_at + timedelta(hours=3))
    assert many == few
