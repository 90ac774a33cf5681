"""JSON API v1 (mounted at /api/v1/)."""
from django.urls import path, re_path

from playground import api as playground_api

from . import api

app_name = "api"
urlpatterns = [
    path("token", api.TokenView.as_view(), name="token"),
    path("problems", api.ProblemListView.as_view(), name="problems"),
    path("problems/<slug:slug>", api.ProblemDetailView.as_view(), name="problem"),
    path("problems/<slug:slug>/submissions", api.ProblemSubmissionsView.as_view(), name="problem-submissions"),
    path("submissions", api.SubmissionListView.as_view(), name="submissions"),
    path("submissions/<int:pk>", api.SubmissionDetailView.as_view(), name="submission"),
    # The playground's runs (playground/api.py): never graded, on the same queue.
    path("playground/runs", playground_api.PlaygroundRunsView.as_view(), name="playground-runs"),
    path("playground/runs/<str:key>", playground_api.PlaygroundRunView.as_view(), name="playground-run"),
    # Last: anything else under /api/v1/ is a JSON 404, not Django's HTML page. Unnamed on purpose,
    # since it is not a route of its own (tests/access/test_ownership.py lists the named ones).
    re_path(r"^(?P<path>.*)$", api.not_found),
]
