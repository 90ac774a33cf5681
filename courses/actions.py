"""The one write path of courses: creating courses, invites and joining, roles, roster uploads.

Every function that acts for a user checks that user's course role through courses/access.py
(Http404 for outsiders and for members without the role) before it writes; refusals a user can
act on are `CourseError`s (courses/errors.py). Pages, the admin's actions and management commands
all call these.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import datetime

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import F
from django.db.models.functions import Lower
from django.http import Http404
from django.utils import timezone

from accounts.profiles import fill_student_id
from accounts.roles import STUDENT_GROUP

from . import access
from .core.roster import FileIssue, RosterRow, RowIssue, RowProblem, StudentIdConflict, decode, parse_roster
from .errors import CourseError, CourseErrorCode, InviteError
from .models import RESERVED_CODES, Course, Invite, Language, Membership, ProvisionedAccount, Role

# Invite codes are typed by students: no 0/O or 1/I/L to confuse. 10 of 31 symbols ~ 49.5 bits.
INVITE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
INVITE_LENGTH = 10
DEMO_COURSE_CODE = "GPU-DEMO"
DEMO_COURSE_NAME = "GPU Programming (Demo)"


def normalize_invite_code(text: str) -> str:
    """An invite code as stored: upper case, without the spaces and hyphens people type or paste."""
    return "".join(ch for ch in (text or "").upper() if ch.isalnum())


def new_invite_code() -> str:
    """A fresh random invite code (not checked for uniqueness: the unique index is)."""
    return "".join(secrets.choice(INVITE_ALPHABET) for _ in range(INVITE_LENGTH))


@transaction.atomic
def create_course(by, *, name: str, code: str, term: str = "", language: str = Language.ENGLISH,
                  target_cc: str | None = None) -> Course:
    """Create a course with `by` as its instructor.

    Raises PermissionDenied unless `by` may create courses (access.can_create_courses), and
    CourseError for a reserved code or one another course has (compared case-insensitively).
    """
    if not access.can_create_courses(by):
        raise PermissionDenied
    code = code.strip()
    if code.lower() in RESERVED_CODES:
        raise CourseError(CourseErrorCode.CODE_RESERVED)
    if Course.objects.filter(code__iexact=code).exists():
        raise CourseError(CourseErrorCode.CODE_TAKEN)
    fields = {"name": name.strip(), "code": code, "term": term.strip(), "language": language, "created_by": by}
    if target_cc:
        fields["target_cc"] = target_cc
    try:
        with transaction.atomic():
            course = Course.objects.create(**fields)
    except IntegrityError:
        raise CourseError(CourseErrorCode.CODE_TAKEN) from None
    Membership.objects.create(course=course, user=by, role=Role.INSTRUCTOR)
    return course


@dataclass(frozen=True)
class SettingsChange:
    """What update_course_settings changed."""

    course: Course  # the course as saved
    changed: tuple[str, ...]  # the fields that changed, in the form's order ("name", "target_cc", ...)
    old_target_cc: str  # the target GPU before (the same as now when it did not change)


@transaction.atomic
def update_course_settings(course: Course, by, *, name: str, term: str, language: str, target_cc: str) -> SettingsChange:
    """Change a course's name, term, default language and target GPU (the code stays: it is in its
    address, invite links and LMS links).

    Precondition: the values are valid for the model (CourseSettingsForm checked them). Raises Http404
    unless `by` instructs the course, and CourseError TARGET_GPU_DURING_EXAM when the target GPU would
    change while a student is taking one of the course's exams (the rest of that exam's kernels would
    be graded for another GPU than its first ones). Everything that reads the target GPU reads the
    course's row when it draws or grades, so a change applies from the next question or grading on.
    """
    from exams.services import attempts_in_progress

    access.require_role(by, course, *access.INSTRUCTORS)
    locked = Course.objects.select_for_update().get(pk=course.pk)
    new = {"name": name.strip(), "term": term.strip(), "language": language, "target_cc": target_cc}
    changed = tuple(f for f, value in new.items() if getattr(locked, f) != value)
    old_target_cc = locked.target_cc
    if "target_cc" in changed and attempts_in_progress(locked):
        raise CourseError(CourseErrorCode.TARGET_GPU_DURING_EXAM)
    for f in changed:
        setattr(locked, f, new[f])
    if changed:
        locked.save(update_fields=list(changed))
    return SettingsChange(locked, changed, old_target_cc)


def create_invite(course: Course, by, *, role: str = Role.STUDENT, expires_at: datetime | None = None,
                  max_uses: int | None = None) -> Invite:
    """A new invite to the course; only its instructors may make one (Http404 for anyone else).

    `expires_at` None: never expires; `max_uses` None: unlimited. Raises CourseError for a role
    outside the Role enum.
    """
    access.require_role(by, course, *access.INSTRUCTORS)
    if role not in Role.values:
        raise CourseError(CourseErrorCode.ROLE_NOT_ALLOWED)
    for _attempt in range(5):  # a collision of 49-bit codes is rare; retrying settles it
        try:
            with transaction.atomic():
                return Invite.objects.create(course=course, code=new_invite_code(), role=role, expires_at=expires_at,
                                             max_uses=max_uses, created_by=by)
        except IntegrityError:
            continue
    raise RuntimeError("could not draw a unique invite code")


def revoke_invite(course: Course, by, invite_id: int, now: datetime | None = None) -> Invite:
    """Revoke one of the course's invites (instructors only; Http404 otherwise or for another
    course's invite). Revoking twice keeps the first time."""
    access.require_role(by, course, *access.INSTRUCTORS)
    invite = Invite.objects.filter(course=course, pk=invite_id).first()
    if invite is None:
        raise Http404("No such invite.")
    if invite.revoked_at is None:
        invite.revoked_at = now or timezone.now()
        invite.save(update_fields=["revoked_at"])
    return invite


def invite_problem(invite: Invite | None, now: datetime | None = None) -> CourseErrorCode | None:
    """Why the invite cannot enrol anyone at `now` (None: it can)."""
    now = now or timezone.now()
    if invite is None:
        return CourseErrorCode.INVITE_UNKNOWN
    if invite.revoked_at is not None:
        return CourseErrorCode.INVITE_REVOKED
    if invite.expires_at is not None and now >= invite.expires_at:
        return CourseErrorCode.INVITE_EXPIRED
    if invite.max_uses is not None and invite.uses >= invite.max_uses:
        return CourseErrorCode.INVITE_USED_UP
    return None


@dataclass(frozen=True)
class JoinOutcome:
    """What using an invite did."""

    course: Course
    membership: Membership
    joined: bool  # False: the user was already a member (their role is unchanged, no use counted)


def join_with_code(user, code: str, now: datetime | None = None) -> JoinOutcome:
    """Enrol a logged-in user with an invite code (typed or from a link).

    A member of the course keeps their role and costs the invite no use, even if the invite has
    since stopped working. Otherwise the invite must be usable: raises InviteError (unknown,
    revoked, expired, used up). The invite row is locked while its use is counted, so `max_uses`
    holds under concurrent joins.
    """
    normalized = normalize_invite_code(code)
    with transaction.atomic():
        invite = Invite.objects.select_for_update().select_related("course").filter(code=normalized).first() \
            if normalized else None
        if invite is not None:
            existing = Membership.objects.filter(course=invite.course, user=user).first()
            if existing is not None:
                return JoinOutcome(invite.course, existing, joined=False)
        problem = invite_problem(invite, now)
        if problem is not None:
            raise InviteError(problem)
        membership = Membership.objects.create(course=invite.course, user=user, role=invite.role)
        Invite.objects.filter(pk=invite.pk).update(uses=F("uses") + 1)
    return JoinOutcome(invite.course, membership, joined=True)


def _lock_course(course: Course) -> None:
    Course.objects.select_for_update().filter(pk=course.pk).first()


def _other_instructors(course: Course, membership: Membership) -> bool:
    return Membership.objects.filter(course=course, role=Role.INSTRUCTOR).exclude(pk=membership.pk).exists()


@transaction.atomic
def set_role(course: Course, by, membership_id: int, role: str) -> Membership:
    """Change a member's role (instructors only; Http404 otherwise or for another course's member).

    Raises CourseError for an unknown role, or when it would leave the course without an instructor.
    """
    access.require_role(by, course, *access.INSTRUCTORS)
    if role not in Role.values:
        raise CourseError(CourseErrorCode.ROLE_NOT_ALLOWED)
    _lock_course(course)
    membership = Membership.objects.filter(course=course, pk=membership_id).first()
    if membership is None:
        raise Http404("No such member.")
    if membership.role == Role.INSTRUCTOR and role != Role.INSTRUCTOR and not _other_instructors(course, membership):
        raise CourseError(CourseErrorCode.LAST_INSTRUCTOR)
    if membership.role != role:
        membership.role = role
        membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def remove_member(course: Course, by, membership_id: int) -> list:
    """Remove a member from the course (instructors only); their account stays. An exam of the course
    they are taking now is closed and graded with the answers saved so far (exams.actions.attempts.
    close_for_removed_member): they could no longer open or save it, and it would otherwise wait for
    its deadline. Returns those attempts (ExamAttempt, with their exams).

    Raises CourseError when the member is the course's last instructor.
    """
    from exams.actions.attempts import close_for_removed_member

    access.require_role(by, course, *access.INSTRUCTORS)
    _lock_course(course)
    membership = Membership.objects.filter(course=course, pk=membership_id).select_related("user").first()
    if membership is None:
        raise Http404("No such member.")
    if membership.role == Role.INSTRUCTOR and not _other_instructors(course, membership):
        raise CourseError(CourseErrorCode.LAST_INSTRUCTOR)
    membership.delete()
    return close_for_removed_member(course, membership.user, by)


@dataclass
class RosterReport:
    """What a roster upload did, row by row. Nothing is taken when `error` is set."""

    error: FileIssue | None = None
    error_detail: str = ""
    created: list[RosterRow] = field(default_factory=list)  # new accounts, enrolled as students
    linked: list[RosterRow] = field(default_factory=list)  # existing accounts (same username and email), enrolled
    already: list[tuple[RosterRow, str]] = field(default_factory=list)  # already members: (row, their role)
    problems: list[RowProblem] = field(default_factory=list)  # rows not taken, in line order
    student_ids_stored: int = 0  # accounts (new, linked or already members) that got the roster's student ID
    student_id_conflicts: list[StudentIdConflict] = field(default_factory=list)  # IDs not stored, in line order

    @property
    def taken(self) -> int:
        return len(self.created) + len(self.linked)


def import_roster(course: Course, by, data: bytes | str) -> RosterReport:
    """Enrol a roster CSV's rows as students (instructors only; Http404 for anyone else).

    A row whose username is new creates an account with that email and name, with an unusable
    password (its owner sets one through a one-time link, `password_links`). A row matching an
    existing active account by username AND email (case-insensitively) enrols that account. Every
    other row is reported with its reason; rows naming an account already in the course are listed as
    such, whatever their email, and the membership left as it is. A row's student ID is stored on its account (new, linked or already a
    member) only where the account has none: an account's own different ID is kept and the row
    listed in `student_id_conflicts`. One transaction: a failure part-way takes nothing.
    """
    access.require_role(by, course, *access.INSTRUCTORS)
    parsed = parse_roster(decode(data) if isinstance(data, bytes) else data)
    report = RosterReport(error=parsed.error, error_detail=parsed.error_detail, problems=list(parsed.problems))
    if parsed.error is not None:
        return report
    User = get_user_model()
    by_username = {u.lower_username: u for u in User.objects.annotate(lower_username=Lower("username"))
                   .filter(lower_username__in=[r.username.lower() for r in parsed.rows])}
    by_email: dict[str, list] = {}
    for u in User.objects.annotate(lower_email=Lower("email")).filter(lower_email__in=[r.email for r in parsed.rows]):
        by_email.setdefault(u.lower_email, []).append(u)
    members = dict(Membership.objects.filter(course=course).values_list("user_id", "role"))
    student_group, _ = Group.objects.get_or_create(name=STUDENT_GROUP)
    with transaction.atomic():
        for row in parsed.rows:
            user = by_username.get(row.username.lower())
            if user is not None and user.is_active and user.pk in members:
                # Already in the course, whatever its email (the demo student has none): nothing to take. Its
                # student ID is filled from the row only when the row's email is the account's.
                report.already.append((row, members[user.pk]))
                if (user.email or "").lower() == row.email:
                    _store_student_id(report, row, user)
                continue
            if user is not None:
                problem = _existing_user_problem(row, user)
                if problem is not None:
                    report.problems.append(problem)
                    continue
                Membership.objects.create(course=course, user=user, role=Role.STUDENT)
                report.linked.append(row)
                _store_student_id(report, row, user)
                continue
            if by_email.get(row.email):
                report.problems.append(RowProblem(row.line, row.username, RowIssue.EMAIL_OF_OTHER_USER, row.email))
                continue
            user = User(username=row.username, email=row.email, first_name=row.name)
            user.set_unusable_password()
            user.save()
            user.groups.add(student_group)
            ProvisionedAccount.objects.create(user=user, course=course, created_by=by)
            Membership.objects.create(course=course, user=user, role=Role.STUDENT)
            report.created.append(row)
            _store_student_id(report, row, user)
    report.problems.sort(key=lambda p: p.line)
    return report


def _store_student_id(report: RosterReport, row: RosterRow, user) -> None:
    """Fill the account's missing student ID from the row; a different ID of its own is kept and reported."""
    if not row.student_id:
        return
    stored, own = fill_student_id(user, row.student_id)
    if stored:
        report.student_ids_stored += 1
    elif own.lower() != row.student_id.lower():
        report.student_id_conflicts.append(StudentIdConflict(row.line, row.username, row.student_id, own))


def _existing_user_problem(row: RosterRow, user) -> RowProblem | None:
    if not user.is_active:
        return RowProblem(row.line, row.username, RowIssue.INACTIVE_USER)
    if (user.email or "").lower() != row.email:
        # The account's own email is not shown to the uploader: only that it differs.
        return RowProblem(row.line, row.username, RowIssue.EXISTING_USER_OTHER_EMAIL, row.email)
    return None


@transaction.atomic
def ensure_demo_course(instructor, students) -> Course:
    """The demo course "GPU Programming (Demo)" owned by `instructor`, with `students` enrolled.

    Idempotent (seed_demo runs it every time): keeps the course and adds missing memberships;
    an existing member's role is set to what the demo needs.
    """
    course, _ = Course.objects.get_or_create(
        code=DEMO_COURSE_CODE,
        defaults={"name": DEMO_COURSE_NAME, "term": "Demo", "created_by": instructor},
    )
    Membership.objects.update_or_create(course=course, user=instructor, defaults={"role": Role.INSTRUCTOR})
    for student in students:
        Membership.objects.update_or_create(course=course, user=student, defaults={"role": Role.STUDENT})
    return course
