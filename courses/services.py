"""Reads of the courses app that other apps and the pages use: a user's courses and what is open in
each, and the one-time set-password links of roster-created accounts."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from datetime import timezone as dt_timezone

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from . import access
from .models import Course, Membership, ProvisionedAccount, Role


@dataclass(frozen=True)
class OpenItem:
    """Something a member can work on now in a course (filled in by the exams app)."""

    title: str  # in the reader's language
    url: str  # where to open it
    kind: str = "exam"  # what it is: "exam", "problem set", ...
    closes_at: object = None  # aware datetime or None: when it stops taking (counting) work
    due_at: object = None  # a problem set's due date (aware), shown instead of closes_at
    late_until: object = None  # a problem set's late deadline (aware) where late work counts, else None


def open_items(course: Course, user) -> list[OpenItem]:
    """What is open for `user` in `course` now, soonest closing first: the exams open in their own
    window (accommodations included) that they have not finished (exams.services.open_exams), and
    the problem sets open now (homework.services.open_problem_sets)."""
    from exams.services import open_exams  # exams builds on courses, not the other way round
    from homework.services import open_problem_sets  # and so does homework

    items = [OpenItem(o.exam.localized_title, o.url, "exam", o.closes_at) for o in open_exams(course, user)]
    items += open_problem_sets(course, user)
    far = datetime.max.replace(tzinfo=dt_timezone.utc)
    return sorted(items, key=lambda item: item.closes_at or far)


@dataclass
class MyCourse:
    """One of a user's courses, with their role and what is open for them."""

    course: Course
    role: Role
    items: list[OpenItem] = field(default_factory=list)


def my_courses(user) -> list[MyCourse]:
    """The user's courses (newest first), their role in each and what is open in each."""
    if not getattr(user, "is_authenticated", False):
        return []
    rows = Membership.objects.filter(user=user).select_related("course").order_by("-course__created_at", "course__code")
    return [MyCourse(m.course, Role(m.role), open_items(m.course, user)) for m in rows]


def members(course: Course, *roles: Role):
    """The course's users holding one of `roles` (every member when none are given), by username.

    A queryset of the user model, e.g. `members(course, Role.STUDENT)` for a per-student print run.
    """
    memberships = Membership.objects.filter(course=course)
    if roles:
        memberships = memberships.filter(role__in=roles)
    return get_user_model().objects.filter(pk__in=memberships.values("user_id")).order_by("username")


@dataclass(frozen=True)
class PasswordLink:
    """A one-time link with which a roster-created account's owner chooses a password."""

    user: object  # the account
    path: str  # /accounts/reset/<uid>/<token>/: works until the password is set or the token times out


def password_links(course: Course, by) -> list[PasswordLink]:
    """The set-password links of accounts this course's roster created that still have no usable
    password (instructors only; Http404 for anyone else), ordered by username.

    The token is Django's password-reset token: it stops working once the password is set (it
    hashes the password), when the account logs in, and after settings.PASSWORD_RESET_TIMEOUT.
    Showing the page again makes fresh links.
    """
    access.require_role(by, course, *access.INSTRUCTORS)
    out = []
    for p in ProvisionedAccount.objects.filter(course=course).select_related("user").order_by("user__username"):
        if p.user.has_usable_password() or not p.user.is_active:
            continue
        uid = urlsafe_base64_encode(force_bytes(p.user.pk))
        token = default_token_generator.make_token(p.user)
        out.append(PasswordLink(p.user, reverse("password_reset_confirm", args=[uid, token])))
    return out


def usable_invite(code: str):
    """The Invite with `code` (typed the way people type it: any case, spaces, hyphens) if it can enrol
    someone now (not revoked, not expired, uses left), else None."""
    from .actions import invite_problem, normalize_invite_code
    from .models import Invite

    normalized = normalize_invite_code(code)
    invite = Invite.objects.select_related("course").filter(code=normalized).first() if normalized else None
    return invite if invite is not None and invite_problem(invite) is None else None


def invite_code_of_link(url: str) -> str:
    """The invite code a course's join link names ('/courses/join/AB12CD34/' -> 'AB12CD34'), or '' for any
    other URL (a log-in or sign-up page's `next`)."""
    from urllib.parse import urlsplit

    from django.urls import Resolver404, resolve

    try:
        match = resolve(urlsplit(url or "").path)
    except Resolver404:
        return ""
    return match.kwargs.get("code", "") if match.view_name == "courses:join" else ""
