"""Who may do what with an exam: the course's roles (courses.access) decide, in one place.

Outsiders get Http404 (no existence leak); a TA or instructor of course A has no rights in course B.
"""
from __future__ import annotations

from django.http import Http404

from courses.access import course_role
from courses.models import Role

STAFF = (Role.TA, Role.INSTRUCTOR)


def role(user, course):
    """The user's role in the course (a Role), or None."""
    if not user.is_authenticated:
        return None
    return course_role(user, course)


def is_staff(user, course) -> bool:
    return role(user, course) in STAFF


def require_student(user, course) -> None:
    """Students of the course (staff may look at the student pages too, and preview them)."""
    if role(user, course) is None:
        raise Http404


def require_staff(user, course) -> None:
    """TAs and instructors of the course: results, resets, extensions."""
    if role(user, course) not in STAFF:
        raise Http404


def require_instructor(user, course) -> None:
    """Instructors of the course: templates, scheduling, regrades, exports."""
    if role(user, course) != Role.INSTRUCTOR:
        raise Http404


def is_member_of_exam_course(user, exam_id: int) -> bool:
    """Whether `user` has a role in the course of exam `exam_id` (superusers count, as in
    courses.access): one query on the membership's (user, course) index."""
    from courses.models import Membership

    if not getattr(user, "is_authenticated", False) or not getattr(user, "is_active", False):
        return False
    if user.is_superuser:
        return True
    return Membership.objects.filter(user=user, course__exams__pk=exam_id).exists()
