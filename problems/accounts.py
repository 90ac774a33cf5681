"""Accounts: sign-up, and the roles the pages ask about (Student, Instructor).

Log in and log out are Django's own views (config/accounts_urls.py); their templates live in
templates/registration/.
"""
from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import Group
from django.db import transaction
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme

STUDENT_GROUP = "Student"
INSTRUCTOR_GROUP = "Instructor"


def is_instructor(user) -> bool:
    """Staff and members of the Instructor group may see every submission and hidden test details."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_staff:
        return True
    cached = getattr(user, "_warpdrill_is_instructor", None)
    if cached is None:
        cached = user._warpdrill_is_instructor = user.groups.filter(name=INSTRUCTOR_GROUP).exists()
    return cached


def create_student(form: UserCreationForm):
    """Save the sign-up form's user and put it in the Student group. Call inside a transaction."""
    user = form.save()
    group, _ = Group.objects.get_or_create(name=STUDENT_GROUP)
    user.groups.add(group)
    return user


def signup(request):
    """Sign up with a username and password; the new user joins Student and is logged in."""
    if request.user.is_authenticated:
        return redirect(settings.LOGIN_REDIRECT_URL)
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(next_url, {request.get_host()}, require_https=request.is_secure()):
        next_url = ""
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            user = create_student(form)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(next_url or settings.LOGIN_REDIRECT_URL)
    return render(request, "registration/signup.html", {"form": form, "next": next_url})
