"""Two courses with their own staff: the fixtures the courses tests share."""
from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User

from courses.models import Course, Membership, Role


@pytest.fixture(autouse=True)
def fast_password_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def make_user(username: str, group: str | None = None, **fields) -> User:
    user = User.objects.create_user(username=username, password="pass-1234-word", **fields)
    if group:
        user.groups.add(Group.objects.get_or_create(name=group)[0])
    return user


@pytest.fixture
def people(db) -> dict[str, User]:
    """Course A: prof (instructor), tara (TA), stu (student). Course B: bea (instructor), tom (TA).
    nobody belongs to no course."""
    return {name: make_user(name, group, email=f"{name}@uni.example")
            for name, group in [("prof", "Instructor"), ("tara", "Student"), ("stu", "Student"),
                                ("bea", "Instructor"), ("tom", "Student"), ("nobody", "Student")]}


@pytest.fixture
def courses(people) -> dict[str, Course]:
    a = Course.objects.create(name="Parallel Programming", code="PP-A", term="Fall 2026")
    b = Course.objects.create(name="GPU Architecture", code="GA-B", term="Fall 2026", language="ko", target_cc="8.6")
    for course, name, role in [(a, "prof", Role.INSTRUCTOR), (a, "tara", Role.TA), (a, "stu", Role.STUDENT),
                               (b, "bea", Role.INSTRUCTOR), (b, "tom", Role.TA)]:
        Membership.objects.create(course=course, user=people[name], role=role)
    return {"A": a, "B": b}
