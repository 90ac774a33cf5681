"""JSON API v1 (mounted at /api/v1/)."""
from django.urls import path

from . import api

app_name = "api"
urlpatterns = [
    path("token", api.TokenView.as_view(), name="token"),
    path("problems", api.ProblemListView.as_view(), name="problems"),
    path("problems/<slug:slug>/submissions", api.ProblemSubmissionsView.as_view(), name="problem-submissions"),
    path("submissions", api.SubmissionListView.as_view(), name="submissions"),
    path("submissions/<int:pk>", api.SubmissionDetailView.as_view(), name="submission"),
]
