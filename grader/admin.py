"""Admin of submissions: searchable and filterable; grading state is written only by the queue."""
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from .models import Submission


@admin.register(Submission)
class SubmissionAdmin(admin.ModelAdmin):
    list_display = ("id", "user", "problem_version", "status", "verdict", "backend", "tries", "created_at", "finished_at")
    list_filter = ("status", "verdict", "backend", "problem_version__problem")
    search_fields = ("user__username", "problem_version__problem__slug", "problem_version__problem__title_en")
    date_hierarchy = "created_at"
    list_select_related = ("user", "problem_version__problem")
    raw_id_fields = ("user", "problem_version")
    # Grading state belongs to grader.actions (the one write path): shown, never edited here.
    readonly_fields = ("status", "verdict", "progress_done", "progress_total", "result", "backend", "tries",
                       "created_at", "queued_at", "started_at", "finished_at")
    fieldsets = (
        (None, {"fields": ("user", "problem_version", "source")}),
        (_("Launch"), {"fields": ("launch_block", "launch_grid", "launch_shared_bytes")}),
        (_("Grading"), {"fields": readonly_fields}),
    )
