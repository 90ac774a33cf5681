"""Creating courses and changing roles: who may, and the course never loses its last instructor."""
from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.core.exceptions import PermissionDenied
from django.http import Http404

from courses import actions
from courses.access import can_create_courses, course_role
from courses.errors import CourseError, CourseErrorCode
from courses.models import Course, Membership, Role

pytestmark = pytest.mark.django_db


def test_instructor_group_and_staff_may_create_courses_students_may_not(people):
    """The Instructor group holds courses.create_course (migration); staff may too; a student may not."""
    assert can_create_courses(people["prof"])
    assert not can_create_courses(people["stu"])
    assert can_create_courses(User.objects.create_user("staffer", is_staff=True))
    assert Group.objects.get(name="Instructor").permissions.filter(codename="create_course").exists()


def test_the_creator_becomes_the_instructor(people):
    course = actions.create_course(people["prof"], name="CUDA 101", code="CUDA-101", term="Spring 2027",
                                   language="ko", target_cc="8.6")
    assert (course.language, course.target_cc, course.created_by) == ("ko", "8.6", people["prof"])
    assert course_role(people["prof"], course) == Role.INSTRUCTOR


def test_a_student_cannot_create_a_course(people):
    with pytest.raises(PermissionDenied):
        actions.create_course(people["stu"], name="Mine", code="MINE")
    assert not Course.objects.exists()


@pytest.mark.parametrize("code,error", [("pp-a", CourseErrorCode.CODE_TAKEN), ("join", CourseErrorCode.CODE_RESERVED),
                                        ("New", CourseErrorCode.CODE_RESERVED)])
def test_taken_and_reserved_codes_are_refused(people, courses, code, error):
    with pytest.raises(CourseError) as caught:
        actions.create_course(people["prof"], name="Again", code=code)
    assert caught.value.code == error


def test_the_instructor_changes_roles(people, courses):
    m = Membership.objects.get(course=courses["A"], user=people["stu"])
    actions.set_role(courses["A"], people["prof"], m.pk, Role.TA)
    assert course_role(people["stu"], courses["A"]) == Role.TA


def test_the_last_instructor_cannot_step_down_or_be_removed(people, courses):
    m = Membership.objects.get(course=courses["A"], user=people["prof"])
    for act in (lambda: actions.set_role(courses["A"], people["prof"], m.pk, Role.STUDENT),
                lambda: actions.remove_member(courses["A"], people["prof"], m.pk)):
        with pytest.raises(CourseError) as caught:
            act()
        assert caught.value.code == CourseErrorCode.LAST_INSTRUCTOR
    tara = Membership.objects.get(course=courses["A"], user=people["tara"])
    actions.set_role(courses["A"], people["prof"], tara.pk, Role.INSTRUCTOR)
    actions.set_role(courses["A"], people["prof"], m.pk, Role.STUDENT)  # now someone else instructs
    assert course_role(people["prof"], courses["A"]) == Role.STUDENT


@pytest.mark.parametrize("who", ["tara", "stu", "bea", "tom", "nobody"])
def test_nobody_but_the_course_instructor_changes_roles_or_removes_members(people, courses, who):
    """A's TA and student, B's instructor and TA, and an outsider: 404, and nothing changes."""
    m = Membership.objects.get(course=courses["A"], user=people["stu"])
    with pytest.raises(Http404):
        actions.set_role(courses["A"], people[who], m.pk, Role.INSTRUCTOR)
    with pytest.raises(Http404):
        actions.remove_member(courses["A"], people[who], m.pk)
    m.refresh_from_db()
    assert m.role == Role.STUDENT


def test_an_instructor_cannot_reach_another_course_member_through_their_own_course(people, courses):
    stu = Membership.objects.get(course=courses["A"], user=people["stu"])
    with pytest.raises(Http404):
        actions.set_role(courses["B"], people["bea"], stu.pk, Role.INSTRUCTOR)
    with pytest.raises(Http404):
        actions.remove_member(courses["B"], people["bea"], stu.pk)
    assert Membership.objects.filter(pk=stu.pk, role=Role.STUDENT).exists()


def test_seed_demo_makes_the_demo_course(people):
    """seed_demo: the demo instructor teaches "GPU Programming (Demo)" and the demo student takes it; twice is fine."""
    from django.core.management import call_command

    call_command("seed_demo", "--quiet")
    call_command("seed_demo", "--quiet")
    course = Course.objects.get(code=actions.DEMO_COURSE_CODE)
    assert course.name == "GPU Programming (Demo)"
    assert course_role(User.objects.get(username="instructor"), course) == Role.INSTRUCTOR
    assert course_role(User.objects.get(username="student"), course) == Role.STUDENT
    assert can_create_courses(User.objects.get(username="instructor"))
    assert course.memberships.count() == 2


def test_members_by_role(people, courses):
    from courses.services import members, my_courses

    assert [u.username for u in members(courses["A"], Role.STUDENT)] == ["stu"]
    assert [u.username for u in members(courses["A"])] == ["prof", "stu", "tara"]
    assert [u.username for u in members(courses["B"], Role.TA, Role.INSTRUCTOR)] == ["bea", "tom"]
    assert [(c.course.code, c.role, c.items) for c in my_courses(people["tom"])] == [("GA-B", Role.TA, [])]
