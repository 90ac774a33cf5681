"""Sign-up, log in, log out and the seed_demo command."""
import pytest
from django.contrib.auth import authenticate
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_signup_creates_student_and_logs_in():
    """Signing up creates the user in the Student group and logs them in."""
    client = Client()
    response = client.post(reverse("signup"), {"username": "carol", "password1": "a-long-pass-9931",
                                               "password2": "a-long-pass-9931"})
    assert response.status_code == 302
    user = User.objects.get(username="carol")
    assert list(user.groups.values_list("name", flat=True)) == ["Student"]
    assert "carol" in client.get("/").content.decode()


def test_signup_errors_are_shown():
    """Mismatched passwords re-render the form with the error and create nobody."""
    response = Client().post(reverse("signup"), {"username": "dave", "password1": "a-long-pass-9931",
                                                 "password2": "another-pass-1"})
    assert response.status_code == 200
    assert "field-error" in response.content.decode()
    assert not User.objects.filter(username="dave").exists()


def test_login_and_logout(alice):
    """Django's login view accepts the password; logout (POST) ends the session."""
    client = Client()
    response = client.post(reverse("login"), {"username": "alice", "password": "pass-1234-word"})
    assert response.status_code == 302
    assert "Log out" in client.get("/").content.decode()
    client.post(reverse("logout"))
    assert "Log in" in client.get("/").content.decode()


def test_login_page_and_nav_links():
    """The login page renders with the header nav and the language switch."""
    html = Client().get(reverse("login")).content.decode()
    assert 'name="username"' in html and 'name="password"' in html
    assert reverse("set_language") in html and 'value="ko"' in html


def test_seed_demo_is_idempotent_and_prints_passwords(capsys):
    """seed_demo creates groups and demo users with printed passwords; a second run resets them."""
    call_command("seed_demo")
    out = capsys.readouterr().out
    assert "student-demo-pass" in out and "instructor-demo-pass" in out
    assert set(Group.objects.values_list("name", flat=True)) >= {"Student", "Instructor"}
    instructor = User.objects.get(username="instructor")
    assert instructor.is_staff and instructor.groups.filter(name="Instructor").exists()
    assert User.objects.get(username="student").groups.filter(name="Student").exists()
    assert authenticate(username="student", password="student-demo-pass")

    call_command("seed_demo", "--random")
    out = capsys.readouterr().out
    assert not authenticate(username="student", password="student-demo-pass")
    new_password = out.split("student      password: ")[1].split()[0]
    assert authenticate(username="student", password=new_password)
    call_command("seed_demo")
    assert authenticate(username="student", password="student-demo-pass")
    assert User.objects.filter(username__in=["student", "instructor"]).count() == 2
