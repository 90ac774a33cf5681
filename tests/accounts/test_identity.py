"""Students give their name, email and student ID (학번): signing up from an invite asked only a username
and password and there was no page to give them later, so the course's member list showed empty Name
and Email columns and Moodle's CSV empty email and name cells. The invite sign-up now asks for a full
name, an email and a student ID (all optional; the email's form and that no other account has it are
checked), My account edits them, and Django's password change is linked from it."""
from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from accounts.models import Profile
from accounts.profiles import student_id_of
from courses import actions
from tests.courses.conftest import courses, fast_password_hasher, people  # noqa: F401

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-pass-9931"


def _signup(client, invite=None, **fields):
    data = {"username": "kim.minsu", "password1": PASSWORD, "password2": PASSWORD, **fields}
    url = reverse("signup") + (f"?next=/courses/join/{invite.code}/" if invite else "")
    if invite:
        data["next"] = f"/courses/join/{invite.code}/"
    return client.post(url, data)


@pytest.mark.parametrize("lang, labels", [("en", ["Full name", "Email", "Student ID", "학번"]),
                                          ("ko", ["이름", "이메일", "학번"])])
def test_the_invite_sign_up_asks_for_name_email_and_student_id(people, courses, lang, labels):
    invite = actions.create_invite(courses["A"], people["prof"])
    page = Client().get(reverse("signup") + f"?next=/courses/join/{invite.code}/",
                        HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    for label in labels:
        assert label in page, label
    for name in ("full_name", "email", "student_id"):
        assert f'name="{name}"' in page
    assert 'type="email"' in page
    # Without a course to join, a student ID means nothing: not asked.
    plain = Client().get(reverse("signup"), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert 'name="full_name"' in plain and 'name="email"' in plain and 'name="student_id"' not in plain


def test_what_a_student_gives_at_sign_up_reaches_the_course_roster(people, courses):
    invite = actions.create_invite(courses["A"], people["prof"])
    response = _signup(Client(), invite, full_name=" 김민수 ", email="Kim.Minsu@Uni.AC.KR", student_id="2026123456")
    assert response.status_code == 302 and response["Location"] == "/courses/PP-A/"
    user = User.objects.get(username="kim.minsu")
    assert (user.first_name, user.last_name, user.email) == ("김민수", "", "Kim.Minsu@uni.ac.kr")
    assert student_id_of(user) == "2026123456"
    prof = Client()
    prof.force_login(people["prof"])
    page = prof.get(reverse("courses:manage", args=["PP-A"])).content.decode()
    row = page[page.index('data-username="kim.minsu"'):]
    row = row[:row.index("</tr>")]
    assert "김민수" in row and "Kim.Minsu@uni.ac.kr" in row and "2026123456" in row
    assert ">Student ID<" in page


def test_everything_but_the_username_and_password_is_optional(people, courses):
    invite = actions.create_invite(courses["A"], people["prof"])
    assert _signup(Client(), invite).status_code == 302
    user = User.objects.get(username="kim.minsu")
    assert (user.get_full_name(), user.email, student_id_of(user)) == ("", "", "")


@pytest.mark.parametrize("lang, field, value, message", [
    ("en", "email", "kim@", "Enter a valid email address."),
    ("ko", "email", "kim@", "유효한 이메일 주소를 입력하세요."),
    ("en", "email", "PROF@uni.example", "Another account uses this email address."),
    ("ko", "email", "prof@uni.example", "이 이메일 주소는 다른 계정이 쓰고 있습니다."),
    ("en", "student_id", "2026 123", "Use letters, digits, dots, hyphens and underscores only."),
    ("ko", "student_id", "=1+1", "영문자, 숫자, 점(.), 하이픈(-), 밑줄(_)만 쓰세요."),
])
def test_a_bad_or_taken_email_or_student_id_is_refused(people, courses, lang, field, value, message):
    invite = actions.create_invite(courses["A"], people["prof"])
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    response = _signup(client, invite, **{field: value})
    assert response.status_code == 200 and message in response.content.decode()
    assert not User.objects.filter(username="kim.minsu").exists()
    invite.refresh_from_db()
    assert invite.uses == 0


def _logged_in(user, lang="en"):
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    client.force_login(user)
    return client


@pytest.mark.parametrize("lang, words", [
    ("en", ["My account", "Full name", "Student ID", "Change password", "(it cannot be changed)"]),
    ("ko", ["내 계정", "이름", "학번", "비밀번호 변경", "(바꿀 수 없습니다)"])])
def test_my_account_shows_and_edits_name_email_and_student_id(people, lang, words):
    stu = people["stu"]
    client = _logged_in(stu, lang)
    page = client.get(reverse("account")).content.decode()
    for w in words:
        assert w in page, w
    assert 'value="stu@uni.example"' in page
    assert f'href="{reverse("account")}"' in page  # the header's username leads here
    response = client.post(reverse("account"), {"full_name": "Lee Jiwon", "email": "jiwon@uni.example",
                                                "student_id": "2025-0042"})
    assert response.status_code == 302 and response["Location"] == reverse("account")
    stu.refresh_from_db()
    assert (stu.first_name, stu.email, student_id_of(stu)) == ("Lee Jiwon", "jiwon@uni.example", "2025-0042")
    page = client.get(reverse("account")).content.decode()
    assert ("Your account details were saved." if lang == "en" else "계정 정보를 저장했습니다.") in page
    assert 'value="2025-0042"' in page and 'value="Lee Jiwon"' in page


def test_my_account_refuses_another_accounts_email_but_keeps_ones_own(people):
    client = _logged_in(people["stu"])
    response = client.post(reverse("account"), {"full_name": "", "email": "Tara@uni.example", "student_id": ""})
    assert response.status_code == 400 and "Another account uses this email address." in response.content.decode()
    assert User.objects.get(username="stu").email == "stu@uni.example"
    response = client.post(reverse("account"), {"full_name": "", "email": "STU@uni.example", "student_id": ""})
    assert response.status_code == 302


def test_an_unchanged_name_keeps_its_first_and_last_parts(people):
    """An LMS gives a given and a family name; saving My account without touching the name keeps them
    apart (the Canvas and Moodle files write them as "Last, First" and in their own columns)."""
    stu = people["stu"]
    stu.first_name, stu.last_name = "Jiwoo", "Lee"
    stu.save()
    _logged_in(stu).post(reverse("account"), {"full_name": "Jiwoo Lee", "email": stu.email, "student_id": "7"})
    stu.refresh_from_db()
    assert (stu.first_name, stu.last_name) == ("Jiwoo", "Lee") and Profile.objects.get(user=stu).student_id == "7"


def test_my_account_needs_a_log_in(db):
    response = Client().get(reverse("account"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert Client().post(reverse("account"), {"email": "x@y.org"}).status_code == 302


@pytest.mark.parametrize("lang, done", [("en", "Your password was changed"), ("ko", "비밀번호를 바꿨습니다")])
def test_the_password_is_changed_through_djangos_views(people, lang, done):
    from rest_framework.authtoken.models import Token

    stu = people["stu"]
    Token.objects.create(user=stu)
    client = _logged_in(stu, lang)
    form = client.get(reverse("password_change")).content.decode()
    assert 'name="old_password"' in form and 'name="new_password1"' in form
    response = client.post(reverse("password_change"), {"old_password": "pass-1234-word",
                                                        "new_password1": "an-other-pass-77",
                                                        "new_password2": "an-other-pass-77"})
    assert response.status_code == 302 and response["Location"] == reverse("password_change_done")
    assert done in client.get(response["Location"]).content.decode()  # still logged in
    stu.refresh_from_db()
    assert stu.check_password("an-other-pass-77") and not Token.objects.filter(user=stu).exists()


def test_an_account_without_a_password_is_told_how_it_logs_in(people):
    stu = people["stu"]
    stu.set_unusable_password()
    stu.save()
    page = _logged_in(stu).get(reverse("account")).content.decode()
    assert 'id="no-password"' in page and 'id="change-password"' not in page
