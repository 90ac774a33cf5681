"""Submission pages (mounted at /submissions/)."""
from django.urls import path

from . import views

app_name = "grader"
urlpatterns = [
    path("", views.submission_list, name="list"),
    path("<int:pk>/", views.submission_detail, name="submission"),
    path("<int:pk>/live/", views.submission_live, name="submission-live"),
    path("<int:pk>/writemap/", views.submission_writemap, name="submission-writemap"),
]
