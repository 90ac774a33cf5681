"""Admin for exams: read-mostly views of templates, exams, attempts and their timelines."""
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from .models import Accommodation, AttemptEvent, Exam, ExamAttempt, ExamItem, ExamTemplate


@admin.register(ExamTemplate)
class ExamTemplateAdmin(admin.ModelAdmin):
    list_display = ("title", "course", "updated_at")
    list_filter = ("course",)


class AccommodationInline(admin.TabularInline):
    model = Accommodation
    extra = 0
    raw_id_fields = ("user",)


@admin.register(Exam)
class ExamAdmin(admin.ModelAdmin):
    list_display = ("title", "course", "opens_at", "closes_at", "duration_minutes", "feedback")
    list_filter = ("course",)
    inlines = [AccommodationInline]
    readonly_fields = ("spec",)


class ExamItemInline(admin.TabularInline):
    model = ExamItem
    extra = 0
    fields = ("number", "key", "kind", "answer", "points", "max_points", "status")
    readonly_fields = fields
    can_delete = False


class AttemptEventInline(admin.TabularInline):
    model = AttemptEvent
    extra = 0
    fields = ("at", "kind", "by", "data")
    readonly_fields = fields
    can_delete = False


@admin.register(ExamAttempt)
class ExamAttemptAdmin(admin.ModelAdmin):
    list_display = ("exam", "user", "state_shown", "total", "max_total", "started_at", "deadline")
    list_filter = ("state", "close_reason", "exam")
    search_fields = ("user__username",)
    readonly_fields = ("exam", "user", "started_at", "deadline", "ended_at", "last_saved_at", "saves", "total",
                       "max_total", "state", "close_reason")
    inlines = [ExamItemInline, AttemptEventInline]

    @admin.display(description=_("state"), ordering="state")
    def state_shown(self, attempt):
        """The state as the site's pages name it (a removed student's attempt says so)."""
        return attempt.state_label

    def has_add_permission(self, request):
        return False
