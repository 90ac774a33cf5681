"""Two courses with their own staff and a student, and a course problem made from the skeleton."""
from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client

from courses.models import Course, Membership, Role


@pytest.fixture(autouse=True)
def fast_password_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def people(db) -> dict[str, User]:
    """Course A: prof (instructor), tara (TA), stu (student). Course B: bea (instructor, also in the
    site's Instructor group), tom (TA). nobody is in no course."""
    out = {}
    for name in ("prof", "tara", "stu", "bea", "tom", "nobody"):
        out[name] = User.objects.create_user(name, password="pass-1234-word")
    for name in ("prof", "bea"):
        out[name].groups.add(Group.objects.get_or_create(name="Instructor")[0])
    return out


@pytest.fixture
def courses(people) -> dict[str, Course]:
    a = Course.objects.create(name="Parallel Programming", code="PP-A")
    b = Course.objects.create(name="GPU Architecture", code="GA-B")
    for course, name, role in [(a, "prof", Role.INSTRUCTOR), (a, "tara", Role.TA), (a, "stu", Role.STUDENT),
                               (b, "bea", Role.INSTRUCTOR), (b, "tom", Role.TA)]:
        Membership.objects.create(course=course, user=people[name], role=role)
    return {"A": a, "B": b}


@pytest.fixture
def client_for(people):
    def make(name: str) -> Client:
        client = Client()
        client.force_login(people[name])
        return client
    return make


@pytest.fixture
def problem(courses, people):
    """Course A's problem `scale-a` (unpublished), version 1 from the skeleton."""
    from authoring import actions

    return actions.create_problem(courses["A"], people["prof"], "scale-a", "Scale a vector", "벡터 스케일")


@pytest.fixture
def bank_problem(db):
    """The bank's vector-add-tail, imported."""
    from pathlib import Path

    from problems.core.package import load_package
    from problems.services import import_package

    root = Path(__file__).resolve().parents[2] / "problems" / "bank" / "vector-add-tail"
    import_package(load_package(root))
    from problems.models import Problem

    return Problem.objects.get(slug="vector-add-tail")
