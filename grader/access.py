"""Who may read a submission: the one rule ("their own, or the staff who may see it"), used by the
submission pages, the API and the playground; and which of a user's submissions the practice pages
list (never exam work: an exam's submissions are shown on the exam's pages, with the feedback the
exam allows, and nowhere else)."""
from __future__ import annotations

from django.db.models import Q, QuerySet

from accounts.roles import is_instructor

from .core.verdicts import Verdict
from .models import Purpose, Status, Submission


def exam_work_q() -> Q:
    """The submissions made in an exam: answering an item, or detached from one by a reset (which
    keeps `exam`)."""
    return Q(exam_item__isnull=False) | Q(exam__isnull=False)


def practice_work_q() -> Q:
    """The submissions that are practice: purpose STUDENT (no validation run, no rejudge preview) and
    no exam work. Problem sets, the dashboards and their summaries count only these."""
    return Q(purpose=Purpose.STUDENT) & ~exam_work_q()


def counted_practice_q() -> Q:
    """The practice submissions that count as attempts: graded, and not a platform fault
    (INTERNAL_ERROR is never charged to the student). The one rule of what a problem set's status,
    its dashboard and the course and problem dashboards (authoring.progress's summaries) count."""
    return practice_work_q() & Q(status=Status.GRADED) & ~Q(verdict=Verdict.INTERNAL_ERROR)


def practice_submissions(user) -> QuerySet:
    """`user`'s own practice submissions (purpose STUDENT, no exam work), newest first: what the
    problem pages, "My submissions", problem sets and the API's list may show them. An exam's
    submissions are left out whatever the exam's feedback: until its results are released they
    would tell a verdict the exam keeps back, and afterwards the exam's result page shows them."""
    return Submission.objects.filter(practice_work_q(), user=user)


def managed_course_ids(user) -> list[int] | None:
    """The ids of the courses `user` is a TA or instructor of; None for a superuser (every course)."""
    if user.is_superuser:
        return None
    from courses.access import MANAGERS
    from courses.models import Membership

    return list(Membership.objects.filter(user=user, role__in=MANAGERS).values_list("course_id", flat=True))


def staff_visible_q(user) -> Q:
    """The submissions `user` may read as staff, as a filter: may_see() written as a query, for the
    lists (`/submissions/?all=1`). Their own; an exam's work, of the exams of courses they manage only
    (another course's staff see none of it, whatever the exam's feedback: it would tell verdicts an
    exam keeps back); a course problem's work (validation runs included), of the courses they manage;
    a bank problem's practice, for site instructors (the bank's authors: its rejudges and dashboards
    read it) and for the staff of the course it was made for (Submission.course: opened from the
    course's problem set)."""
    managed = managed_course_ids(user)
    if managed is None:
        return Q()
    exam_in = Q(exam__course_id__in=managed) | Q(exam_item__attempt__exam__course_id__in=managed)
    course_problem = Q(problem_version__problem__course_id__in=managed)
    bank = Q(problem_version__problem__course__isnull=True) & (
        Q() if is_instructor(user) else Q(course_id__in=managed))
    return Q(user=user) | (exam_work_q() & exam_in) | (~exam_work_q() & (course_problem | bank))


def may_see(user, submission: Submission) -> bool:
    """Whether `user` may read `submission`: their own; of a course's problem, that course's TAs and
    instructors only (an instructor of another course sees nothing of it: its solutions and wrong
    solutions are run as validation submissions); of the bank's, any site instructor, and the staff
    of the course it was made for (Submission.course)."""
    if submission.user_id == user.pk:
        return True
    if submission.exam_item_id or submission.exam_id:
        # An exam's work belongs to the exam's course: its TAs and instructors, and nobody else's.
        from courses import access
        from exams.services import exam_course

        course = exam_course(submission)
        return course is not None and access.can_manage(access.course_role(user, course))
    course = submission.problem_version.problem.course
    if course is not None:
        from courses import access

        return access.can_manage(access.course_role(user, course))
    if is_instructor(user):
        return True
    if submission.course_id is not None:
        # A bank problem practised for a course (its problem set's item): that course's staff.
        from courses import access

        return access.can_manage(access.course_role(user, submission.course))
    return False


def visible_to(user, submission: Submission) -> bool:
    """may_see, and for a student's own exam submission also what the exam's feedback setting allows
    until its release (exams.services.hidden_from_student); a site instructor is not held back."""
    if not may_see(user, submission):
        return False
    if submission.is_exam_work and submission.user_id == user.pk and not is_instructor(user):
        from exams.services import hidden_from_student

        return not hidden_from_student(submission)
    return True
