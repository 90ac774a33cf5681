"""Authoring pages, mounted at /courses/<code>/problems/."""
from django.urls import path

from . import views

app_name = "authoring"
urlpatterns = [
    path("", views.index, name="index"),
    path("new/", views.new, name="new"),
    path("upload/", views.upload, name="upload"),
    path("preview/", views.preview, name="preview"),
    path("families/", views.family_preview, name="family-preview"),
    path("bank/<slug:slug>/copy/", views.copy, name="copy"),
    path("dashboard/", views.dashboard, name="dashboard"),
    path("dashboard/<slug:slug>/", views.dashboard, name="problem-dashboard"),
    path("<slug:slug>/", views.edit, name="edit"),
    path("<slug:slug>/history/", views.history, name="history"),
    path("<slug:slug>/fields/", views.yaml_form, name="yaml-form"),
    path("<slug:slug>/download/", views.download, name="download"),
    path("<slug:slug>/v<int:number>/download/", views.download, name="download-version"),
    path("<slug:slug>/v<int:number>/validate/", views.validate, name="validate"),
    path("<slug:slug>/v<int:number>/publish/", views.publish, name="publish"),
    path("<slug:slug>/v<int:number>/as-student/", views.as_student, name="as-student"),
    path("<slug:slug>/unpublish/", views.unpublish, name="unpublish"),
    path("<slug:slug>/runs/<int:run_id>/", views.run, name="run"),
    path("<slug:slug>/rejudge/", views.rejudge, name="rejudge"),
    path("<slug:slug>/rejudge/<int:run_id>/", views.rejudge_run, name="rejudge-run"),
]
