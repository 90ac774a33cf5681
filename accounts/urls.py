"""Accounts URLs (mounted at /accounts/): log in, log out, sign up, My account (name, email, student ID) with
Django's password change, the API token page, and the one-time set-password links of roster-created accounts
(Django's password-reset confirm view). Names are global."""
from django.contrib.auth import views as auth_views
from django.urls import path

from . import views

urlpatterns = [
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("signup/", views.signup, name="signup"),
    path("me/", views.account, name="account"),
    path("password/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("password/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("tokens/", views.tokens, name="api_tokens"),
    # No "forgot password" form (the site sends no email): links are made by a course's instructor
    # for accounts its roster created (courses/services.py: password_links).
    path("reset/<uidb64>/<token>/", auth_views.PasswordResetConfirmView.as_view(), name="password_reset_confirm"),
    path("reset/done/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
]
