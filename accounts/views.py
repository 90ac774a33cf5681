"""Accounts pages: Django's log-in view (answering a locked-out attempt with 429) and sign-up.

Log out is Django's own view; the templates live in templates/registration/.
"""
from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.db import transaction
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import ngettext

from .actions import create_student, note_signup, signup_wait_s
from .forms import SignupForm
from .login_limits import is_locked_out, lockout_message


class LoginView(auth_views.LoginView):
    """Django's log-in view; when django-axes refuses the attempt, the form says why (status 429)."""

    def form_invalid(self, form):
        if not is_locked_out(self.request):
            return super().form_invalid(form)
        form.errors.clear()
        form.add_error(None, lockout_message())
        return self.render_to_response(self.get_context_data(form=form, locked_out=True), status=429)


def signup(request):
    """Sign up with a username and password; the new user joins Student and is logged in."""
    if request.user.is_authenticated:
        return redirect(settings.LOGIN_REDIRECT_URL)
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(next_url, {request.get_host()}, require_https=request.is_secure()):
        next_url = ""
    form = SignupForm(request.POST or None)
    if request.method == "POST":
        wait = signup_wait_s(request)
        if wait:
            form.is_valid()  # the form keeps what was typed; the refusal is the page's only error
            form.errors.clear()
            form.add_error(None, ngettext(
                "Too many accounts were created from your address. Try again in %(minutes)d minute.",
                "Too many accounts were created from your address. Try again in %(minutes)d minutes.",
                wait // 60 + 1) % {"minutes": wait // 60 + 1})
            return render(request, "registration/signup.html", {"form": form, "next": next_url}, status=429)
        if form.is_valid():
            with transaction.atomic():
                user = create_student(form)
            note_signup(request)
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect(next_url or settings.LOGIN_REDIRECT_URL)
    return render(request, "registration/signup.html", {"form": form, "next": next_url})
