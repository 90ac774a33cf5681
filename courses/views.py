"""Courses pages: my courses, a course, its management page, creating a course, joining one.

Thin: parse, check access (courses/access.py), call one action or service, render. A refused
action (CourseError) is shown as a message in the reader's language.
"""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Case, When
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from . import access, actions, reports, services
from .errors import CourseError, CourseErrorCode, InviteError
from .forms import CourseForm, CourseSettingsForm, InviteForm, JoinForm, RoleForm, RosterForm
from .language import speak_course_language
from .messages import file_issue_text, row_problem_text, student_id_conflict_text
from .models import Course, Invite, Membership, Role, target_gpu_choices


@login_required
def home(request):
    """My courses: every course the user is in, their role, and what is open in each."""
    return render(request, "courses/home.html", {
        "mine": services.my_courses(request.user),
        "can_create": access.can_create_courses(request.user),
    })


@login_required
def new(request):
    """Create a course (staff, or the courses.create_course permission); its creator instructs it."""
    if not access.can_create_courses(request.user):
        raise PermissionDenied
    form = CourseForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            course = actions.create_course(request.user, **form.cleaned_data)
        except CourseError as exc:
            form.add_error("code", str(exc))
        else:
            messages.success(request, _("Course created. Invite your students from its management page."))
            return redirect("courses:manage", code=course.code)
    return render(request, "courses/new.html", {"form": form}, status=400 if form.errors else 200)


def join_form(request):
    """A form to type an invite code; it leads to the join page of that code."""
    form = JoinForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        code = actions.normalize_invite_code(form.cleaned_data["code"])
        if code:
            return redirect("courses:join", code=code)
        form.add_error("code", str(InviteError(CourseErrorCode.INVITE_UNKNOWN)))
    return render(request, "courses/join_form.html", {"form": form}, status=400 if form.errors else 200)


def join(request, code: str):
    """An invite link. GET: which course it joins; logged out, with Sign up and Log in, both coming back
    here (a sign-up from here joins at once: accounts.views.signup), in the course's default language
    where the visitor names none (courses.language). POST: join it (logged in)."""
    if not request.user.is_authenticated and request.method == "POST":
        return redirect_to_login(request.get_full_path())
    normalized = actions.normalize_invite_code(code)
    invite = Invite.objects.select_related("course").filter(code=normalized).first() if normalized else None
    speak_course_language(request, invite.course if invite is not None else None)
    if request.method == "POST":
        try:
            outcome = actions.join_with_code(request.user, code)
        except InviteError as exc:
            return render(request, "courses/join.html", {"error": str(exc), "code": normalized}, status=400)
        if outcome.joined:
            messages.success(request, _("Welcome to %(course)s.") % {"course": outcome.course.name})
        else:
            messages.info(request, _("You are already a member of %(course)s.") % {"course": outcome.course.name})
        return redirect("courses:course", code=outcome.course.code)
    member = (invite is not None and request.user.is_authenticated
              and Membership.objects.filter(course=invite.course, user=request.user).exists())
    problem = None if member else actions.invite_problem(invite)
    if problem is not None:
        return render(request, "courses/join.html", {"error": str(InviteError(problem)), "code": normalized}, status=400)
    return render(request, "courses/join.html", {"invite": invite, "member": member, "code": normalized})


@login_required
def course(request, code: str):
    """A course's page for its members: details, your role, what is open now. A signed-in outsider gets
    the 403 "not in this course" page (how to join), as on an exam's pages; an unknown code a 404."""
    from exams.services import reserved_problem_ids
    from problems.services import published_course_problems

    course = get_object_or_404(Course, code=code)
    role = access.course_role(request.user, course)
    if role is None:
        # As on the exams' pages: a signed-in user outside the course (a student removed from it, a
        # link passed on) is told so and how to join, with nothing of the course; an unknown code is a 404.
        return render(request, "exams/not_in_course.html", {"course_page": True}, status=403)
    problems = published_course_problems(course)
    if not access.can_manage(role):  # a problem an exam of the course keeps secret now is not listed
        reserved = reserved_problem_ids(course.pk)
        problems = [p for p in problems if p.pk not in reserved]
    return render(request, "courses/course.html", {
        "course": course, "role": role, "items": services.open_items(course, request.user),
        "problems": problems,
        "can_manage": access.can_manage(role), "can_administer": access.can_administer(role),
        "instructors": course.memberships.filter(role=Role.INSTRUCTOR).select_related("user"),
    })


@login_required
def settings(request, code: str):
    """Edit a course's settings (name, term, language, target GPU): its instructors; TAs and students
    get 403, outsiders 404 (as for any page of a course they are not in)."""
    course, role = access.course_for(request.user, code)
    if not access.can_administer(role):
        raise PermissionDenied
    # The form checks a copy: a refused save must not leave the page's own course half-changed.
    form = CourseSettingsForm(request.POST or None, instance=Course.objects.get(pk=course.pk))
    if request.method == "POST" and form.is_valid():
        try:
            change = actions.update_course_settings(course, request.user, **form.cleaned_data)
        except CourseError as exc:
            form.add_error("target_cc", str(exc))
        else:
            messages.success(request, _("Course settings saved.") if change.changed else _("Nothing was changed."))
            if "target_cc" in change.changed:
                gpus = dict(target_gpu_choices())
                messages.info(request, _("The target GPU is now %(new)s (it was %(old)s): kernels graded and questions "
                                         "drawn from now on are for it.") % {
                    "new": gpus.get(change.course.target_cc), "old": gpus.get(change.old_target_cc, change.old_target_cc)})
            return redirect("courses:course", code=course.code)
    return render(request, "courses/settings.html", {"course": course, "form": form},
                  status=400 if form.errors else 200)


# The management page's sections that show the messages meant for them under their heading (a redirect
# to ".../manage/#invites" scrolls the page's top, and the messages there, out of view).
MESSAGE_SECTIONS = ("members", "invites")


def _at(section: str) -> str:
    """The extra tag of a message shown in `section` of the management page (the warpdrill tags)."""
    return f"at-{section}"


def _to_section(course, section: str):
    return redirect(reverse("courses:manage", kwargs={"code": course.code}) + "#" + section)


def _manage_context(request, course, role, **extra) -> dict:
    # Instructors first, then TAs, then students; each by username.
    rank = Case(When(role=Role.INSTRUCTOR, then=0), When(role=Role.TA, then=1), default=2)
    members = (course.memberships.select_related("user", "user__profile").annotate(rank=rank)
               .order_by("rank", "user__username"))
    invites = course.invites.order_by("-created_at")
    if not access.can_administer(role):
        # A TA hands out student invites; a staff invite's code would let them sign up a second
        # account as a TA or an instructor of the course.
        invites = invites.filter(role=Role.STUDENT)
    return {
        "course": course, "role": role, "can_administer": access.can_administer(role),
        "members": members, "invites": invites, "roles": Role.choices,
        "invite_form": extra.pop("invite_form", None) or InviteForm(),
        "roster_form": extra.pop("roster_form", None) or RosterForm(),
        "join_url": request.build_absolute_uri(reverse("courses:join_form")),
        "message_sections": MESSAGE_SECTIONS,
        **extra,
    }


@login_required
def manage(request, code: str):
    """The course's staff page: members and roles, invites, roster upload (TAs see, instructors change)."""
    course, role = access.course_for(request.user, code, *access.MANAGERS)
    return render(request, "courses/manage.html", _manage_context(request, course, role))


def _refused(request, exc: CourseError, course, section: str):
    messages.error(request, str(exc), extra_tags=_at(section))
    return _to_section(course, section)


@require_POST
@login_required
def invite_create(request, code: str):
    course, role = access.course_for(request.user, code, *access.INSTRUCTORS)
    form = InviteForm(request.POST)
    if not form.is_valid():
        return render(request, "courses/manage.html", _manage_context(request, course, role, invite_form=form), status=400)
    try:
        invite = actions.create_invite(course, request.user, role=form.cleaned_data["role"],
                                       expires_at=form.expires_at(), max_uses=form.cleaned_data["max_uses"])
    except CourseError as exc:
        return _refused(request, exc, course, "invites")
    messages.success(request, _("Invite %(code)s created.") % {"code": invite.code}, extra_tags=_at("invites"))
    return _to_section(course, "invites")


@require_POST
@login_required
def invite_revoke(request, code: str, invite_id: int):
    course, _role = access.course_for(request.user, code, *access.INSTRUCTORS)
    invite = actions.revoke_invite(course, request.user, invite_id)
    messages.success(request, _("Invite %(code)s revoked: it no longer works.") % {"code": invite.code},
                     extra_tags=_at("invites"))
    return _to_section(course, "invites")


@require_POST
@login_required
def member_role(request, code: str, membership_id: int):
    course, _role = access.course_for(request.user, code, *access.INSTRUCTORS)
    form = RoleForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Unknown role."), extra_tags=_at("members"))
        return _to_section(course, "members")
    try:
        member = actions.set_role(course, request.user, membership_id, form.cleaned_data["role"])
    except CourseError as exc:
        return _refused(request, exc, course, "members")
    messages.success(request, _("%(user)s is now %(role)s.") % {"user": member.user.get_username(),
                                                                  "role": member.get_role_display()},
                     extra_tags=_at("members"))
    return _to_section(course, "members")


@login_required
def member_remove(request, code: str, membership_id: int):
    """GET: what removing the member does (an exam they are taking now is closed); POST: remove them."""
    from exams.services import member_attempts_in_progress

    course, _role = access.course_for(request.user, code, *access.INSTRUCTORS)
    if request.method != "POST":
        membership = get_object_or_404(course.memberships.select_related("user"), pk=membership_id)
        return render(request, "courses/member_remove.html", {
            "course": course, "membership": membership,
            "in_progress": member_attempts_in_progress(course, membership.user)})
    try:
        closed = actions.remove_member(course, request.user, membership_id)
    except CourseError as exc:
        return _refused(request, exc, course, "members")
    messages.success(request, _("Member removed from the course."), extra_tags=_at("members"))
    if closed:
        messages.info(request, ngettext(
            "Their exam in progress (%(exams)s) was closed and graded with the answers saved so far.",
            "Their exams in progress (%(exams)s) were closed and graded with the answers saved so far.",
            len(closed)) % {"exams": ", ".join(a.exam.localized_title for a in closed)}, extra_tags=_at("members"))
    return _to_section(course, "members")


@login_required
def roster_upload(request, code: str):
    """POST: upload a roster CSV, keep its report in the session and redirect here (a refresh then
    uploads nothing). GET: the management page with the upload form, and the report of the upload just
    made, once."""
    course, role = access.course_for(request.user, code, *access.INSTRUCTORS)
    if request.method == "POST":
        form = RosterForm(request.POST, request.FILES)
        if not form.is_valid():
            return render(request, "courses/manage.html", _manage_context(request, course, role, roster_form=form),
                          status=400)
        report = actions.import_roster(course, request.user, form.cleaned_data["file"].read())
        reports.store_report(request.session, course.code, report)
        return redirect(reverse("courses:roster-upload", kwargs={"code": course.code}) + "#report")
    report = reports.pop_report(request.session, course.code)
    extra = {}
    if report is not None:
        extra = {"report": report,
                 "report_error": file_issue_text(report.error, report.error_detail) if report.error else "",
                 "report_problems": [(p, row_problem_text(p)) for p in report.problems],
                 "report_conflicts": [(c, student_id_conflict_text(c)) for c in report.conflicts]}
    return render(request, "courses/manage.html", _manage_context(request, course, role, **extra))


@login_required
def passwords(request, code: str):
    """Printable one-time set-password links for the accounts this course's roster created."""
    course, _role = access.course_for(request.user, code, *access.INSTRUCTORS)
    links = [(link.user, request.build_absolute_uri(link.path)) for link in services.password_links(course, request.user)]
    return render(request, "courses/passwords.html", {"course": course, "links": links})
