"""Problem pages (mounted at the site root)."""
from django.urls import path

from . import views

app_name = "problems"
urlpatterns = [
    path("", views.problem_list, name="list"),
    path("problems/<slug:slug>/", views.problem_detail, name="detail"),
]
