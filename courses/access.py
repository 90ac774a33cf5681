"""Who may do what in a course: every course permission check goes through here.

A user's rights in a course come only from their Membership in that course: being an
instructor or TA of course A gives nothing in course B. Superusers count as instructors of every
course (they can do it all in the admin anyway); staff status alone gives no course rights.
Outsiders asking for a course's management pages get Http404, exactly as for a course that does
not exist. Its main page (courses.views.course) and its exams' pages answer a signed-in outsider
with the 403 "not in this course" page instead, which says how to join and nothing of the course.

    role = course_role(request.user, course)               # Role or None
    course, role = course_for(request.user, code, *MANAGERS)  # Http404 unless a TA/instructor
    require_role(request.user, course, Role.INSTRUCTOR)    # Http404 unless an instructor
"""
from __future__ import annotations

from django.http import Http404

from .models import Course, Membership, Role

MEMBERS = (Role.STUDENT, Role.TA, Role.INSTRUCTOR)  # anyone in the course
MANAGERS = (Role.TA, Role.INSTRUCTOR)  # course staff: see members, invites, students' work
INSTRUCTORS = (Role.INSTRUCTOR,)  # change roles, invites, rosters, exams


def course_role(user, course: Course) -> Role | None:
    """The user's role in the course: a Role, or None for outsiders and anonymous users."""
    if not getattr(user, "is_authenticated", False) or not getattr(user, "is_active", False):
        return None
    if user.is_superuser:
        return Role.INSTRUCTOR
    role = Membership.objects.filter(course=course, user=user).values_list("role", flat=True).first()
    return Role(role) if role else None


def has_role(user, course: Course, *roles: Role) -> bool:
    """True when the user's role in the course is one of `roles` (any member when none are given)."""
    role = course_role(user, course)
    return role is not None and role in (roles or MEMBERS)


def require_role(user, course: Course, *roles: Role) -> Role:
    """The user's role in the course if it is one of `roles` (any member when none are given).

    Raises Http404 otherwise, for outsiders and for members without the role alike.
    """
    role = course_role(user, course)
    if role is None or role not in (roles or MEMBERS):
        raise Http404("No such course.")
    return role


def course_for(user, code: str, *roles: Role) -> tuple[Course, Role]:
    """The course with this code and the user's role in it, if that role is one of `roles`.

    Raises Http404 for an unknown code and for a user without the role, indistinguishably.
    """
    course = Course.objects.filter(code=code).first()
    if course is None:
        raise Http404("No such course.")
    return course, require_role(user, course, *roles)


def can_manage(role: Role | None) -> bool:
    """TAs and instructors see a course's members and invites."""
    return role in MANAGERS


def can_administer(role: Role | None) -> bool:
    """Only instructors change roles, invites and rosters."""
    return role == Role.INSTRUCTOR


def can_create_courses(user) -> bool:
    """Staff users and holders of the `courses.create_course` permission (the Instructor group) may
    create courses; the creator becomes the course's instructor."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    return user.is_staff or user.has_perm("courses.create_course")

