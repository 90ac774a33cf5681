"""URL wiring: accounts, problems, submissions, practice, courses, the playground, LTI 1.3, the JSON API and the admin."""
from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/", include("accounts.urls")),
    path("api/v1/", include("grader.api_urls")),
    path("submissions/", include("grader.urls")),
    path("practice/", include("practice.urls")),
    path("courses/<str:code>/problems/", include("authoring.urls")),
    path("courses/<str:code>/sets/", include("homework.urls")),
    path("courses/", include("courses.urls")),
    path("exams/", include("exams.urls")),
    path("lti/", include("lti.urls")),
    path("playground/", include("playground.urls")),
    path("", include("problems.urls")),
]
