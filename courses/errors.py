"""The courses app's user-safe errors: a code from a closed set, rendered in the reader's language.

Views catch `CourseError` once and show `str(error)` (translated at that moment) with its
`http_status`. Access failures are not errors here: they are Http404 (courses/access.py).
"""
from __future__ import annotations

import enum

from django.utils.translation import gettext_lazy as _


class CourseErrorCode(enum.StrEnum):
    """Why a course action was refused."""

    INVITE_UNKNOWN = "invite.unknown"  # no invite has this code
    INVITE_REVOKED = "invite.revoked"  # an instructor revoked it
    INVITE_EXPIRED = "invite.expired"  # its expiry time has passed
    INVITE_USED_UP = "invite.used_up"  # it has been used its maximum number of times
    LAST_INSTRUCTOR = "member.last_instructor"  # the change would leave the course without an instructor
    ROLE_NOT_ALLOWED = "member.role_not_allowed"  # not a role of the Role enum
    CODE_TAKEN = "course.code_taken"  # another course has this code
    CODE_RESERVED = "course.code_reserved"  # the code is one of the app's own page names
    TARGET_GPU_DURING_EXAM = "course.target_gpu_during_exam"  # students are taking one of its exams now


MESSAGES = {
    CourseErrorCode.INVITE_UNKNOWN: _("This invite code is not valid. Check it with your instructor."),
    CourseErrorCode.INVITE_REVOKED: _("This invite has been withdrawn. Ask your instructor for a new one."),
    CourseErrorCode.INVITE_EXPIRED: _("This invite has expired. Ask your instructor for a new one."),
    CourseErrorCode.INVITE_USED_UP: _("This invite has been used as many times as it allows. Ask your instructor for a new one."),
    CourseErrorCode.LAST_INSTRUCTOR: _("A course needs at least one instructor: make someone else instructor first."),
    CourseErrorCode.ROLE_NOT_ALLOWED: _("Unknown role."),
    CourseErrorCode.CODE_TAKEN: _("Another course already has this code."),
    CourseErrorCode.CODE_RESERVED: _("This code is reserved; choose another."),
    CourseErrorCode.TARGET_GPU_DURING_EXAM: _(
        "Students are taking an exam of this course now: change the target GPU after their attempts have ended, "
        "so that the whole exam is graded for one GPU. Nothing was saved."),
}


class CourseError(Exception):
    """A refused course action; `str()` is its message in the active language."""

    http_status = 400

    def __init__(self, code: CourseErrorCode):
        super().__init__(code.value)
        self.code = code

    def __str__(self) -> str:
        return str(MESSAGES[self.code])


class InviteError(CourseError):
    """An invite code that cannot enrol anyone now (unknown, revoked, expired, used up)."""
