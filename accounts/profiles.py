"""Who a user says they are: one full name, an email address and a student ID (학번), all optional.

The name is stored whole in User.first_name (as a roster's `name` is: a Korean name is not a first and
a last name) and the email in User.email, where the course roster, the exports and the admin read
them; the student ID in accounts.Profile. `set_identity` is the one write path of sign-up and My
account; a roster upload only fills a missing student ID (`fill_student_id`).
"""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models.functions import Lower

from .models import Profile


def student_id_of(user) -> str:
    """The user's student ID, or "" (no profile yet). Reads user.profile, so a list of users is
    best loaded with select_related("profile") (or "user__profile" through a membership)."""
    try:
        return user.profile.student_id
    except Profile.DoesNotExist:
        return ""


def email_taken(email: str, user=None) -> bool:
    """Whether another account than `user` has `email` (letter case ignored, as a roster matches)."""
    others = get_user_model().objects.annotate(lower_email=Lower("email")).filter(lower_email=email.strip().lower())
    if user is not None and user.pk:
        others = others.exclude(pk=user.pk)
    return bool(email.strip()) and others.exists()


@transaction.atomic
def set_identity(user, *, full_name: str, email: str, student_id: str) -> None:
    """Store what the user gave (validated by accounts.forms: an email's form and that no other account
    has it, a student ID's characters). A full name that reads as the one stored (get_full_name) leaves
    first_name and last_name as they are, so an LMS's given and family names stay split; another name
    is stored whole in first_name."""
    full_name, email, student_id = full_name.strip(), email.strip(), student_id.strip()
    fields = []
    if full_name != user.get_full_name().strip():
        user.first_name, user.last_name = full_name, ""
        fields += ["first_name", "last_name"]
    if email != user.email:
        user.email = email
        fields.append("email")
    if fields:
        user.save(update_fields=fields)
    profile, _created = Profile.objects.get_or_create(user=user)
    if profile.student_id != student_id:
        profile.student_id = student_id
        profile.save(update_fields=["student_id"])
    user.profile = profile


def fill_student_id(user, student_id: str) -> tuple[bool, str]:
    """Give `user` the student ID `student_id` unless they already have one (a roster upload's write
    path: courses.actions.import_roster). Precondition: `student_id` is stripped, non-empty and valid
    (courses.core.roster checks it as accounts.forms does) and the caller runs inside a transaction
    (the profile row is locked, so a student saving My account at the same moment is not lost).

    Returns (whether the ID was written now, the ID the user has afterwards). A user's own non-empty
    ID is never overwritten: when it differs from `student_id` (letter case ignored) the caller
    reports the conflict.
    """
    profile, _created = Profile.objects.select_for_update().get_or_create(user=user)
    user.profile = profile
    if profile.student_id:
        return False, profile.student_id
    profile.student_id = student_id
    profile.save(update_fields=["student_id"])
    return True, student_id
