"""LTI 1.3 URLs, mounted at /lti/."""
from django.urls import path

from . import views

app_name = "lti"
urlpatterns = [
    path("login/", views.oidc_login, name="login"),
    path("launch/", views.launch, name="launch"),
    path("jwks.json", views.jwks, name="jwks"),
    path("course/<str:code>/", views.course_links, name="links"),
    path("course/<str:code>/links/<int:link_id>/sync/", views.sync, name="sync"),
]
