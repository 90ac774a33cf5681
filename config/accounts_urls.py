"""Accounts: Django's auth views plus sign-up. The log-in view answers a locked-out attempt with 429."""
from django.contrib.auth import views as auth_views
from django.urls import path

from config.login_limits import is_locked_out, lockout_message
from problems import accounts


class LoginView(auth_views.LoginView):
    """Django's log-in view; when django-axes refuses the attempt, the form says why (status 429)."""

    def form_invalid(self, form):
        if not is_locked_out(self.request):
            return super().form_invalid(form)
        form.errors.clear()
        form.add_error(None, lockout_message())
        return self.render_to_response(self.get_context_data(form=form, locked_out=True), status=429)


urlpatterns = [
    path("login/", LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("signup/", accounts.signup, name="signup"),
]
