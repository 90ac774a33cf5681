"""Accounts pages: Django's log-in view (answering a locked-out attempt with 429), sign-up, My account
and the API token page.

Log out is Django's own view; the templates live in templates/registration/.
"""
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth import views as auth_views
from django.db import transaction
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from . import tokens as api_tokens

from courses.language import speak_course_language
from courses.services import invite_code_of_link

from .actions import create_student, note_signup, signup_wait_s
from .forms import AccountForm, SignupForm
from .profiles import set_identity
from .login_limits import is_locked_out, lockout_message


class LoginView(auth_views.LoginView):
    """Django's log-in view; when django-axes refuses the attempt, the form says why (status 429). A log-in
    on the way to a course's join link names the course (`invite`)."""

    def get_context_data(self, **kwargs):
        from courses.language import speak_course_language

        context = super().get_context_data(**kwargs)
        context["invite"] = join_invite(self.request, context.get("next") or "")
        speak_course_language(self.request, context["invite"].course if context["invite"] else None)
        return context

    def form_invalid(self, form):
        if not is_locked_out(self.request):
            return super().form_invalid(form)
        form.errors.clear()
        form.add_error(None, lockout_message())
        return self.render_to_response(self.get_context_data(form=form, locked_out=True), status=429)


def join_invite(request, next_url: str):
    """The usable course invite a sign-up or log-in comes with: the code typed in the sign-up form
    (where the site requires one), else the one its `next` join link names; None when there is none
    or it cannot enrol anyone now (unknown, revoked, expired, used up)."""
    from courses.services import invite_code_of_link, usable_invite

    code = request.POST.get("invite_code", "") if request.method == "POST" else ""
    return usable_invite(code or invite_code_of_link(next_url))


def signup(request):
    """Sign up with a username and password, and optionally a full name, an email and (joining a course)
    a student ID; the new user joins Student and is logged in.

    A sign-up that comes with a usable course invite (from the invite's link: `next` is its join page;
    or the code field of a closed deployment) is enrolled with it in the same transaction, which uses
    the invite, and goes to the course; it is held to the per-invite limit of sign-ups from one
    address (WARPDRILL_INVITE_SIGNUPS_PER_HOUR) instead of the address's own (accounts.actions); its
    page speaks the course's default language where the visitor names none (courses.language)."""
    from courses.errors import InviteError

    if request.user.is_authenticated:
        return redirect(settings.LOGIN_REDIRECT_URL)
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(next_url, {request.get_host()}, require_https=request.is_secure()):
        next_url = ""
    invite = join_invite(request, next_url)
    speak_course_language(request, invite.course if invite is not None else None)
    form = SignupForm(request.POST or None, with_student_id=invite is not None)
    context = {"form": form, "next": next_url, "invite": invite}
    if request.method == "POST":
        invite_id = invite.pk if invite is not None else None
        wait = signup_wait_s(request, invite_id=invite_id)
        if wait:
            form.is_valid()  # the form keeps what was typed; the refusal is the page's only error
            form.errors.clear()
            form.add_error(None, ngettext(
                "Too many accounts were created from your address. Try again in %(minutes)d minute.",
                "Too many accounts were created from your address. Try again in %(minutes)d minutes.",
                wait // 60 + 1) % {"minutes": wait // 60 + 1})
            return render(request, "registration/signup.html", context, status=429)
        if form.is_valid():
            try:
                with transaction.atomic():
                    user = create_student(form, invite.code if invite is not None else "")
            except InviteError as exc:  # the invite stopped working since the page was shown
                form.add_error(None, str(exc))
                return render(request, "registration/signup.html", {**context, "invite": None}, status=409)
            note_signup(request, invite_id=invite_id)
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            if invite is not None:
                messages.success(request, _("Welcome to %(course)s.") % {"course": invite.course.name})
                if not next_url or invite_code_of_link(next_url):  # joined already: not the join page again
                    return redirect("courses:course", code=invite.course.code)
            return redirect(next_url or settings.LOGIN_REDIRECT_URL)
    return render(request, "registration/signup.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def account(request):
    """My account: the user's full name, email and student ID (all optional; the courses they are in
    show them to their staff), a link to change the password where the account has one, and one to
    the API token."""
    form = AccountForm(request.POST or None, account=request.user)
    if request.method == "POST" and form.is_valid():
        set_identity(request.user, **form.identity())
        messages.success(request, _("Your account details were saved."))
        return redirect("account")
    return render(request, "accounts/account.html", {"form": form, "has_password": request.user.has_usable_password()},
                  status=400 if form.errors else 200)


@never_cache  # the page answering "create" holds the key
@login_required
@require_http_methods(["GET", "POST"])
def tokens(request):
    """The user's API token: when it was created and last used, with buttons to create a new one
    (the key is shown once, on the page that answers the POST) and to revoke it.

    POST action=create replaces any old key; action=revoke deletes it (clients using it get 401).
    A changed password deletes it too (accounts.tokens.rotate_on_password_change).
    """
    new_key = None
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "create":
            new_key = api_tokens.create(request.user)
        elif action == "revoke":
            if api_tokens.revoke(request.user):
                messages.success(request, _("Your API token was revoked: scripts using it are refused from now on."))
            return redirect("api_tokens")
        else:
            return render(request, "accounts/tokens.html", {"token": api_tokens.token_info(request.user)}, status=400)
    return render(request, "accounts/tokens.html", {"token": api_tokens.token_info(request.user), "new_key": new_key})
