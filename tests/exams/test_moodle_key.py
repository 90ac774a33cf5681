"""The Moodle CSV's "Email address" column is empty for students who signed up through an invite without
an email, yet the results page told instructors to map "Email address (or Username)": the tester's
import matched nobody. The page now says which column identifies every row of the file."""
import csv
import io

import pytest
from django.urls import reverse

from exams.core.export import MoodleKey, StudentTotal, moodle_csv, moodle_match

from .conftest import client_for


def student(name, email):
    return StudentTotal(name, "", "", email, 1, 5.0)


def test_the_key_is_the_username_when_any_email_is_missing():
    students = [student("alice", "a@x.org"), student("kim", ""), student("lee", "  ")]
    match = moodle_match(students)
    assert match.key is MoodleKey.USERNAME and (match.students, match.without_email) == (3, 2)
    # The file agrees: those rows' Email address cells are empty, their Username cells are not.
    rows = list(csv.reader(io.StringIO(moodle_csv("Quiz", students))))[1:]
    assert [r[0].strip() for r in rows] == ["a@x.org", "", ""] and all(r[1] for r in rows)
    assert moodle_match([student("alice", "a@x.org")]).key is MoodleKey.EMAIL


@pytest.mark.django_db
@pytest.mark.parametrize("lang, email_words, username_words", [
    ("en", "mapping Email address to the user field Email address: every student here has one",
     "mapping Username to the user field Username: 1 of 2 students has no email address here"),
    ("ko", "Email address 열을 사용자 필드 Email address에 연결해", "Username 열을 사용자 필드 Username에 연결해 사용자를 찾으세요. "
                                                                "학생 2명 중 1명은 이메일 주소가 없어서")])
def test_the_results_page_names_the_column_to_map(exam, people, lang, email_words, username_words):
    url = reverse("exams:results", args=[exam.pk])
    ivy = client_for(people["ivy"])
    html = ivy.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert 'data-key="email"' in html and email_words in html and "(or Username)" not in html
    people["bob"].email = ""  # bob joined through an invite and gave no email
    people["bob"].save(update_fields=["email"])
    html = ivy.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert 'data-key="username"' in html and username_words in html
    assert "Email address (or Username)" not in html
