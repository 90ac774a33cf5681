"""Joining a course with an invite code: expiry, revocation, maximum uses, wrong codes, roles."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.http import Http404
from django.utils import timezone

from courses import actions
from courses.errors import CourseError, CourseErrorCode, InviteError
from courses.models import Invite, Membership, Role

pytestmark = pytest.mark.django_db


def join_error(user, code, now=None) -> CourseErrorCode:
    with pytest.raises(InviteError) as caught:
        actions.join_with_code(user, code, now=now)
    return caught.value.code


def test_a_student_joins_with_a_typed_code_in_any_case_with_spaces_and_hyphens(people, courses):
    """The code is forgiving as typed: lower case, spaces and hyphens; one use is counted."""
    invite = actions.create_invite(courses["A"], people["prof"])
    typed = "-".join([invite.code[:5].lower(), invite.code[5:]]) + " "
    outcome = actions.join_with_code(people["nobody"], typed)
    assert outcome.joined and outcome.course == courses["A"] and outcome.membership.role == Role.STUDENT
    invite.refresh_from_db()
    assert invite.uses == 1


def test_invite_codes_avoid_lookalike_characters_and_differ(people, courses):
    codes = {actions.create_invite(courses["A"], people["prof"]).code for _ in range(20)}
    assert len(codes) == 20
    assert all(len(c) == actions.INVITE_LENGTH and not set(c) & set("01OIL") for c in codes)


def test_a_wrong_code_is_refused_and_enrols_nobody(people, courses):
    actions.create_invite(courses["A"], people["prof"])
    assert join_error(people["nobody"], "ZZZZZZZZZZ") == CourseErrorCode.INVITE_UNKNOWN
    assert join_error(people["nobody"], "") == CourseErrorCode.INVITE_UNKNOWN
    assert join_error(people["nobody"], "--- ") == CourseErrorCode.INVITE_UNKNOWN
    assert not Membership.objects.filter(user=people["nobody"]).exists()


def test_an_expired_invite_is_refused_at_and_after_its_expiry(people, courses):
    """An invite works until its expiry time and not at or after it (the server's clock)."""
    expires = timezone.now() + timedelta(days=1)
    invite = actions.create_invite(courses["A"], people["prof"], expires_at=expires)
    assert join_error(people["nobody"], invite.code, now=expires) == CourseErrorCode.INVITE_EXPIRED
    assert join_error(people["nobody"], invite.code, now=expires + timedelta(seconds=1)) == CourseErrorCode.INVITE_EXPIRED
    assert actions.join_with_code(people["nobody"], invite.code, now=expires - timedelta(seconds=1)).joined


def test_a_revoked_invite_is_refused(people, courses):
    invite = actions.create_invite(courses["A"], people["prof"])
    actions.revoke_invite(courses["A"], people["prof"], invite.pk)
    assert join_error(people["nobody"], invite.code) == CourseErrorCode.INVITE_REVOKED
    assert not Membership.objects.filter(user=people["nobody"]).exists()


def test_max_uses_counts_new_members_only(people, courses):
    """Two uses allowed: two new members join, the third is refused; a member using it again costs nothing."""
    invite = actions.create_invite(courses["A"], people["prof"], max_uses=2)
    assert actions.join_with_code(people["nobody"], invite.code).joined
    again = actions.join_with_code(people["nobody"], invite.code)
    assert not again.joined
    assert actions.join_with_code(people["bea"], invite.code).joined
    assert join_error(people["tom"], invite.code) == CourseErrorCode.INVITE_USED_UP
    invite.refresh_from_db()
    assert invite.uses == 2 and not invite.is_usable()


def test_a_member_keeps_their_role_when_using_an_invite(people, courses):
    """The TA of course A using a student invite of A stays TA (no downgrade, no use counted)."""
    invite = actions.create_invite(courses["A"], people["prof"], max_uses=1)
    outcome = actions.join_with_code(people["tara"], invite.code)
    assert not outcome.joined and outcome.membership.role == Role.TA
    invite.refresh_from_db()
    assert invite.uses == 0


def test_a_member_is_sent_to_the_course_even_after_the_invite_was_revoked(people, courses):
    invite = actions.create_invite(courses["A"], people["prof"])
    actions.join_with_code(people["nobody"], invite.code)
    actions.revoke_invite(courses["A"], people["prof"], invite.pk)
    assert actions.join_with_code(people["nobody"], invite.code).course == courses["A"]


def test_a_ta_invite_makes_a_ta(people, courses):
    invite = actions.create_invite(courses["A"], people["prof"], role=Role.TA)
    assert actions.join_with_code(people["nobody"], invite.code).membership.role == Role.TA


@pytest.mark.parametrize("who", ["tara", "stu", "bea", "nobody"])
def test_only_the_course_instructor_creates_or_revokes_invites(people, courses, who):
    """The TA and student of A, B's instructor and an outsider get 404 for A's invites."""
    invite = actions.create_invite(courses["A"], people["prof"])
    with pytest.raises(Http404):
        actions.create_invite(courses["A"], people[who])
    with pytest.raises(Http404):
        actions.revoke_invite(courses["A"], people[who], invite.pk)
    invite.refresh_from_db()
    assert invite.revoked_at is None and Invite.objects.filter(course=courses["A"]).count() == 1


def test_an_instructor_cannot_revoke_another_course_invite_through_their_own_course(people, courses):
    """B's instructor naming A's invite under course B gets 404 and the invite keeps working."""
    invite = actions.create_invite(courses["A"], people["prof"])
    with pytest.raises(Http404):
        actions.revoke_invite(courses["B"], people["bea"], invite.pk)
    assert actions.join_with_code(people["nobody"], invite.code).joined


def test_an_unknown_role_is_refused(people, courses):
    with pytest.raises(CourseError) as caught:
        actions.create_invite(courses["A"], people["prof"], role="owner")
    assert caught.value.code == CourseErrorCode.ROLE_NOT_ALLOWED
