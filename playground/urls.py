"""Playground pages (mounted at /playground/)."""
from django.urls import path

from . import views

app_name = "playground"
urlpatterns = [
    path("", views.playground, name="home"),
    path("r/<str:key>/", views.run_detail, name="run"),
    path("r/<str:key>/live/", views.run_live, name="run-live"),
    path("r/<str:key>/share/", views.run_share, name="run-share"),
]
