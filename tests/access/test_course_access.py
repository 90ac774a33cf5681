"""courses/access.py: course roles come from memberships of that course only; outsiders get 404
exactly as for a course that does not exist."""
from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.http import Http404

from courses.access import (INSTRUCTORS, MANAGERS, can_administer, can_manage, course_for, course_role, has_role,
                            require_role)
from courses.models import Course, Membership, Role

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup(db):
    """Course A: ann (instructor), tim (TA), sue (student). Course B: bob (instructor), tia (TA). out: no course."""
    a = Course.objects.create(name="A", code="A-1")
    b = Course.objects.create(name="B", code="B-1")
    u = {n: User.objects.create_user(n) for n in ("ann", "tim", "sue", "bob", "tia", "out")}
    for course, name, role in [(a, "ann", Role.INSTRUCTOR), (a, "tim", Role.TA), (a, "sue", Role.STUDENT),
                               (b, "bob", Role.INSTRUCTOR), (b, "tia", Role.TA)]:
        Membership.objects.create(course=course, user=u[name], role=role)
    return a, b, u


def test_each_member_has_their_role_in_their_course_only(setup):
    a, b, u = setup
    assert [course_role(u[n], a) for n in ("ann", "tim", "sue", "bob", "tia", "out")] == [
        Role.INSTRUCTOR, Role.TA, Role.STUDENT, None, None, None]
    assert [course_role(u[n], b) for n in ("ann", "tim", "sue", "bob", "tia")] == [None, None, None, Role.INSTRUCTOR, Role.TA]


def test_anonymous_and_deactivated_users_have_no_role(setup):
    a, _, u = setup
    assert course_role(AnonymousUser(), a) is None
    u["ann"].is_active = False
    assert course_role(u["ann"], a) is None


def test_staff_status_gives_no_course_rights_but_a_superuser_instructs_everywhere(setup):
    a, _, u = setup
    staff = User.objects.create_user("staffer", is_staff=True)
    assert course_role(staff, a) is None
    assert course_role(User.objects.create_superuser("root"), a) == Role.INSTRUCTOR


@pytest.mark.parametrize("name,roles,allowed", [
    ("ann", INSTRUCTORS, True), ("tim", INSTRUCTORS, False), ("sue", INSTRUCTORS, False),
    ("tim", MANAGERS, True), ("sue", MANAGERS, False),
    ("sue", (), True), ("bob", (), False), ("tia", MANAGERS, False), ("bob", INSTRUCTORS, False), ("out", (), False),
])
def test_require_role_404s_for_anyone_without_the_role(setup, name, roles, allowed):
    """B's instructor and TA have no rights in A; a member without the role gets the same 404 as an outsider."""
    a, _, u = setup
    assert has_role(u[name], a, *roles) is allowed
    if allowed:
        assert require_role(u[name], a, *roles) == course_role(u[name], a)
    else:
        with pytest.raises(Http404):
            require_role(u[name], a, *roles)


def test_course_for_answers_an_unknown_code_and_a_foreign_course_alike(setup):
    """The 404 for B's instructor asking for A is the same as for a code no course has."""
    a, _, u = setup
    assert course_for(u["ann"], "A-1", *INSTRUCTORS) == (a, Role.INSTRUCTOR)
    with pytest.raises(Http404) as foreign:
        course_for(u["bob"], "A-1")
    with pytest.raises(Http404) as unknown:
        course_for(u["bob"], "NO-SUCH")
    assert str(foreign.value) == str(unknown.value)


def test_manage_and_administer_by_role():
    assert [can_manage(r) for r in (Role.STUDENT, Role.TA, Role.INSTRUCTOR, None)] == [False, True, True, False]
    assert [can_administer(r) for r in (Role.STUDENT, Role.TA, Role.INSTRUCTOR, None)] == [False, False, True, False]
