"""Who may read a submission: the one rule ("their own, or the staff who may see it"), used by the
submission pages, the API and the playground."""
from __future__ import annotations

from accounts.roles import is_instructor

from .models import Submission


def may_see(user, submission: Submission) -> bool:
    """Whether `user` may read `submission`: their own; of a course's problem, that course's TAs and
    instructors only (an instructor of another course sees nothing of it: its solutions and wrong
    solutions are run as validation submissions); of the bank's, any site instructor."""
    if submission.user_id == user.pk:
        return True
    if submission.exam_item_id:
        # An exam's work belongs to the exam's course: its TAs and instructors, and nobody else's.
        from courses import access
        from exams.services import exam_course

        course = exam_course(submission)
        return course is not None and access.can_manage(access.course_role(user, course))
    course = submission.problem_version.problem.course
    if course is not None:
        from courses import access

        return access.can_manage(access.course_role(user, course))
    return is_instructor(user)


def visible_to(user, submission: Submission) -> bool:
    """may_see, and for a student's own exam submission also what the exam's feedback setting allows
    until its release (exams.services.hidden_from_student); a site instructor is not held back."""
    if not may_see(user, submission):
        return False
    if submission.exam_item_id and submission.user_id == user.pk and not is_instructor(user):
        from exams.services import hidden_from_student

        return not hidden_from_student(submission)
    return True
