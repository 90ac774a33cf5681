"""Courses pages (mounted at /courses/). Course codes are URL segments; 'join' and 'new' are reserved."""
from django.urls import path

from . import views

app_name = "courses"
urlpatterns = [
    path("", views.home, name="home"),
    path("new/", views.new, name="new"),
    path("join/", views.join_form, name="join_form"),
    path("join/<str:code>/", views.join, name="join"),
    path("<str:code>/", views.course, name="course"),
    path("<str:code>/settings/", views.settings, name="settings"),
    path("<str:code>/manage/", views.manage, name="manage"),
    path("<str:code>/manage/invites/", views.invite_create, name="invite-create"),
    path("<str:code>/manage/invites/<int:invite_id>/revoke/", views.invite_revoke, name="invite-revoke"),
    path("<str:code>/manage/members/<int:membership_id>/role/", views.member_role, name="member-role"),
    path("<str:code>/manage/members/<int:membership_id>/remove/", views.member_remove, name="member-remove"),
    path("<str:code>/manage/roster/", views.roster_upload, name="roster-upload"),
    path("<str:code>/manage/passwords/", views.passwords, name="passwords"),
]
