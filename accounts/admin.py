"""The student IDs users give (accounts.Profile), searchable by username and ID."""
from django.contrib import admin

from .models import Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("user", "student_id")
    search_fields = ("user__username", "user__first_name", "user__email", "student_id")
    raw_id_fields = ("user",)
