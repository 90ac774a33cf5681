"""Admin of submissions: searchable and filterable; grading state is written only by the queue.

Instructors (staff in the Instructor group) read submissions and rejudge them; only superusers may
edit a submission's fields.
"""
from django.contrib import admin, messages
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop
from django.utils.translation import ngettext

from grader.core.verdicts import Verdict
from problems.templatetags.warpdrill import verdict_label

from . import actions
from . import rejudging
from .models import Submission

# Django's admin says these; its Korean catalogue lacks the first and words the second "status(으)로".
# Marked here so that makemessages keeps our translations of them (locale/ takes precedence).
gettext_noop("Filter by %(field_name)s")  # admin/date_hierarchy.html
gettext_noop(" By %(filter_title)s ")  # admin/filter.html

# What a student sent: instructors read it; rewriting it and then rejudging would grade work the
# student never submitted, so only superusers may edit these.
SUBMITTED_FIELDS = ("user", "problem_version", "source", "launch_block", "launch_grid", "launch_shared_bytes")
# Read-only, the source is shown by source_shown: the admin renders a read-only text field through
# linebreaksbr, which collapses the indentation of code.
READ_ONLY_SUBMITTED_FIELDS = tuple("source_shown" if f == "source" else f for f in SUBMITTED_FIELDS)


class VerdictListFilter(admin.SimpleListFilter):
    """Filter by verdict, offered under the labels the site shows (the model's choices are the codes)."""

    title = Submission._meta.get_field("verdict").verbose_name
    # The parameter Django's own choices filter used, so that bookmarked filtered lists keep working.
    parameter_name = "verdict__exact"

    def lookups(self, request, model_admin):
        return [(verdict.value, verdict_label(verdict.value)) for verdict in Verdict]

    def queryset(self, request, queryset):
        if self.value():
            return queryset.filter(verdict=self.value())
        return queryset


@admin.register(Submission)
class SubmissionAdmin(admin.ModelAdmin):
    list_display = ("id", "user", "problem_version", "status", "verdict_shown", "backend", "tries", "created_at",
                    "finished_at")
    list_filter = ("status", VerdictListFilter, "backend", "problem_version__problem")
    search_fields = ("user__username", "problem_version__problem__slug", "problem_version__problem__title_en")
    date_hierarchy = "created_at"
    list_select_related = ("user", "problem_version__problem")
    raw_id_fields = ("user", "problem_version")
    # Grading state belongs to grader.actions (the one write path): shown, never edited here.
    readonly_fields = ("status", "verdict_shown", "progress_done", "progress_total", "result", "backend", "tries",
                       "created_at", "queued_at", "started_at", "finished_at")
    fieldsets = (
        (None, {"fields": ("user", "problem_version", "source")}),
        (_("Launch"), {"fields": ("launch_block", "launch_grid", "launch_shared_bytes")}),
        (_("Grading"), {"fields": readonly_fields}),
    )
    actions = ["rejudge_selected"]

    @admin.display(description=_("Verdict"), ordering="verdict")
    def verdict_shown(self, obj):
        """The verdict's label, as on the site's own pages (None, shown as a dash, until graded)."""
        return verdict_label(obj.verdict) if obj.verdict else None

    @admin.display(description=Submission._meta.get_field("source").verbose_name)
    def source_shown(self, obj):
        """The source as the student wrote it: its indentation and blank lines kept, HTML escaped."""
        return format_html('<pre style="margin: 0; overflow-x: auto; white-space: pre;">{}</pre>', obj.source)

    def get_readonly_fields(self, request, obj=None):
        if request.user.is_superuser:
            return self.readonly_fields
        return READ_ONLY_SUBMITTED_FIELDS + self.readonly_fields

    def get_fieldsets(self, request, obj=None):
        """Those above; for those who may not edit the source, its read-only form (source_shown)."""
        if request.user.is_superuser:
            return self.fieldsets
        return [(name, {**options, "fields": tuple("source_shown" if f == "source" else f for f in options["fields"])})
                for name, options in self.fieldsets]

    @admin.action(description=_("Rejudge selected submissions"), permissions=["change"])
    def rejudge_selected(self, request, queryset):
        """Queue the selected graded submissions again (grader.rejudging.rejudge); say what was skipped."""
        ids = list(queryset.values_list("pk", flat=True))
        exam = queryset.filter(exam_item__isnull=False).count()
        queued = rejudging.rejudge(ids)
        skipped = len(ids) - queued - exam
        text = ngettext("%(n)d submission queued for rejudging.", "%(n)d submissions queued for rejudging.",
                        queued) % {"n": queued}
        if exam:
            text += " " + ngettext(
                "%(n)d exam submission skipped: re-judge it from its exam's regrade page, which previews the scores.",
                "%(n)d exam submissions skipped: re-judge them from their exam's regrade page, which previews the scores.",
                exam,
            ) % {"n": exam}
        if skipped > 0:
            text += " " + ngettext(
                "%(n)d skipped because it is still queued or being graded.",
                "%(n)d skipped because they are still queued or being graded.",
                skipped,
            ) % {"n": skipped}
        self.message_user(request, text, messages.SUCCESS if queued else messages.WARNING)
