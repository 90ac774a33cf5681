"""What a verified LTI launch means in WarpDrill: the account, the course role and the page it opens.

`apply_launch(platform, data)` takes the id_token's claims (pylti1p3 has checked the signature, nonce,
state, audience and deployment) and returns a Launched(user, link, url), or raises LaunchRefused with
a message for the user. The target comes from the resource link's custom parameters, set in the LMS:
`course=CODE` (a course this platform may launch into), optionally `exam=ID` or `problem_set=ID` of
that course; later launches of the same link, and of other links in the same LMS course, reuse it.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext as _

from courses.models import Course, Membership, Role

from .models import LtiUser, Platform, ResourceLink

CLAIM = "https://purl.imsglobal.org/spec/lti/claim/"
AGS_CLAIM = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
LIS = "http://purl.imsglobal.org/vocab/lis/v2/"

# Context roles (full URIs, or the short names LTI 1.3 allows for them) -> course role; the first match wins.
ROLE_MAP = [
    ((LIS + "membership/Instructor#TeachingAssistant", "TeachingAssistant"), Role.TA),
    ((LIS + "membership#Instructor", "Instructor", LIS + "membership#Administrator", "Administrator",
      LIS + "membership#ContentDeveloper", "ContentDeveloper"), Role.INSTRUCTOR),
    ((LIS + "membership#Learner", "Learner", LIS + "membership/Learner#Learner"), Role.STUDENT),
]
RANK = {Role.STUDENT: 0, Role.TA: 1, Role.INSTRUCTOR: 2}


class LaunchRefused(Exception):
    """A launch WarpDrill will not follow; the message is for the user (the LMS shows our page)."""


@dataclass(frozen=True)
class Launched:
    user: User
    link: ResourceLink
    role: str
    url: str  # where the browser goes next


def course_role(roles: list[str]) -> str | None:
    """The course role of the launch's LTI roles: TA, instructor or student; None for others
    (observers, mentors, guests), who are refused."""
    for names, role in ROLE_MAP:
        if any(r in names for r in roles):
            return role
    return None


def _account(platform: Platform, data: dict) -> User:
    """The WarpDrill account of the LMS user `sub`: the linked one, else a new one (no usable password:
    it logs in through the LMS; an administrator may relink the LtiUser row to an existing account)."""
    sub = str(data["sub"])
    identity = LtiUser.objects.select_related("user").filter(platform=platform, sub=sub).first()
    if identity is not None:
        return identity.user
    digest = hashlib.sha256(f"{platform.pk}:{sub}".encode()).hexdigest()[:12]
    user = User(username=f"lti-{platform.pk}-{digest}", email=str(data.get("email") or "")[:254],
                first_name=str(data.get("given_name") or data.get("name") or "")[:150],
                last_name=str(data.get("family_name") or "")[:150])
    user.set_unusable_password()
    user.save()
    LtiUser.objects.create(platform=platform, sub=sub, user=user)
    return user


def _target(platform: Platform, data: dict, link: ResourceLink | None):
    """(course, exam, problem_set) of this launch: the custom parameters, else the link's, else the
    course another link of this LMS course opens."""
    custom = data.get(CLAIM + "custom") or {}
    context_id = str((data.get(CLAIM + "context") or {}).get("id") or "")
    course = None
    code = str(custom.get("course") or "").strip()
    if code:
        course = Course.objects.filter(code=code).first()
        if course is None:
            raise LaunchRefused(_("No WarpDrill course has the code %(code)s.") % {"code": code})
    elif link is not None:
        course = link.course
    elif context_id:
        other = ResourceLink.objects.filter(platform=platform, context_id=context_id).select_related("course").first()
        course = other.course if other else None
    if course is None:
        raise LaunchRefused(_("This LMS course is not linked to a WarpDrill course: the link needs the custom "
                              "parameter course=CODE."))
    if not platform.courses.filter(pk=course.pk).exists():
        raise LaunchRefused(_("This LMS may not launch into the course %(code)s: a WarpDrill administrator "
                              "allows it on the platform's registration.") % {"code": course.code})
    exam = problem_set = None
    if custom.get("exam"):
        exam = course.exams.filter(pk=_int(custom["exam"])).first()
        if exam is None:
            raise LaunchRefused(_("The course %(code)s has no exam %(id)s.") % {"code": course.code, "id": custom["exam"]})
    elif custom.get("problem_set"):
        problem_set = course.problem_sets.filter(pk=_int(custom["problem_set"])).first()
        if problem_set is None:
            raise LaunchRefused(_("The course %(code)s has no problem set %(id)s.") % {
                "code": course.code, "id": custom["problem_set"]})
    elif link is not None and not code:
        exam, problem_set = link.exam, link.problem_set
    return course, exam, problem_set


def _int(value) -> int:
    text = str(value).strip()
    return int(text) if text.isdigit() and len(text) < 18 else 0


@transaction.atomic
def apply_launch(platform: Platform, data: dict) -> Launched:
    """Link the LMS user and resource link, give the course role, and say where to go (see the module)."""
    role = course_role([str(r) for r in data.get(CLAIM + "roles") or []])
    if role is None:
        raise LaunchRefused(_("Your role in the LMS course gives no access to WarpDrill (only learners, "
                              "TAs and instructors are let in)."))
    deployment_id = str(data.get(CLAIM + "deployment_id") or "")
    resource = data.get(CLAIM + "resource_link") or {}
    context = data.get(CLAIM + "context") or {}
    link = ResourceLink.objects.filter(platform=platform, deployment_id=deployment_id,
                                       resource_link_id=str(resource.get("id") or "")).first()
    course, exam, problem_set = _target(platform, data, link)
    if link is None:
        link = ResourceLink(platform=platform, deployment_id=deployment_id, resource_link_id=str(resource.get("id") or ""))
    link.course, link.exam, link.problem_set = course, exam, problem_set
    link.context_id = str(context.get("id") or "")[:255]
    link.context_title = str(context.get("title") or context.get("label") or "")[:255]
    link.title = str(resource.get("title") or "")[:255]
    ags = data.get(AGS_CLAIM)
    if isinstance(ags, dict):
        if ags.get("lineitem") and ags.get("lineitem") != (link.ags or {}).get("lineitem"):
            link.lineitem_url = str(ags["lineitem"])[:500]  # the platform's own line item for this link
        link.ags = {k: ags[k] for k in ("scope", "lineitems", "lineitem") if k in ags}
    link.save()

    user = _account(platform, data)
    membership = Membership.objects.filter(course=course, user=user).first()
    if membership is None:
        Membership.objects.create(course=course, user=user, role=role)
    elif RANK.get(role, 0) > RANK.get(membership.role, 0):
        membership.role = role  # a launch raises a role, never lowers one (WarpDrill's instructors do that)
        membership.save(update_fields=["role"])
    if exam is not None:
        url = reverse("exams:exam", args=[exam.pk])
    elif problem_set is not None:
        url = reverse("homework:set", args=[course.code, problem_set.pk])
    else:
        url = reverse("courses:course", args=[course.code])
    return Launched(user=user, link=link, role=role, url=url)
