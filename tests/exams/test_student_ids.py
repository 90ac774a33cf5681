"""A student's student ID (학번, given at sign-up or on My account) is shown where staff identify
students: the exam's results table and the printed per-student forms, and written where the LMS files
expect an ID: Canvas's "SIS User ID", Moodle's "ID number" and the long CSV's own column. An ID two
students give identifies neither: it is left out of the LMS files."""
import csv
import io

import pytest
from django.urls import reverse

from accounts.profiles import set_identity
from exams.actions.attempts import start_attempt, submit_attempt
from exams.core.export import MoodleKey, StudentTotal, canvas_csv, moodle_csv, moodle_match

from .conftest import client_for

pytestmark = pytest.mark.django_db


def _give(user, student_id, name=None, email=None):
    set_identity(user, full_name=user.get_full_name() if name is None else name,
                 email=user.email if email is None else email, student_id=student_id)


def _csv(response):
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


def test_the_lms_files_carry_the_student_id_where_they_expect_one(exam, people):
    _give(people["alice"], "2026123456", name="김앨리스")
    _give(people["bob"], "2026000002")
    for name in ("alice", "bob"):
        submit_attempt(start_attempt(exam, people[name]).pk, people[name])
    ivy = client_for(people["ivy"])
    canvas = _csv(ivy.get(reverse("exams:export", args=[exam.pk, "canvas"])))
    assert {r[3]: r[2] for r in canvas[2:]} == {"alice": "2026123456", "bob": "2026000002"}  # SIS User ID
    assert all(r[1] == "" for r in canvas[2:])  # Canvas's own ID: never ours
    moodle = _csv(ivy.get(reverse("exams:export", args=[exam.pk, "moodle"])))
    assert moodle[0][:3] == ["Email address", "Username", "ID number"]
    assert {r[1]: (r[2], r[5]) for r in moodle[1:]} == {"alice": ("2026123456", "김앨리스"), "bob": ("2026000002", "Bob")}
    long = _csv(ivy.get(reverse("exams:export", args=[exam.pk, "long"])))
    assert long[0][:2] == ["student", "student_id"]
    assert {(r[0], r[1]) for r in long[1:]} == {("alice", "2026123456"), ("bob", "2026000002")}


def test_an_id_two_students_give_is_left_out_of_the_lms_files():
    """bob typed alice's ID: Canvas would give one of them the other's grade. Both go by username."""
    students = [StudentTotal("alice", "", "", "a@x.org", 1, 5.0, student_id="2026001"),
                StudentTotal("bob", "", "", "", 2, 4.0, student_id="2026001"),
                StudentTotal("carol", "", "", "", 3, 3.0, student_id="2026003")]
    canvas = list(csv.reader(io.StringIO(canvas_csv("Quiz", 10, students))))
    assert [(r[2], r[3]) for r in canvas[2:]] == [("", "alice"), ("", "bob"), ("2026003", "carol")]
    moodle = list(csv.reader(io.StringIO(moodle_csv("Quiz", students))))
    assert [r[2] for r in moodle[1:]] == ["", "", "2026003"]
    assert moodle_match(students).key is MoodleKey.USERNAME


def test_moodle_is_told_to_match_on_id_number_when_every_student_has_one_but_not_every_email():
    students = [StudentTotal("alice", "", "", "a@x.org", 1, 5.0, student_id="2026001"),
                StudentTotal("bob", "", "", "", 2, 4.0, student_id="2026002")]
    match = moodle_match(students)
    assert match.key is MoodleKey.ID_NUMBER and (match.without_email, match.without_id) == (1, 0)
    assert moodle_match([StudentTotal("a", "", "", "a@x.org", 1, 1.0)]).key is MoodleKey.EMAIL


@pytest.mark.parametrize("lang, words", [
    ("en", ["Student ID", "mapping ID number to the user field ID number", "SIS User ID (the student ID"]),
    ("ko", ["학번", "ID number 열을 사용자 필드 ID number에 연결해", "SIS User ID(학생이 입력한 학번"])])
def test_the_results_page_shows_names_and_student_ids(exam, people, lang, words):
    _give(people["alice"], "2026123456")
    _give(people["bob"], "2026000002", email="")
    for name in ("alice", "bob"):
        submit_attempt(start_attempt(exam, people[name]).pk, people[name])
    html = client_for(people["ivy"]).get(reverse("exams:results", args=[exam.pk]),
                                         HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    row = html[html.index('data-student="alice"'):]
    row = row[:row.index("</tr>")]
    assert "Alice" in row and "2026123456" in row
    assert 'data-key="idnumber"' in html
    for w in words:
        assert w in html, w


def test_the_printed_roster_gives_the_student_id_else_the_username(exam, people):
    from exams.printing import _roster

    _give(people["alice"], "2026123456")
    numbers = {s.name: s.number for s in _roster(exam)}
    assert numbers["Alice"] == "2026123456" and numbers["Bob"] == "bob"
