"""Authoring pages, mounted at /courses/<code>/problems/."""
from django.urls import path

from .views import dashboard, editor, packages, previews, rejudge, validation, yaml_form

app_name = "authoring"
urlpatterns = [
    path("", packages.index, name="index"),
    path("new/", packages.new, name="new"),
    path("upload/", packages.upload, name="upload"),
    path("preview/", editor.preview, name="preview"),
    path("families/", previews.family_preview, name="family-preview"),
    path("bank/<slug:slug>/copy/", packages.copy, name="copy"),
    path("dashboard/", dashboard.dashboard, name="dashboard"),
    path("dashboard/<slug:slug>/", dashboard.dashboard, name="problem-dashboard"),
    path("<slug:slug>/", editor.edit, name="edit"),
    path("<slug:slug>/history/", editor.history, name="history"),
    path("<slug:slug>/fields/", yaml_form.yaml_form, name="yaml-form"),
    path("<slug:slug>/download/", packages.download, name="download"),
    path("<slug:slug>/v<int:number>/download/", packages.download, name="download-version"),
    path("<slug:slug>/v<int:number>/validate/", validation.validate, name="validate"),
    path("<slug:slug>/v<int:number>/publish/", validation.publish, name="publish"),
    path("<slug:slug>/v<int:number>/exams-only/", validation.exams_only, name="exams-only"),
    path("<slug:slug>/v<int:number>/as-student/", previews.as_student, name="as-student"),
    path("<slug:slug>/unpublish/", validation.unpublish, name="unpublish"),
    path("<slug:slug>/runs/<int:run_id>/", validation.run, name="run"),
    path("<slug:slug>/rejudge/", rejudge.rejudge, name="rejudge"),
    path("<slug:slug>/rejudge/<int:run_id>/", rejudge.rejudge_run, name="rejudge-run"),
]
