"""Admin of submissions: searchable and filterable; grading state is written only by the queue.

Instructors (staff in the Instructor group) read submissions and rejudge them; only superusers may
edit a submission's fields.
"""
from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from . import actions
from .models import Submission

# What a student sent: instructors read it; rewriting it and then rejudging would grade work the
# student never submitted, so only superusers may edit these.
SUBMITTED_FIELDS = ("user", "problem_version", "source", "launch_block", "launch_grid", "launch_shared_bytes")


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
    actions = ["rejudge_selected"]

    def get_readonly_fields(self, request, obj=None):
        if request.user.is_superuser:
            return self.readonly_fields
        return SUBMITTED_FIELDS + self.readonly_fields

    @admin.action(description=_("Rejudge selected submissions"), permissions=["change"])
    def rejudge_selected(self, request, queryset):
        """Queue the selected graded submissions again (grader.actions.rejudge); say what was skipped."""
        ids = list(queryset.values_list("pk", flat=True))
        queued = actions.rejudge(ids)
        skipped = len(ids) - queued
        text = ngettext("%(n)d submission queued for rejudging.", "%(n)d submissions queued for rejudging.",
                        queued) % {"n": queued}
        if skipped:
            text += " " + ngettext(
                "%(n)d skipped because it is still queued or being graded.",
                "%(n)d skipped because they are still queued or being graded.",
                skipped,
            ) % {"n": skipped}
        self.message_user(request, text, messages.SUCCESS if queued else messages.WARNING)
