"""Practice with generated questions, and the occupancy calculator (mounted at /practice/)."""
from django.urls import path

from . import views

app_name = "practice"
urlpatterns = [
    path("", views.home, name="home"),
    path("start/", views.start, name="start"),
    path("q/<int:pk>/", views.question, name="question"),
    path("q/<int:pk>/reveal/", views.reveal, name="reveal"),
    path("progress/", views.progress_page, name="progress"),
    path("occupancy/", views.calculator, name="calculator"),
]
